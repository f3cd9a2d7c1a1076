// blogsearch-index: parse feed snapshots and write them into the database.
// Only this file touches CLI11, the environment, exit codes and stdout.
#include <CLI/CLI.hpp>
#include <xapian.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>
#include <string>
#include <vector>

#include "common/stdout_check.h"
#include "indexer/count.h"
#include "indexer/date.h"
#include "indexer/feed_parser.h"
#include "indexer/html_text.h"
#include "indexer/add_archive.h"
#include "indexer/archive.h"
#include "indexer/feeds_command.h"
#include "indexer/feeds_config.h"
#include "indexer/import_git.h"
#include "indexer/rebuild.h"
#include "indexer/schema.h"
#include "indexer/update.h"
#include "indexer/user_config.h"
#include "indexer/snapshot.h"
#include "indexer/db_layout.h"
#include "indexer/shard_thread.h"
#include "indexer/stats.h"
#include "indexer/writer.h"
#include "version.h"

namespace {

using namespace blogsearch;
using nlohmann::json;

enum Exit { kOk = 0, kInputError = 2, kPartial = 3, kLocked = 4 };

// Quiet is for cron: any output is mailed, so only what needs a reader.
constexpr const char* kWaitHelp =
    "Wait up to SECONDS for another writer to finish (default: wait in config.toml, else exit 4 at once)";
constexpr const char* kQuietHelp = "Print warnings and errors only (no progress, no summary)";
constexpr const char* kShardsHelp =
    "Shards of a database this creates, written in parallel (default: one per core, at most 8; an "
    "existing database keeps "
    "its own: rebuild --shards changes it)";

// Xapian 1.4 can throw from a destructor when a commit fails half-way (its
// value-stream updater writes once more while unwinding, into a full disk),
// which ends the process in std::terminate. The commit never completed, so
// the database is still at its last commit: say so in one line, as for any
// failed write. Anything else that ends here is a bug: abort for a core.
[[noreturn]] void on_terminate() {
  // On a shard's thread Xapian ends the failed commit with no exception
  // left to look at.
  if (!std::current_exception() && ShardThread::committing()) {
    std::fprintf(stderr, "blogsearch-index: writing the database failed while committing a shard (no space left, "
                 "or a file size limit?); the changes not yet committed were rolled back; run again to apply them\n");
    std::_Exit(kLocked);
  }
  if (std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const Xapian::DatabaseCorruptError& x) {
      std::fprintf(stderr, "blogsearch-index: the database is damaged (%s); rebuild it from the snapshot archive: "
                   "blogsearch-index rebuild\n", x.get_msg().c_str());
      std::_Exit(kLocked);
    } catch (const Xapian::Error& x) {
      std::fprintf(stderr,
                   "blogsearch-index: writing the database failed: %s (the changes not yet committed "
                   "were rolled back; run again to apply them)\n",
                   x.get_description().c_str());
      std::_Exit(kLocked);
    } catch (const std::exception& x) {
      std::fprintf(stderr, "blogsearch-index: internal error: %s\n", x.what());
    } catch (...) {
    }
  }
  std::abort();
}

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

// The bounds of every command that reads snapshots (--max-body, --max-items).
struct Limits {
  std::size_t max_body = kDefaultMaxSnapshotBytes;
  std::size_t max_items = ParseOptions().max_items;

  void apply(IngestOptions& options) const {
    options.max_snapshot_bytes = max_body;
    options.parse.max_items = max_items;
  }
};

struct ParseArgs {
  std::vector<std::string> files;
  std::string base_url, charset;  // override what FILE.headers.json says
  Limits limits;
};

// Each file is parsed as `add` would parse it: with what its headers.json
// records (finalUrl, contentType, observed time), unless overridden.
int run_parse(const ParseArgs& args) {
  int rc = kOk;
  for (const auto& file : args.files) {
    try {
      std::vector<std::string> errors;
      std::vector<Snapshot> snaps = collect_snapshots({file}, "", errors);
      ParseOptions options;
      options.max_items = args.limits.max_items;
      if (snaps.size() == 1) options = parse_options_for(snaps[0], options);
      if (!args.base_url.empty()) options.base_url = args.base_url;
      if (!args.charset.empty()) options.http_charset = args.charset;
      ParsedFeed feed = parse_feed(read_file(file, args.limits.max_body), file, options);
      json posts = json::array();
      for (const auto& p : feed.posts) posts.push_back(post_json(p));
      json out = {{"file", file},
                  {"format", feed.format},
                  {"feed", {{"title", feed.title}, {"link", feed.link}}},
                  {"posts", std::move(posts)},
                  {"warnings", feed.warnings},
                  {"complete", feed.complete}};
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
  std::string archive;
  std::string feed;
  std::vector<std::string> paths;
  bool quiet = false;
  bool link = false;  // add: hard-link snapshots into the archive
  double wait = 0;  // seconds to wait for another writer's lock
  Limits limits;
  unsigned shards = 0;  // of a database this creates (rebuild: of the new one); 0 = default
};

// Messages to stderr, and a progress line there on a terminal.
struct Console {
  bool progress_shown = false;

  IngestOptions ingest_options(bool quiet, std::size_t snapshots) {
    IngestOptions options;
    options.on_message = [this](const std::string& line) {
      if (progress_shown) std::cerr << "\r\033[K";
      progress_shown = false;
      std::cerr << "blogsearch-index: " << line << '\n';
    };
    if (!quiet && isatty(STDERR_FILENO) && snapshots > 20) {
      options.on_progress = [this](long done, long total) {
        if (done % 10 != 0 && done != total) return;
        std::cerr << "\r[" << done << "/" << total << "] snapshots" << std::flush;
        progress_shown = true;
      };
    }
    return options;
  }
  void clear() {
    if (progress_shown) std::cerr << "\r\033[K";
    progress_shown = false;
  }
};

// Runs `fn` (which opens a Writer), retrying for up to `wait` seconds while
// another process holds the lock.
template <typename Fn>
auto with_lock_wait(double wait, Fn fn) -> decltype(fn()) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait);
  for (;;) {
    try {
      return fn();
    } catch (const DatabaseLocked&) {
      if (std::chrono::steady_clock::now() >= deadline) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }
}

// Adds the counts of one ingest run to those of the runs before.
void add_summary(IngestSummary& total, const IngestSummary& part) {
  total.snapshots_read += part.snapshots_read;
  total.snapshots_skipped += part.snapshots_skipped;
  total.items_seen += part.items_seen;
  total.posts_added += part.posts_added;
  total.posts_updated += part.posts_updated;
  total.posts_unchanged += part.posts_unchanged;
  total.warnings += part.warnings;
  total.errors += part.errors;
  total.batches += part.batches;
  total.seconds += part.seconds;
  total.not_ingested.insert(total.not_ingested.end(), part.not_ingested.begin(), part.not_ingested.end());
}

void print_summary(const IngestSummary& s) {
  std::printf("blogsearch-index: %s read, %ld skipped as already ingested, %s seen, %s added, %ld updated, "
              "%ld unchanged, %s, %s, %.2f s\n",
              counted(s.snapshots_read, "snapshot", "snapshots").c_str(), s.snapshots_skipped,
              counted(s.items_seen, "item", "items").c_str(), counted(s.posts_added, "post", "posts").c_str(),
              s.posts_updated, s.posts_unchanged, counted(s.warnings, "warning", "warnings").c_str(),
              counted(s.errors, "error", "errors").c_str(), s.seconds);
}

// --archive's default, in the help of every command that has it.
constexpr const char* kArchiveDefault =
    " (default: $BLOGSEARCH_ARCHIVE, else config.toml's archive, else 'archive' beside the database, which the "
    "first database there claims: another one is refused it)";

// The archive a command of the database at `db_path` uses (archive.h:
// archive_for_database); nullopt after saying why it cannot be used.
std::optional<std::string> command_archive(const std::string& option, const std::string& db_path, bool create) {
  try {
    return archive_for_database(option, db_path, create);
  } catch (const std::exception& e) {
    std::cerr << "blogsearch-index: " << e.what() << '\n';
    return std::nullopt;
  }
}

int run_add(const AddArgs& args) {
  const std::string db_path = schema::resolve_db_path(args.db);
  // Checked before anything is written: a feed id the database cannot hold
  // would otherwise fail at the first write, and on every run after.
  if (!args.feed.empty()) {
    if (std::string why = feed_id_problem(args.feed); !why.empty()) {
      std::cerr << "blogsearch-index: --feed: " << why << '\n';
      return kInputError;
    }
  }
  std::vector<std::string> errors;
  std::vector<Snapshot> snapshots = collect_snapshots(args.paths, args.feed, errors);
  for (const auto& e : errors)
    std::cerr << "blogsearch-index: error: " << e << " (give snapshot files or directories to add)\n";
  if (snapshots.empty() && !errors.empty()) return kInputError;

  Console console;
  IngestOptions options = console.ingest_options(args.quiet, snapshots.size());
  args.limits.apply(options);
  const std::optional<std::string> claimed = command_archive(args.archive, db_path, true);
  if (!claimed) return kInputError;
  const std::string& archive = *claimed;
  try {
    auto writer = with_lock_wait(args.wait, [&] { return std::make_unique<Writer>(db_path, args.shards); });
    // Into the archive, under the writer's lock as fetch does, on a thread
    // of its own: the writer reads each snapshot from the archive once it
    // is there, so what is indexed is always in the archive, and the
    // copies are made while the snapshots before them are parsed.
    assign_feed_ids(snapshots, args.limits.max_body, options.parse);
    BackgroundArchive archiving(archive, snapshots, args.limits.max_body, args.link);
    options.before_read = [&archiving](std::size_t i) { archiving.wait(i); };
    options.on_message = [&archiving, &archive, print = options.on_message](const std::string& line) {
      if (print) print(archiving.given().rewrite(archive, line));
    };
    IngestSummary s;
    try {
      s = writer->ingest(snapshots, options);
    } catch (const ArchiveError& e) {
      std::cerr << "blogsearch-index: cannot copy the snapshots into the archive: " << e.what()
                << "; the snapshots after the last commit were not indexed (free space, or give another --archive, "
                   "and run add again)\n";
      return kPartial;
    }
    ArchiveCopy& copy = archiving.finish();
    remove_not_ingested(copy, s.not_ingested);
    console.clear();
    s.errors += static_cast<long>(errors.size());
    if (!args.quiet) {
      // --link makes hard links, and copies where it cannot (another file system).
      std::printf("blogsearch-index: %s %s into %s, %ld there already\n",
                  counted(copy.copied, "snapshot", "snapshots").c_str(), args.link ? "linked or copied" : "copied",
                  archive.c_str(), copy.already);
      print_summary(s);
    }
    if (s.errors == 0) return kOk;
    // Partial when anything given could be indexed (s.errors counts both the
    // paths and the files that failed).
    const long given = static_cast<long>(snapshots.size() + errors.size());
    return given > s.errors ? kPartial : kInputError;
  } catch (const DatabaseError& e) {  // also DatabaseLocked
    std::cerr << "blogsearch-index: " << e.what() << '\n';
    return kLocked;
  }
}

int run_rebuild(const AddArgs& args) {
  const std::string db_path = schema::resolve_db_path(args.db);
  const std::optional<std::string> claimed =
      command_archive(args.paths.empty() ? "" : args.paths.front(), db_path, false);
  if (!claimed) return kInputError;
  const std::string& archive = *claimed;
  std::vector<std::string> errors;
  std::vector<Snapshot> snapshots = collect_snapshots({archive}, "", errors);
  for (const auto& e : errors) std::cerr << "blogsearch-index: error: " << e << " (the archive to rebuild from)\n";
  if (!errors.empty()) return kInputError;
  // A wrong --archive must not replace a full index with an empty one.
  if (snapshots.empty()) {
    std::cerr << "blogsearch-index: no snapshots in " << archive << "; the database was left as it is\n";
    return kInputError;
  }
  Console console;
  IngestOptions options = console.ingest_options(args.quiet, snapshots.size());
  args.limits.apply(options);
  try {
    IngestSummary s = with_lock_wait(args.wait, [&] { return rebuild_database(db_path, snapshots, options, args.shards); });
    console.clear();
    if (!args.quiet) {
      print_summary(s);
      std::printf("blogsearch-index: %s rebuilt from %s\n", db_path.c_str(), archive.c_str());
    }
    return s.errors == 0 ? kOk : kPartial;
  } catch (const DatabaseError& e) {  // also DatabaseLocked
    std::cerr << "blogsearch-index: " << e.what() << '\n';
    return kLocked;
  }
}

struct FetchArgs {
  std::string db, config, archive;
  std::vector<std::string> feeds;
  bool quiet = false;
  double wait = 0;
  FetchOptions fetch;  // its max_body_bytes is the limit on bodies
  std::size_t max_items = ParseOptions().max_items;
  unsigned shards = 0;
};

int run_fetch(const FetchArgs& args) {
  const std::string db_path = schema::resolve_db_path(args.db);
  const std::string config_path = resolve_config_path(args.config);
  std::vector<FeedConfig> feeds;
  try {
    for (auto& f : load_feeds_config(config_path)) {
      bool chosen = args.feeds.empty() || std::find(args.feeds.begin(), args.feeds.end(), f.id) != args.feeds.end();
      if (chosen && (f.enabled || !args.feeds.empty())) feeds.push_back(std::move(f));
    }
  } catch (const ConfigError& e) {
    std::cerr << "blogsearch-index: " << e.what() << '\n';
    return kInputError;
  }
  for (const auto& id : args.feeds) {
    if (std::none_of(feeds.begin(), feeds.end(), [&](const FeedConfig& f) { return f.id == id; })) {
      std::cerr << "blogsearch-index: feed '" << id << "' is not in " << config_path << '\n';
      return kInputError;
    }
  }
  UpdateOptions options;
  const std::optional<std::string> archive = command_archive(args.archive, db_path, true);
  if (!archive) return kInputError;
  options.archive_dir = *archive;
  options.fetch = args.fetch;
  Console console;
  options.ingest = console.ingest_options(true, 0);
  Limits{args.fetch.max_body_bytes, args.max_items}.apply(options.ingest);
  try {
    UpdateSummary s = update_feeds(db_path, feeds, options, [&] {
      return with_lock_wait(args.wait, [&] { return std::make_unique<Writer>(db_path, args.shards); });
    });
    for (const auto& f : s.feeds) {
      if (f.result == "failed")
        std::cerr << "blogsearch-index: feed " << f.id << " failed: " << f.error << '\n';
      else if (!args.quiet)
        std::cerr << "blogsearch-index: feed " << f.id << ": " << f.result << " (HTTP " << f.status << ")\n";
    }
    if (!args.quiet)
      std::printf(
        "blogsearch-index: %s checked in %.2f s: %ld new, %ld not modified, %ld unchanged, %ld failed; "
        "%s added, %ld updated, %ld unchanged in %.2f s\n",
        counted(static_cast<long long>(s.feeds.size()), "feed", "feeds").c_str(), s.fetch_seconds, s.new_snapshots,
        s.not_modified, s.unchanged, s.failed, counted(s.ingest.posts_added, "post", "posts").c_str(),
        s.ingest.posts_updated, s.ingest.posts_unchanged, s.ingest_seconds);
    return s.failed == 0 && s.ingest.errors == 0 ? kOk : kPartial;
  } catch (const DatabaseError& e) {  // also DatabaseLocked
    std::cerr << "blogsearch-index: " << e.what() << '\n';
    return kLocked;
  } catch (const std::runtime_error& e) {  // libcurl could not be set up
    std::cerr << "blogsearch-index: fetch: " << e.what() << '\n';
    return kInputError;
  }
}

struct ImportGitArgs {
  std::string db, archive, repo, path, feed;
  std::size_t chunk = kDefaultImportChunk;
  bool quiet = false;
  double wait = 0;
  Limits limits;
  unsigned shards = 0;
};

int run_import_git(const ImportGitArgs& args) {
  const std::string db_path = schema::resolve_db_path(args.db);
  Console console;
  ImportGitOptions import;
  import.repo = args.repo;
  import.path = args.path;
  import.feed_id = args.feed;
  const std::optional<std::string> archive = command_archive(args.archive, db_path, true);
  if (!archive) return kInputError;
  import.archive_dir = *archive;
  import.max_body_bytes = args.limits.max_body;
  IngestOptions options = console.ingest_options(args.quiet, 0);
  args.limits.apply(options);
  import.on_message = options.on_message;
  try {
    // Archive and database are written under the one writer lock, as fetch does.
    auto writer = with_lock_wait(args.wait, [&] { return std::make_unique<Writer>(db_path, args.shards); });
    // Each chunk of versions is ingested once archived (import_git.h), so
    // memory does not grow with the history; the summary adds them up.
    IngestSummary s;
    long done_before = 0;
    std::function<void(long, long)> progress;  // the console's, once the number of versions is known
    import.chunk_versions = args.chunk;
    import.on_chunk = [&](std::vector<Snapshot>&& chunk, long versions) {
      if (done_before == 0) progress = console.ingest_options(args.quiet, static_cast<std::size_t>(versions)).on_progress;
      IngestOptions these = options;
      if (progress) these.on_progress = [&](long done, long) { progress(done_before + done, versions); };
      IngestSummary part = writer->ingest(chunk, these);
      done_before += static_cast<long>(chunk.size());
      add_summary(s, part);
    };
    ImportGitResult r = import_git_history(import);
    console.clear();
    if (!args.quiet) {
      std::printf(
          "blogsearch-index: %s of %s in %s as feed %s: %ld archived, %ld already in %s, "
          "%ld with headers.json, %s, %ld unreadable\n",
          counted(r.versions, "version", "versions").c_str(), args.path.c_str(), args.repo.c_str(),
          r.feed_id.c_str(), r.archived, r.already_archived, import.archive_dir.c_str(), r.with_headers,
          counted(r.not_feeds, "not a feed", "not feeds").c_str(), r.unreadable);
      print_summary(s);
    }
    // A version that is not a feed (an error page committed long ago) is
    // history, not a failure: only versions that could not be read, or
    // that failed to index, make the run partial.
    if (r.snapshots == 0) return kInputError;
    return r.unreadable == 0 && s.errors == 0 ? kOk : kPartial;
  } catch (const ImportError& e) {
    std::cerr << "blogsearch-index: import-git: " << e.what() << '\n';
    return kInputError;
  } catch (const DatabaseError& e) {  // also DatabaseLocked
    std::cerr << "blogsearch-index: " << e.what() << '\n';
    return kLocked;
  } catch (const std::runtime_error& e) {
    std::cerr << "blogsearch-index: import-git: " << e.what() << '\n';
    return kInputError;
  }
}

// Each setting a user may give in config.toml, as it is now, and where it
// came from, for `stats`.
std::vector<std::pair<std::string, Setting>> stats_settings(const UserConfig& user, const std::string& db_flag) {
  auto file_or = [&](const char* key, const std::string& fallback) {
    return resolve_setting("", "", nullptr, user, key, fallback);
  };
  Setting db = resolve_setting("--db", db_flag, "BLOGSEARCH_DB", user, "db", schema::resolve_db_path(""));
  const std::string beside_db = resolve_archive_path("", db.value);
  return {
      {"db", std::move(db)},
      {"archive", resolve_setting("", "", "BLOGSEARCH_ARCHIVE", user, "archive", beside_db)},
      {"feeds", file_or("feeds", resolve_config_path(""))},
      {"wait", file_or("wait", "0")},
      {"sort", file_or("sort", "relevance")},
      {"limit", file_or("limit", "10")},
      {"color", file_or("color", "auto")},
      {"facets", file_or("facets", "(none)")},
  };
}

void print_settings(const std::vector<std::pair<std::string, Setting>>& settings) {
  std::printf("\nsettings   (command line, then environment, then config.toml, then default)\n");
  for (const auto& [name, setting] : settings)
    std::printf("  %-8s %s  [%s]\n", name.c_str(), setting.value.c_str(), setting.source.c_str());
}

int run_stats(const std::string& db_option, const std::vector<std::pair<std::string, Setting>>& settings) {
  const std::string db_path = schema::resolve_db_path(db_option);
  try {
    DatabaseStats st = read_stats(db_path);
    std::printf("database   %s\n", st.path.c_str());
    std::printf("documents  %ld\n", st.documents);
    if (st.copies > 0) std::printf("copies     %ld (of another post under a second link; searches show each once)\n", st.copies);
    std::printf("size       %.1f MB\n", static_cast<double>(st.size_bytes) / 1e6);
    std::printf("schema     %d\n", st.schema_version);
    std::printf("layout     %s\n", st.layout.c_str());
    std::printf("shards     %zu\n", st.shards.size());
    for (std::size_t i = 0; i < st.shards.size(); ++i)
      std::printf("  %zu  %s  %s\n", i, counted(st.shards[i].documents, "document", "documents").c_str(),
                  st.shards[i].path.c_str());
    std::printf("feeds      %zu\n", st.feeds.size());
    for (const auto& f : st.feeds) {
      std::printf("\n  %s%s%s\n", f.id.c_str(), f.title.empty() ? "" : "  ", f.title.c_str());
      if (!f.url.empty()) std::printf("    url          %s\n", f.url.c_str());
      std::printf("    posts        %ld (%ld in the feed now)\n", f.posts, f.in_feed);
      if (!f.oldest.empty())
        std::printf("    published    %s .. %s\n", f.oldest.substr(0, 10).c_str(), f.newest.substr(0, 10).c_str());
      std::printf("    last ingest  %s\n", f.last_ingest.empty() ? "never" : f.last_ingest.c_str());
      if (f.fetched) {
        std::printf("    fetch url    %s\n", f.fetch_url.c_str());
        if (!f.final_url.empty() && f.final_url != f.fetch_url) std::printf("    final url    %s\n", f.final_url.c_str());
        const std::string status = f.last_status ? "HTTP " + std::to_string(f.last_status) : "no response";
        std::printf("    last fetch   %s, %s%s%s\n", f.last_attempt.c_str(), status.c_str(),
                    f.last_error.empty() ? "" : ": ", f.last_error.c_str());
        std::printf("    last success %s\n", f.last_success.empty() ? "never" : f.last_success.c_str());
        if (f.consecutive_failures > 0) std::printf("    failures     %ld in a row\n", f.consecutive_failures);
      }
    }
    print_settings(settings);
    return kOk;
  } catch (const DatabaseError& e) {
    std::cerr << "blogsearch-index: " << e.what() << '\n';
    print_settings(settings);  // most wanted when the database is not where expected
    return kLocked;
  }
}

int run(int argc, char** argv) {
  CLI::App app{"blogsearch-index " BLOGSEARCH_VERSION
               ": parse blog feed snapshots and index them with Xapian"};
  app.require_subcommand(1);
  app.set_version_flag("--version", BLOGSEARCH_VERSION);

  // CLI::PositiveNumber's message prints the largest double as its bound.
  const CLI::Validator shard_range = CLI::Range(1u, kMaxShards);
  const CLI::Validator at_least_one(
      [](std::string& value) {
        bool digits = !value.empty() && value.find_first_not_of("0123456789") == std::string::npos;
        return digits && value.find_first_not_of('0') != std::string::npos ? std::string()
                                                                             : "must be a whole number of at least 1";
      },
      "N>=1");
  auto limits = [&](CLI::App* cmd, Limits& l) {
    cmd->add_option("--max-body", l.max_body, "Skip snapshots larger than BYTES")
        ->capture_default_str()->check(at_least_one);
    cmd->add_option("--max-items", l.max_items, "Read at most N items of a snapshot (the rest skipped with a warning)")
        ->capture_default_str()->check(at_least_one);
  };

  ParseArgs parse_args;
  auto* parse = app.add_subcommand("parse", "Print what the parser reads from each FILE, as one JSON object per line");
  parse->add_option("FILE", parse_args.files, "Feed files (RSS 2.0, RSS 1.0, Atom, JSON Feed)")->required();
  parse->add_option("--base-url", parse_args.base_url, "The document's URL (default: finalUrl in FILE.headers.json)");
  parse->add_option("--charset", parse_args.charset,
                    "The HTTP charset (default: contentType in FILE.headers.json)");
  limits(parse, parse_args.limits);

  AddArgs add_args;
  auto* add = app.add_subcommand("add", "Ingest snapshot files or directories (walked recursively) into the database");
  add->add_option("PATH", add_args.paths, "Snapshot files (FILE.xml, with FILE.headers.json beside it) or directories")
      ->required();
  add->add_option("--db", add_args.db, schema::kDbOptionHelp);
  add->add_option("--feed", add_args.feed, "Feed id for all PATHs (default: each snapshot's folder name)");
  add->add_flag("--link", add_args.link,
                "Hard-link the snapshots into the archive instead of copying them (same file system; only for files "
                "nothing rewrites in place: such a rewrite would change the archived snapshot too)");
  add->add_option("--archive", add_args.archive,
                  std::string("Snapshot archive each PATH is copied into, for rebuild") + kArchiveDefault);
  add->add_flag("-q,--quiet", add_args.quiet, kQuietHelp);
  std::vector<std::pair<CLI::Option*, double*>> waits;
  waits.emplace_back(add->add_option("--wait", add_args.wait, kWaitHelp), &add_args.wait);
  limits(add, add_args.limits);
  add->add_option("--shards", add_args.shards, kShardsHelp)->check(shard_range);

  FetchArgs fetch_args;
  auto* fetch = app.add_subcommand("fetch", "Fetch the feeds in feeds.toml, archive new snapshots and index them");
  fetch->add_option("--config", fetch_args.config,
                    "feeds.toml (default: config.toml's feeds, else data/feeds.toml if present, else "
                    "$XDG_CONFIG_HOME/blogsearch/feeds.toml)");
  fetch->add_option("--archive", fetch_args.archive,
                    std::string("Snapshot archive") + kArchiveDefault);
  fetch->add_option("--feed", fetch_args.feeds, "Only this feed id (repeatable)")
      ->allow_extra_args(false);  // one value per flag
  fetch->add_option("--db", fetch_args.db, schema::kDbOptionHelp);
  fetch->add_flag("-q,--quiet", fetch_args.quiet, kQuietHelp);
  waits.emplace_back(fetch->add_option("--wait", fetch_args.wait, kWaitHelp), &fetch_args.wait);
  fetch->add_option("--timeout", fetch_args.fetch.timeout_seconds, "Give up on a request after SECONDS")
      ->capture_default_str()->check(CLI::Range(1L, 3600L));
  fetch->add_option("--connect-timeout", fetch_args.fetch.connect_timeout_seconds, "Give up connecting after SECONDS")
      ->capture_default_str()->check(CLI::Range(1L, 600L));
  fetch->add_option("--retries", fetch_args.fetch.max_retries, "Extra attempts after a timeout, a refused connection or a 5xx")
      ->capture_default_str()->check(CLI::Range(0, 10));
  fetch->add_option("--max-body", fetch_args.fetch.max_body_bytes, "Abort bodies larger than BYTES (after decoding)")
      ->capture_default_str()->check(at_least_one);
  fetch->add_option("--max-items", fetch_args.max_items, "Read at most N items of a snapshot (the rest skipped with a warning)")
      ->capture_default_str()->check(at_least_one);
  fetch->add_option("--shards", fetch_args.shards, kShardsHelp)->check(shard_range);

  AddArgs rebuild_args;
  std::string rebuild_archive;
  auto* rebuild = app.add_subcommand("rebuild", "Rebuild the whole database from the archive and switch to it atomically");
  rebuild->add_option("--archive", rebuild_archive,
                      std::string("Snapshot archive") + kArchiveDefault);
  rebuild->add_option("--db", rebuild_args.db, schema::kDbOptionHelp);
  rebuild->add_flag("-q,--quiet", rebuild_args.quiet, kQuietHelp);
  waits.emplace_back(rebuild->add_option("--wait", rebuild_args.wait, kWaitHelp), &rebuild_args.wait);
  limits(rebuild, rebuild_args.limits);
  rebuild->add_option("--shards", rebuild_args.shards,
                      "Shards of the rebuilt database (default: as many as it has now; one for a "
                      "database from before shards)")
      ->check(shard_range);

  ImportGitArgs git_args;
  auto* import_git = app.add_subcommand(
      "import-git", "Archive and index every committed version of a feed file in a git repository (git scraping)");
  import_git->add_option("REPO", git_args.repo, "Git repository (work tree or bare)")->required();
  import_git->add_option("--path", git_args.path, "The feed file, relative to the repository root")->required();
  import_git->add_option("--feed", git_args.feed, "Feed id (default: the name of the folder holding PATH)");
  import_git->add_option("--archive", git_args.archive,
                         std::string("Snapshot archive") + kArchiveDefault);
  import_git->add_option("--db", git_args.db, schema::kDbOptionHelp);
  import_git->add_flag("-q,--quiet", git_args.quiet, kQuietHelp);
  waits.emplace_back(import_git->add_option("--wait", git_args.wait, kWaitHelp), &git_args.wait);
  limits(import_git, git_args.limits);
  import_git->add_option("--shards", git_args.shards, kShardsHelp)->check(shard_range);
  import_git
      ->add_option("--chunk", git_args.chunk,
                   "Versions archived then ingested together (default " + std::to_string(kDefaultImportChunk) +
                       "): memory is bounded by the chunk, not the history")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));

  std::string stats_db;
  auto* stats = app.add_subcommand("stats", "Show what the database holds, per feed");
  stats->add_option("--db", stats_db, schema::kDbOptionHelp);

  FeedsArgs feeds_args;
  CLI::App* feeds = add_feeds_command(app, feeds_args);

  std::set_terminate(on_terminate);
  // CLI11 says only "A subcommand is required" for a misspelt command:
  // name it, and the real ones.
  std::string commands;
  bool known = false;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    commands += (commands.empty() ? "" : ", ") + sub->get_name();
    known = known || (argc >= 2 && sub->get_name() == argv[1]);
  }
  if (argc < 2 || (argv[1][0] != '-' && !known)) {
    if (argc < 2) std::cerr << "blogsearch-index: a command is required";
    else std::cerr << "blogsearch-index: unknown command '" << argv[1] << "'";
    std::cerr << " (commands: " << commands << "; see --help)\n";
    return kInputError;
  }
  if (std::string(argv[1]) == "feeds") {
    std::string subs;
    bool known_sub = false;
    for (const CLI::App* sub : feeds->get_subcommands([](const CLI::App*) { return true; })) {
      subs += (subs.empty() ? "" : ", ") + sub->get_name();
      known_sub = known_sub || (argc >= 3 && sub->get_name() == argv[2]);
    }
    if (argc < 3 || (argv[2][0] != '-' && !known_sub)) {
      if (argc < 3) std::cerr << "blogsearch-index feeds: a command is required";
      else std::cerr << "blogsearch-index feeds: unknown command '" << argv[2] << "'";
      std::cerr << " (commands: " << subs << "; see feeds --help)\n";
      return kInputError;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kOk : kInputError;
  }
  // config.toml fills in what neither the command line nor the
  // environment gave (user_config.h).
  UserConfig user;
  try {
    user = load_user_config();
  } catch (const UserConfigError& e) {
    std::cerr << "blogsearch-index: " << e.what() << '\n';
    return kInputError;
  }
  const std::string stats_db_flag = stats_db;
  for (std::string* db : {&add_args.db, &fetch_args.db, &rebuild_args.db, &git_args.db, &stats_db, &feeds_args.db})
    default_from_config(*db, "BLOGSEARCH_DB", user, "db");
  for (std::string* archive :
       {&add_args.archive, &fetch_args.archive, &rebuild_archive, &git_args.archive, &feeds_args.archive})
    default_from_config(*archive, "BLOGSEARCH_ARCHIVE", user, "archive");
  for (std::string* feeds_toml : {&fetch_args.config, &feeds_args.config})
    default_from_config(*feeds_toml, nullptr, user, "feeds");
  if (auto wait = user.get("wait")) {
    for (auto& [option, value] : waits)
      if (option->count() == 0) *value = std::stod(*wait);
  }

  // Out of memory: the open transaction is cancelled as the writer unwinds
  // (its lock and lock note go with it); what was committed stays.
  try {
    if (parse->parsed()) return run_parse(parse_args);
    if (add->parsed()) return run_add(add_args);
    if (stats->parsed()) return run_stats(stats_db, stats_settings(user, stats_db_flag));
    if (fetch->parsed()) return run_fetch(fetch_args);
    if (import_git->parsed()) return run_import_git(git_args);
    if (feeds->parsed()) return run_feeds(feeds_args);
    if (rebuild->parsed()) {
      if (!rebuild_archive.empty()) rebuild_args.paths = {rebuild_archive};
      return run_rebuild(rebuild_args);
    }
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "blogsearch-index: out of memory; nothing after the last commit was written (run again, "
                 "perhaps with a lower --max-body or --max-items)\n");
    return kPartial;
  }
  return kInputError;
}

}  // namespace

int main(int argc, char** argv) {
  const int rc = run(argc, argv);
  // A report or JSON document cut short by a full disk is a failure.
  return blogsearch::finish_stdout("blogsearch-index") ? rc : kInputError;
}
