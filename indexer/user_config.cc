// user_config.cc: config.toml through toml++, checked key by key.
#include "indexer/user_config.h"

#include <toml++/toml.h>

#include <cstdlib>
#include <filesystem>

namespace blogsearch {

namespace fs = std::filesystem;

namespace {

enum class Kind { kPath, kChoice, kCount, kSeconds, kList };

struct Key {
  const char* name;
  Kind kind;
  const char* choices;  // kChoice: "a|b|c"; kList: the allowed items
  long low, high;       // kCount, kSeconds
};

constexpr Key kKeys[] = {
    {"db", Kind::kPath, "", 0, 0},
    {"archive", Kind::kPath, "", 0, 0},
    {"feeds", Kind::kPath, "", 0, 0},
    {"wait", Kind::kSeconds, "", 0, 86400},
    {"sort", Kind::kChoice, "relevance|date|recent", 0, 0},
    {"limit", Kind::kCount, "", 1, 1000},
    {"color", Kind::kChoice, "auto|always|never", 0, 0},
    {"facets", Kind::kList, "category|author|feed|month", 0, 0},
};

bool one_of(const std::string& value, const std::string& choices) {
  return ("|" + choices + "|").find("|" + value + "|") != std::string::npos && !value.empty() &&
         value.find('|') == std::string::npos;
}

std::string home() {
  const char* h = std::getenv("HOME");
  return h && *h ? h : ".";
}

}  // namespace

std::optional<std::string> UserConfig::get(const std::string& key) const {
  auto it = values.find(key);
  if (it == values.end()) return std::nullopt;
  return it->second.value;
}

std::string UserConfig::where(const std::string& key) const {
  auto it = values.find(key);
  return path + ":" + std::to_string(it == values.end() ? 0 : it->second.line);
}

std::string user_config_path() {
  if (const char* env = std::getenv("BLOGSEARCH_CONFIG"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/blogsearch/config.toml";
  return home() + "/.config/blogsearch/config.toml";
}

UserConfig load_user_config(const std::string& path) {
  UserConfig config;
  config.path = path;
  std::error_code ec;
  if (!fs::exists(path, ec)) return config;
  config.found = true;
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    const auto line = e.source().begin.line;
    throw UserConfigError(path + (line ? ":" + std::to_string(line) : std::string()) + ": " +
                          std::string(e.description()));
  }
  const fs::path folder = fs::absolute(fs::path(path), ec).parent_path();
  for (const auto& [name, node] : root) {
    const std::string key(name.str());
    const long line = static_cast<long>(node.source().begin.line);
    const std::string at = path + ":" + std::to_string(line) + ": ";
    const Key* spec = nullptr;
    for (const Key& k : kKeys)
      if (key == k.name) spec = &k;
    if (!spec) {
      std::string known;
      for (const Key& k : kKeys) known += (known.empty() ? "" : ", ") + std::string(k.name);
      throw UserConfigError(at + "unknown key '" + key + "' (known: " + known + ")");
    }
    ConfigValue v;
    v.line = line;
    switch (spec->kind) {
      case Kind::kPath: {
        if (!node.is_string() || node.as_string()->get().empty())
          throw UserConfigError(at + "'" + key + "' must be a path in quotes");
        std::string p = node.as_string()->get();
        if (p == "~" || p.rfind("~/", 0) == 0) p = home() + p.substr(1);
        v.value = fs::path(p).is_absolute() ? p : (folder / p).lexically_normal().string();
        break;
      }
      case Kind::kChoice:
        if (!node.is_string() || !one_of(node.as_string()->get(), spec->choices))
          throw UserConfigError(at + "'" + key + "' must be one of " + spec->choices);
        v.value = node.as_string()->get();
        break;
      case Kind::kCount:
      case Kind::kSeconds: {
        double n = 0;
        if (node.is_integer()) n = static_cast<double>(node.as_integer()->get());
        else if (node.is_floating_point() && spec->kind == Kind::kSeconds) n = node.as_floating_point()->get();
        else throw UserConfigError(at + "'" + key + "' must be a number");
        if (n < static_cast<double>(spec->low) || n > static_cast<double>(spec->high))
          throw UserConfigError(at + "'" + key + "' must be from " + std::to_string(spec->low) + " to " +
                                std::to_string(spec->high));
        v.value = node.is_integer() ? std::to_string(node.as_integer()->get()) : std::to_string(n);
        break;
      }
      case Kind::kList: {
        std::vector<std::string> items;
        if (const toml::array* arr = node.as_array()) {
          for (const toml::node& item : *arr) {
            if (!item.is_string()) throw UserConfigError(at + "'" + key + "' must be a list of names in quotes");
            items.push_back(item.as_string()->get());
          }
        } else if (node.is_string()) {
          std::string list = node.as_string()->get();
          std::size_t from = 0;
          while (from <= list.size()) {
            std::size_t comma = list.find(',', from);
            std::string item = list.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
            item.erase(0, item.find_first_not_of(" \t"));
            item.erase(item.find_last_not_of(" \t") + 1);
            if (!item.empty()) items.push_back(item);
            if (comma == std::string::npos) break;
            from = comma + 1;
          }
        } else {
          throw UserConfigError(at + "'" + key + "' must be a list of names");
        }
        for (const auto& item : items) {
          if (!one_of(item, spec->choices))
            throw UserConfigError(at + "'" + key + "': unknown '" + item + "' (use " + spec->choices + ")");
          v.value += (v.value.empty() ? "" : ",") + item;
        }
        break;
      }
    }
    config.values[key] = std::move(v);
  }
  return config;
}

void default_from_config(std::string& flag, const char* env, const UserConfig& config, const std::string& key) {
  if (!flag.empty()) return;
  if (env) {
    if (const char* value = std::getenv(env); value && *value) return;
  }
  if (auto value = config.get(key)) flag = *value;
}

Setting resolve_setting(const std::string& flag_name, const std::string& flag_value, const char* env,
                        const UserConfig& config, const std::string& key, const std::string& fallback) {
  if (!flag_value.empty()) return {flag_value, flag_name};
  if (env && *env) {
    if (const char* value = std::getenv(env); value && *value) return {value, std::string("$") + env};
  }
  if (auto value = config.get(key)) return {*value, config.where(key)};
  return {fallback, "default"};
}

}  // namespace blogsearch
