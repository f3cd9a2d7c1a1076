// feeds_command.cc: the subscription commands over feeds.toml.
#include "indexer/feeds_command.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <filesystem>
#include <map>

#include "indexer/archive.h"
#include "indexer/count.h"
#include "indexer/feed_discovery.h"
#include "indexer/feeds_config.h"
#include "indexer/feeds_edit.h"
#include "indexer/opml.h"
#include "indexer/schema.h"
#include "indexer/snapshot.h"
#include "indexer/stats.h"
#include "indexer/url.h"
#include "indexer/writer.h"

namespace blogsearch {

namespace {

enum Exit { kOk = 0, kInputError = 2, kPartial = 3, kDatabase = 4 };

void error(const std::string& line) { std::cerr << "blogsearch-index: " << line << '\n'; }

std::vector<std::string> ids_of(const FeedsFile& file) {
  std::vector<std::string> ids;
  for (const auto& f : file.feeds()) ids.push_back(f.id);
  return ids;
}

int run_add(const FeedsArgs& a) {
  FeedsFile file(resolve_config_path(a.config));
  if (!a.id.empty()) {
    if (std::string why = feed_id_problem(a.id); !why.empty()) {
      error("--id: " + why);
      return kInputError;
    }
    if (file.find(a.id)) {
      error(file.path() + ": there is already a feed with id '" + a.id + "'");
      return kInputError;
    }
  }
  // A URL the file has already is told without a fetch (the feed may be
  // down); the feed a page or a redirect leads to, after it.
  if (const FeedConfig* same = file.find_url(a.url)) {
    error(file.already_there(*same, a.url));
    return kInputError;
  }
  ParseOptions parse;
  parse.max_items = a.max_items;
  DiscoveredFeed d = discover_feed(a.url, a.fetch, parse);
  if (const FeedConfig* same = file.find_url(d.url)) {
    error(file.already_there(*same, d.url));
    return kInputError;
  }
  FeedConfig feed;
  feed.url = d.url;
  feed.title = a.title.empty() ? d.title : a.title;
  feed.category = a.category;
  feed.id = a.id.empty() ? new_feed_id(feed.title, d.url, ids_of(file)) : a.id;
  file.append(feed);
  file.save();
  if (d.from_page) {
    std::printf("blogsearch-index: %s is a page; its feed is %s\n", a.url.c_str(), d.url.c_str());
    if (d.alternates.size() > 1) {
      std::printf("blogsearch-index: the page names %zu feeds:", d.alternates.size());
      for (const auto& alt : d.alternates) std::printf(" %s", alt.c_str());
      std::printf(" (add another by its URL)\n");
    }
  }
  std::printf("blogsearch-index: added feed %s to %s: \"%s\", %s (%s), %s\n", feed.id.c_str(), file.path().c_str(),
              d.title.c_str(), counted(static_cast<long long>(d.items), "item", "items").c_str(), d.format.c_str(),
              d.url.c_str());
  return kOk;
}

// Fetch state per feed from the database; empty when it does not exist yet.
std::map<std::string, FeedStats> fetch_states(const std::string& db_option) {
  std::map<std::string, FeedStats> out;
  const std::string db_path = schema::resolve_db_path(db_option);
  std::error_code ec;
  if (!std::filesystem::exists(db_path, ec)) return out;
  for (auto& f : read_stats(db_path, false).feeds) out.emplace(f.id, std::move(f));
  return out;
}

int run_list(const FeedsArgs& a) {
  const std::string path = resolve_config_path(a.config);
  std::vector<FeedConfig> feeds = load_feeds_config(path);
  std::map<std::string, FeedStats> states;
  try {
    states = fetch_states(a.db);
  } catch (const DatabaseError& e) {
    error(e.what());
    return kDatabase;
  }
  struct Row {
    std::string id, title, url, last, state;
  };
  std::vector<Row> rows;
  for (const auto& f : feeds) {
    Row r{f.id, f.title, f.url, "never", f.enabled ? "enabled" : "disabled"};
    auto s = states.find(f.id);
    if (s != states.end()) {
      if (r.title.empty()) r.title = s->second.title;
      if (!s->second.last_attempt.empty()) r.last = s->second.last_attempt;
      if (s->second.fetched && f.enabled) {
        if (s->second.consecutive_failures > 0)
          r.state = "failing (" + std::to_string(s->second.consecutive_failures) + " in a row: " +
                    (s->second.last_error.empty() ? "HTTP " + std::to_string(s->second.last_status)
                                                  : s->second.last_error) +
                    ")";
        else
          r.state = "ok (HTTP " + std::to_string(s->second.last_status) + ")";
      }
    }
    if (r.title.empty()) r.title = "-";
    rows.push_back(std::move(r));
  }
  // Columns as wide as their widest cell (the last one is free).
  std::size_t w[4] = {2, 5, 3, 10};
  for (const auto& r : rows) {
    w[0] = std::max(w[0], r.id.size());
    w[1] = std::max(w[1], std::min<std::size_t>(r.title.size(), 40));
    w[2] = std::max(w[2], r.url.size());
    w[3] = std::max(w[3], r.last.size());
  }
  auto line = [&](const std::string& id, std::string title, const std::string& url, const std::string& last,
                  const std::string& state) {
    if (title.size() > 40) title = title.substr(0, 37) + "...";
    std::printf("%-*s  %-*s  %-*s  %-*s  %s\n", static_cast<int>(w[0]), id.c_str(), static_cast<int>(w[1]),
                title.c_str(), static_cast<int>(w[2]), url.c_str(), static_cast<int>(w[3]), last.c_str(),
                state.c_str());
  };
  line("ID", "TITLE", "URL", "LAST FETCH", "STATE");
  for (const auto& r : rows) line(r.id, r.title, r.url, r.last, r.state);
  return kOk;
}

int run_remove(const FeedsArgs& a) {
  FeedsFile file(resolve_config_path(a.config));
  file.remove(a.id);
  file.save();
  // rebuild reads the archive: the feed's posts go only with its folder
  // there. The folder is named when it is in the archive of the database
  // the other commands would use by default.
  const std::filesystem::path folder =
      std::filesystem::path(resolve_archive_path(a.archive, schema::resolve_db_path(a.db))) / a.id;
  std::error_code ec;
  const std::string how = std::filesystem::is_directory(folder, ec)
                              ? "its posts stay searchable; to drop them, delete " + folder.string() +
                                    "/ and run rebuild"
                              : "any posts it has stay searchable; to drop them, delete its folder " + a.id +
                                    "/ from the archive and run rebuild";
  std::printf("blogsearch-index: removed feed %s from %s (%s)\n", a.id.c_str(), file.path().c_str(), how.c_str());
  return kOk;
}

int run_import(const FeedsArgs& a) {
  std::vector<OpmlFeed> entries;
  try {
    entries = read_opml(read_file(a.file), a.file);
  } catch (const OpmlError& e) {
    error(e.what());
    return kInputError;
  } catch (const std::runtime_error& e) {  // read_file
    error(e.what());
    return kInputError;
  }
  FeedsFile file(resolve_config_path(a.config));
  long added = 0, present = 0, bad = 0;
  for (const auto& e : entries) {
    const std::string scheme = url_scheme(e.url);
    if (scheme != "http" && scheme != "https") {
      error("warning: " + a.file + ": \"" + e.title + "\": xmlUrl '" + e.url + "' is not an http(s) URL, skipped");
      bad++;
      continue;
    }
    if (file.find_url(e.url)) {
      present++;
      continue;
    }
    FeedConfig feed;
    feed.url = e.url;
    feed.title = e.title;
    feed.category = e.category;
    feed.id = new_feed_id(e.title, e.url, ids_of(file));
    file.append(feed);
    added++;
  }
  if (added > 0) file.save();
  std::printf("blogsearch-index: %s in %s: %ld added to %s, %ld there already, %ld skipped\n",
              counted(static_cast<long long>(entries.size()), "feed", "feeds").c_str(), a.file.c_str(), added,
              file.path().c_str(), present, bad);
  return bad == 0 ? kOk : kPartial;
}

int run_export(const FeedsArgs& a) {
  const std::string path = resolve_config_path(a.config);
  std::vector<FeedConfig> feeds = load_feeds_config(path);
  std::vector<OpmlFeed> out;
  for (const auto& f : feeds) out.push_back({f.title.empty() ? f.id : f.title, f.url, "", f.category});
  std::cout << write_opml(out, "blogsearch feeds (" + path + ")", std::time(nullptr));
  std::cout.flush();
  if (!std::cout) {
    error("export: writing the output failed");
    return kInputError;
  }
  return kOk;
}

}  // namespace

CLI::App* add_feeds_command(CLI::App& app, FeedsArgs& args) {
  CLI::App* feeds = app.add_subcommand("feeds", "Subscriptions: add, list, remove, import and export the feeds in feeds.toml");
  feeds->require_subcommand(1);
  const std::string config_help =
      "feeds.toml (default: config.toml's feeds, else data/feeds.toml if present, else "
      "$XDG_CONFIG_HOME/blogsearch/feeds.toml)";
  args.add = feeds->add_subcommand(
      "add", "Subscribe to URL: a feed, or a page that names one (<link rel=alternate>, /feed, /rss.xml, ...);\n"
             "a URL feeds.toml has already, however written (http or https), is refused before any fetch");
  args.add->add_option("URL", args.url, "The feed's URL or the blog's")->required();
  args.add->add_option("--id", args.id, "Feed id (default: from the feed's title)");
  args.add->add_option("--title", args.title, "Title to keep (default: the feed's own)");
  args.add->add_option("--category", args.category, "Category, outer/inner (kept as category = in feeds.toml)");
  args.add->add_option("--timeout", args.fetch.timeout_seconds, "Give up on a request after SECONDS")
      ->capture_default_str()->check(CLI::Range(1L, 3600L));
  args.add->add_option("--connect-timeout", args.fetch.connect_timeout_seconds, "Give up connecting after SECONDS")
      ->capture_default_str()->check(CLI::Range(1L, 600L));
  args.fetch.max_retries = 0;  // a person is waiting: say what is wrong at once
  args.list = feeds->add_subcommand("list", "List the feeds: id, title, URL, last fetch and state");
  args.list->add_option("--db", args.db, schema::kDbOptionHelp);
  args.remove = feeds->add_subcommand("remove", "Remove feed ID from feeds.toml (its posts stay in the database)");
  args.remove->add_option("ID", args.id, "Feed id")->required();
  args.import = feeds->add_subcommand("import", "Add the feeds of an OPML file (folders become categories)");
  args.import->add_option("FILE", args.file, "OPML file")->required();
  args.exprt = feeds->add_subcommand("export", "Print the feeds as OPML 2.0 (categories become folders)");
  for (CLI::App* sub : {args.add, args.list, args.remove, args.import, args.exprt})
    sub->add_option("--config", args.config, config_help);
  return feeds;
}

int run_feeds(const FeedsArgs& args) {
  try {
    if (args.add->parsed()) return run_add(args);
    if (args.list->parsed()) return run_list(args);
    if (args.remove->parsed()) return run_remove(args);
    if (args.import->parsed()) return run_import(args);
    if (args.exprt->parsed()) return run_export(args);
  } catch (const ConfigError& e) {
    error(e.what());
  } catch (const DiscoveryError& e) {
    error(e.what());
  } catch (const std::runtime_error& e) {  // libcurl could not be set up
    error(std::string("feeds: ") + e.what());
  }
  return kInputError;
}

}  // namespace blogsearch
