// feeds_config.cc: feeds.toml through toml++, with line numbers in errors.
#include "indexer/feeds_config.h"

#include <toml++/toml.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "indexer/snapshot.h"
#include "indexer/url.h"

namespace blogsearch {

namespace {

std::string where(const std::string& path, const toml::source_region& r) {
  return path + ":" + std::to_string(r.begin.line);
}

}  // namespace

namespace {

std::vector<FeedConfig> feeds_of(const toml::table& root, const std::string& path);

}  // namespace

std::vector<FeedConfig> load_feeds_config(const std::string& path) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    // toml++ reports a file it cannot open as a parse error at line 0.
    if (e.source().begin.line == 0) throw ConfigError(path + ": cannot read: " + std::string(e.description()));
    throw ConfigError(where(path, e.source()) + ": " + std::string(e.description()));
  } catch (const std::exception& e) {
    throw ConfigError(path + ": " + e.what());
  }
  return feeds_of(root, path);
}

std::vector<FeedConfig> parse_feeds_config(const std::string& text, const std::string& path) {
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw ConfigError(where(path, e.source()) + ": " + std::string(e.description()));
  }
  return feeds_of(root, path);
}

namespace {

std::vector<FeedConfig> feeds_of(const toml::table& root, const std::string& path) {
  // A misspelt key would be ignored ("enabeld = false" fetched anyway): every
  // key must be known, and the error names its own line.
  for (const auto& [key, value] : root) {
    if (key.str() != "feed")
      throw ConfigError(where(path, value.source()) + ": unknown key '" + std::string(key.str()) +
                        "' (the file holds [[feed]] tables)");
  }
  std::vector<FeedConfig> feeds;
  const toml::node* list = root.get("feed");
  if (!list) return feeds;
  const toml::array* arr = list->as_array();
  if (!arr) throw ConfigError(where(path, list->source()) + ": 'feed' must be written [[feed]]");
  std::set<std::string> ids;
  for (const toml::node& node : *arr) {
    const toml::table* t = node.as_table();
    if (!t) throw ConfigError(where(path, node.source()) + ": 'feed' must be written [[feed]]");
    for (const auto& [key, value] : *t) {
      const std::string k(key.str());
      if (k != "id" && k != "url" && k != "title" && k != "enabled" && k != "category")
        throw ConfigError(where(path, value.source()) + ": unknown key '" + k +
                          "' in [[feed]] (known: id, url, title, enabled, category)");
    }
    FeedConfig f;
    f.line = static_cast<long>(t->source().begin.line);
    auto str = [&](const char* key, std::string& out, bool required) {
      const toml::node* v = t->get(key);
      if (!v) {
        if (required) throw ConfigError(where(path, t->source()) + ": [[feed]] without '" + key + "'");
        return;
      }
      if (!v->is_string()) throw ConfigError(where(path, v->source()) + ": '" + key + "' must be a string");
      out = **v->as_string();
    };
    str("id", f.id, true);
    str("url", f.url, true);
    str("title", f.title, false);
    str("category", f.category, false);
    if (const toml::node* e = t->get("enabled")) {
      if (!e->is_boolean()) throw ConfigError(where(path, e->source()) + ": 'enabled' must be true or false");
      f.enabled = **e->as_boolean();
    }
    // Each error names the line of the key it is about.
    const std::string id_line = where(path, t->get("id")->source());
    const std::string url_line = where(path, t->get("url")->source());
    if (std::string why = feed_id_problem(f.id); !why.empty()) throw ConfigError(id_line + ": " + why);
    if (!ids.insert(f.id).second) throw ConfigError(id_line + ": id '" + f.id + "' appears twice");
    if (url_scheme(f.url) != "http" && url_scheme(f.url) != "https")
      throw ConfigError(url_line + ": feed '" + f.id + "': url must be an http(s) URL");
    feeds.push_back(std::move(f));
  }
  return feeds;
}

}  // namespace

std::string resolve_config_path(const std::string& from_option) {
  if (!from_option.empty()) return from_option;
  if (std::filesystem::exists("data/feeds.toml")) return "data/feeds.toml";
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/blogsearch/feeds.toml";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.config/blogsearch/feeds.toml";
}

}  // namespace blogsearch
