// blogsearch-index: parse feed snapshots and write them into the database.
// Only this file touches CLI11, the environment, exit codes and stdout.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "indexer/date.h"
#include "indexer/feed_parser.h"
#include "indexer/html_text.h"
#include "indexer/schema.h"
#include "indexer/snapshot.h"
#include "indexer/stats.h"
#include "indexer/writer.h"
#include "version.h"

namespace {

using namespace blogsearch;
using nlohmann::json;

enum Exit { kOk = 0, kInputError = 2, kPartial = 3, kLocked = 4 };

json date_json(const std::optional<Time>& t) {
  return t ? json(format_rfc3339(*t)) : json(nullptr);
}

json post_json(const Post& p) {
  return {{"id", p.id},
          {"link", p.link},
          {"title", p.title},
          {"authors", p.authors},
          {"categories", p.categories},
          {"published", date_json(p.published)},
          {"updated", date_json(p.updated)},
          {"summary", p.summary_is_html ? html_to_text(p.summary) : collapse_whitespace(p.summary)},
          {"text", p.content_is_html ? html_to_text(p.content) : collapse_whitespace(p.content)}};
}

int run_parse(const std::vector<std::string>& files) {
  int rc = kOk;
  for (const auto& file : files) {
    try {
      ParsedFeed feed = parse_feed(read_file(file), file);
      json posts = json::array();
      for (const auto& p : feed.posts) posts.push_back(post_json(p));
      json out = {{"file", file},
                  {"format", feed.format},
                  {"feed", {{"title", feed.title}, {"link", feed.link}}},
                  {"posts", std::move(posts)},
                  {"warnings", feed.warnings}};
      std::cout << out.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
    } catch (const std::exception& e) {
      std::cerr << "blogsearch-index: " << e.what() << '\n';
      rc = kInputError;
    }
  }
  return rc;
}

struct AddArgs {
  std::string db;
  std::string feed;
  std::vector<std::string> paths;
  bool quiet = false;
};

int run_add(const AddArgs& args) {
  const std::string db_path = schema::resolve_db_path(args.db);
  std::vector<std::string> errors;
  std::vector<Snapshot> snapshots = collect_snapshots(args.paths, args.feed, errors);
  for (const auto& e : errors) std::cerr << "blogsearch-index: error: " << e << '\n';

  const bool tty = isatty(STDERR_FILENO) && !args.quiet;
  bool progress_shown = false;
  IngestOptions options;
  options.on_message = [&](const std::string& line) {
    if (progress_shown) std::cerr << "\r\033[K";
    progress_shown = false;
    std::cerr << "blogsearch-index: " << line << '\n';
  };
  if (tty && snapshots.size() > 20) {
    options.on_progress = [&](long done, long total) {
      if (done % 10 != 0 && done != total) return;
      std::cerr << "\r[" << done << "/" << total << "] snapshots" << std::flush;
      progress_shown = true;
    };
  }
  try {
    Writer writer(db_path);
    IngestSummary s = writer.ingest(snapshots, options);
    if (progress_shown) std::cerr << "\r\033[K";
    s.errors += static_cast<long>(errors.size());
    std::printf(
        "blogsearch-index: %ld snapshots read, %ld skipped as already ingested, %ld items seen, "
        "%ld posts added, %ld updated, %ld unchanged, %ld warnings, %ld errors, %.2f s\n",
        s.snapshots_read, s.snapshots_skipped, s.items_seen, s.posts_added, s.posts_updated,
        s.posts_unchanged, s.warnings, s.errors, s.seconds);
    if (s.errors == 0) return kOk;
    return s.snapshots_read > s.errors ? kPartial : kInputError;
  } catch (const DatabaseLocked& e) {
    std::cerr << "blogsearch-index: " << e.what() << '\n';
    return kLocked;
  } catch (const DatabaseError& e) {
    std::cerr << "blogsearch-index: " << e.what() << '\n';
    return kLocked;
  }
}

int run_stats(const std::string& db_option) {
  const std::string db_path = schema::resolve_db_path(db_option);
  try {
    DatabaseStats st = read_stats(db_path);
    std::printf("database   %s\n", st.path.c_str());
    std::printf("documents  %ld\n", st.documents);
    std::printf("size       %.1f MB\n", static_cast<double>(st.size_bytes) / 1e6);
    std::printf("schema     %d\n", st.schema_version);
    std::printf("feeds      %zu\n", st.feeds.size());
    for (const auto& f : st.feeds) {
      std::printf("\n  %s%s%s\n", f.id.c_str(), f.title.empty() ? "" : "  ", f.title.c_str());
      if (!f.url.empty()) std::printf("    url          %s\n", f.url.c_str());
      std::printf("    posts        %ld (%ld in the feed now)\n", f.posts, f.in_feed);
      if (!f.oldest.empty())
        std::printf("    published    %s .. %s\n", f.oldest.substr(0, 10).c_str(), f.newest.substr(0, 10).c_str());
      std::printf("    last ingest  %s\n", f.last_ingest.empty() ? "never" : f.last_ingest.c_str());
    }
    return kOk;
  } catch (const DatabaseError& e) {
    std::cerr << "blogsearch-index: " << e.what() << '\n';
    return kLocked;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"blogsearch-index " BLOGSEARCH_VERSION
               ": parse blog feed snapshots and index them with Xapian"};
  app.require_subcommand(1);
  app.set_version_flag("--version", BLOGSEARCH_VERSION);

  std::vector<std::string> parse_files;
  auto* parse = app.add_subcommand("parse", "Print what the parser reads from each FILE, as one JSON object per line");
  parse->add_option("FILE", parse_files, "Feed files (RSS 2.0, RSS 1.0, Atom)")->required();

  AddArgs add_args;
  auto* add = app.add_subcommand("add", "Ingest snapshot files or directories (walked recursively) into the database");
  add->add_option("PATH", add_args.paths, "Snapshot files (FILE.xml, with FILE.headers.json beside it) or directories")
      ->required();
  add->add_option("--db", add_args.db, "Database directory (default: $BLOGSEARCH_DB, else $XDG_DATA_HOME/blogsearch/db)");
  add->add_option("--feed", add_args.feed, "Feed id for all PATHs (default: each snapshot's folder name)");
  add->add_flag("-q,--quiet", add_args.quiet, "No progress line");

  std::string stats_db;
  auto* stats = app.add_subcommand("stats", "Show what the database holds, per feed");
  stats->add_option("--db", stats_db, "Database directory (default: $BLOGSEARCH_DB, else $XDG_DATA_HOME/blogsearch/db)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kOk : kInputError;
  }
  if (parse->parsed()) return run_parse(parse_files);
  if (add->parsed()) return run_add(add_args);
  if (stats->parsed()) return run_stats(stats_db);
  return kInputError;
}
