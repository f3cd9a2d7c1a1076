// blogsearch: the command-line search over a blogsearch database.
//
// Only this file reads options and the environment, writes to stdout and
// picks exit codes: 0 results, 1 none, 2 usage or query error (or output
// that could not be written), 4 database missing or unreadable. Everything else is the blogsearch_query library.
#include <unistd.h>

#include <CLI/CLI.hpp>

#include <ctime>
#include <iostream>
#include <sstream>

#include "common/prefault.h"
#include "common/stdout_check.h"
#include "indexer/schema.h"
#include "indexer/user_config.h"
#include "query/filter_check.h"
#include "query/format.h"
#include "query/searcher.h"
#include "query/version_diff.h"
#include "version.h"

namespace {

using namespace blogsearch;

constexpr int kExitMatches = 0;
constexpr int kExitNoMatches = 1;
constexpr int kExitUsage = 2;
constexpr int kExitDatabase = 4;

// Ends the process with `rc` once what it wrote has reached stdout (results
// that did not, on a full disk, are not results: kExitUsage then), without
// unwinding (stdout_check.h).
[[noreturn]] void exit_now(int rc) { exit_after_stdout("blogsearch", rc, kExitUsage); }

void report_query_error(const QueryError& e) {
  std::cerr << "blogsearch: " << e.what() << "\n";
  if (e.column() == 0 || e.query().empty()) return;
  // Echo the query with control characters as spaces, one for one, and put
  // the caret under the error (columns count characters).
  std::string shown = e.query();
  for (char& c : shown)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  std::cerr << "  " << shown << "\n  " << std::string(e.column() - 1, ' ')
            << std::string(e.length(), '^') << "\n";
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

std::string join_words(const std::vector<std::string>& words) {
  std::string q;
  for (const auto& w : words) q += (q.empty() ? "" : " ") + w;
  return q;
}

// How many arguments from `arg` on are an option of the search: 0 when
// `arg` is a query word (also one that starts with a single "-" and names
// no option, as `-python`: the only short option is -h), 2 for an option
// followed by its value, 1 for any other "--option" (a flag, "--x=value",
// or one CLI11 will report as unknown).
int option_length(const CLI::App& app, const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-') return 0;
  const CLI::Option* opt = arg.find('=') == std::string::npos ? app.get_option_no_throw(arg) : nullptr;
  if (!opt) return arg[1] == '-' ? 1 : 0;
  return opt->get_items_expected_min() > 0 ? 2 : 1;
}

// The first "--option" (or "--option=value") of the search's arguments
// that names no option of `app`, "" when there is none: CLI11 reports it
// among its extras after the "--" that search_args puts before the words.
std::string unknown_option(const CLI::App& app, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) continue;
    if (!app.get_option_no_throw(arg.substr(0, arg.find('=')))) return arg.substr(0, arg.find('='));
    if (option_length(app, arg) == 2) ++i;
  }
  return {};
}

// "show" and "diff" are commands only as the first word that is not an
// option or an option's value: "blogsearch kernels show" searches for both
// words. CLI11 would take them as subcommands anywhere, hence this scan.
// Returns the index of the command in argv, 0 when this is a search.
int command_position(const CLI::App& app, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") return 0;
    if (const int n = option_length(app, arg)) {
      i += n - 1;
      continue;
    }
    return arg == "show" || arg == "diff" ? i : 0;
  }
  return 0;
}

// The arguments of a command but the command word, for CLI11 (which wants
// them reversed).
std::vector<std::string> command_args(int argc, char** argv, int at) {
  std::vector<std::string> args;
  for (int i = argc - 1; i >= 1; --i)
    if (i != at) args.emplace_back(argv[i]);
  return args;
}

// The search's arguments for CLI11 (reversed, as it wants them), with
// every query word after a "--" (option_length: `-python`, all posts but
// those with python, is a query word). Options and their values stay in
// front, in order.
std::vector<std::string> search_args(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> options, words;
  bool after_dashes = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const int n = after_dashes ? 0 : option_length(app, arg);
    if (!after_dashes && arg == "--") {
      after_dashes = true;
    } else if (n == 0) {
      words.push_back(arg);
    } else {
      options.push_back(arg);
      if (n == 2 && i + 1 < argc) options.push_back(argv[++i]);
    }
  }
  std::vector<std::string> args(words.rbegin(), words.rend());
  if (!words.empty()) args.push_back("--");
  args.insert(args.end(), options.rbegin(), options.rend());
  return args;
}

// Parses a command's arguments; a usage error is reported. -1 when parsed,
// else the exit code.
int parse_command(CLI::App& app, std::vector<std::string> args) {
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << app.get_name() << ": " << e.what() << " (see " << app.get_name() << " --help)\n";
    return kExitUsage;
  }
  return -1;
}

// The post a command names, and its history. On failure the error is
// reported and `exit` set.
struct NamedPost {
  std::optional<PostRecord> post;
  PostHistory history;
  int exit = kExitMatches;
};

NamedPost find_named_post(const std::string& command, Searcher& searcher, const std::string& key,
                          const std::string& db_path, const HistoryTexts& texts) {
  NamedPost out;
  out.post = searcher.find_post(key);
  if (!out.post) {
    std::cerr << command << ": no post with id or link '" << clean_line(key) << "' in " << db_path << "\n";
    out.exit = kExitNoMatches;
    return out;
  }
  out.history = searcher.post_history(out.post->docid, texts);
  return out;
}

// The database a command reads: --db, else $BLOGSEARCH_DB, else config.toml.
// "" after reporting a bad config.toml.
std::string command_db(std::string db_option, const UserConfig& user) {
  default_from_config(db_option, "BLOGSEARCH_DB", user, "db");
  return schema::resolve_db_path(db_option);
}

int run_show(int argc, char** argv, int at) {
  CLI::App app{"Show one post in full, by its id or its link, with its versions."};
  app.name("blogsearch show");
  std::string db_option, key, format = "text";
  bool pretty = false;
  long version = 0;
  app.add_option("--db", db_option, schema::kDbOptionHelp);
  app.add_option("post", key, "post id or link")->required();
  app.add_option("--version", version, "print version N of the post (1 = the oldest) instead");
  app.add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}));
  app.add_flag("--pretty", pretty, "JSON: indent");
  bool all = false;
  app.add_flag("--all", all, "list every version (default: the newest " + std::to_string(kShownVersions) + ")");
  if (const int rc = parse_command(app, command_args(argc, argv, at)); rc >= 0) return rc;
  const std::size_t listed = all ? kAllVersions : kShownVersions;
  std::string db_path;
  try {
    db_path = command_db(db_option, load_user_config());
  } catch (const UserConfigError& e) {
    std::cerr << "blogsearch: " << e.what() << "\n";
    return kExitUsage;
  }
  try {
    Searcher searcher(db_path);
    // The versions list has no texts: only --version's is rebuilt.
    NamedPost named = find_named_post(app.get_name(), searcher, key, db_path, HistoryTexts::of({version}));
    if (!named.post) return named.exit;
    const PostRecord& post = *named.post;
    if (app.get_option("--version")->count()) {
      if (const std::string e = version_range_error(named.history, version); !e.empty()) {
        std::cerr << "blogsearch show: " << clean_line(key) << ": " << e << "\n";
        return kExitUsage;
      }
      if (format == "json") {
        nlohmann::json j = version_to_json(named.history, static_cast<int>(version));
        j["id"] = post.id;
        std::cout << dump_json(j, pretty) << "\n";
      } else {
        write_version_text(std::cout, named.history, static_cast<int>(version));
      }
      return kExitMatches;
    }
    if (format == "json") {
      nlohmann::json j = post_to_json(post, JsonOptions{true, true});
      j["history"] = history_to_json(named.history, listed);
      std::cout << dump_json(j, pretty) << "\n";
    } else {
      write_post_text(std::cout, post, &named.history, listed);
    }
    return kExitMatches;
  } catch (const std::exception& e) {  // DatabaseUnavailable and the rest: one line
    std::cerr << "blogsearch: " << e.what() << "\n";
    return kExitDatabase;
  }
}

int run_diff(int argc, char** argv, int at) {
  CLI::App app{"Compare two versions of a post, word by word (default: the last two; with A alone,\n"
               "version A against the one before it)."};
  app.name("blogsearch diff");
  std::string db_option, key, format = "text", color = "auto";
  bool pretty = false;
  long a = 0, b = 0;
  app.add_option("--db", db_option, schema::kDbOptionHelp);
  app.add_option("post", key, "post id or link")->required();
  app.add_option("A", a, "the older version (1 = the oldest); alone: compared with the one before it");
  app.add_option("B", b, "the newer version");
  app.add_option("--format", format, "text or json")->check(CLI::IsMember({"text", "json"}));
  app.add_option("--color", color, "mark removed words red and added green: auto (on a terminal, unless NO_COLOR), "
                                   "always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  unsigned context = 20;
  app.add_option("--context", context, "text: unchanged words kept around each change (default 20; JSON has all)")
      ->check(CLI::Range(0u, 1000000u));
  app.add_flag("--pretty", pretty, "JSON: indent");
  if (const int rc = parse_command(app, command_args(argc, argv, at)); rc >= 0) return rc;
  std::vector<long> versions;
  if (app.get_option("A")->count()) versions.push_back(a);
  if (app.get_option("B")->count()) versions.push_back(b);
  std::string db_path;
  try {
    const UserConfig user = load_user_config();
    db_path = command_db(db_option, user);
    if (auto v = user.get("color"); v && !app.get_option("--color")->count()) color = *v;
  } catch (const UserConfigError& e) {
    std::cerr << "blogsearch: " << e.what() << "\n";
    return kExitUsage;
  }
  try {
    Searcher searcher(db_path);
    // The texts of the two versions compared (by default the last two).
    const HistoryTexts texts = versions.empty()       ? HistoryTexts::of({-2, -1})
                               : versions.size() == 1 ? HistoryTexts::of({versions[0] > 0 ? versions[0] - 1 : 0, versions[0]})
                                                      : HistoryTexts::of(versions);
    NamedPost named = find_named_post(app.get_name(), searcher, key, db_path, texts);
    if (!named.post) return named.exit;
    const long count = static_cast<long>(named.history.versions.size());
    for (long v : versions)
      if (const std::string e = version_range_error(named.history, v); !e.empty()) {
        std::cerr << "blogsearch diff: " << clean_line(key) << ": " << e << "\n";
        return kExitUsage;
      }
    long from = count - 1, to = count;
    if (versions.size() == 1) from = versions[0] - 1, to = versions[0];
    if (versions.size() == 2) from = versions[0], to = versions[1];
    if (count < 2) {
      std::cerr << "blogsearch diff: " << clean_line(key) << ": post has only one version, nothing to compare\n";
      return kExitNoMatches;
    }
    if (from < 1) {
      std::cerr << "blogsearch diff: " << clean_line(key) << ": version 1 is the first, nothing before it to compare\n";
      return kExitUsage;
    }
    if (from == to) {  // as the post page's diff=A-B
      std::cerr << "blogsearch diff: " << clean_line(key) << ": diff takes two different versions, as in diff POST 1 2\n";
      return kExitUsage;
    }
    const VersionDiff d = diff_versions(named.history, static_cast<int>(from), static_cast<int>(to));
    if (format == "json") {
      std::cout << dump_json(version_diff_to_json(*named.post, d), pretty) << "\n";
    } else {
      const char* no_color = std::getenv("NO_COLOR");
      const bool colour = color == "always" ||
                          (color == "auto" && isatty(STDOUT_FILENO) && !(no_color && *no_color));
      write_version_diff(std::cout, *named.post, d, colour, context);
    }
    return kExitMatches;
  } catch (const std::exception& e) {  // DatabaseUnavailable and the rest: one line
    std::cerr << "blogsearch: " << e.what() << "\n";
    return kExitDatabase;
  }
}

int run(int argc, char** argv) {
  CLI::App app{"Search the blog archive that blogsearch-index builds.\n"
               "Put the query in single quotes: blogsearch 'pytorch compil* -tutorial'\n"
               "A word with a leading '-' leaves its posts out, also alone: blogsearch -python",
               "blogsearch"};
  app.set_version_flag("--version", BLOGSEARCH_VERSION);
  app.footer(
      "Exit status: 0 results, 1 no results, 2 usage or query error or output not written, 4 database\n"
      "missing or unreadable.\n"
      "Show one post and its versions: blogsearch show ID|URL [--version N]\n"
      "Compare two versions of a post: blogsearch diff ID|URL [A [B]]");

  std::string db_option;
  std::vector<std::string> words;
  std::string format = "text";
  bool count_only = false;
  std::string facets;
  unsigned facet_limit = 10;
  unsigned limit = 10, offset = 0, page = 0;
  std::string sort = "relevance";
  bool reverse = false;
  std::string since, until;
  std::vector<std::string> categories, authors, feeds;
  std::string color = "auto";
  bool with_text = false, with_history = false, pretty = false;
  unsigned wildcard_limit = 1000;
  unsigned time_limit_ms = SearchBounds{}.time_limit_ms;

  app.add_option("--db", db_option, schema::kDbOptionHelp);
  app.add_option("query", words, "query words, phrases, prefixes and operators, or a post's link");
  app.add_option("--format", format, "output: text, json or ids")
      ->check(CLI::IsMember({"text", "json", "ids"}));
  app.add_flag("--count", count_only, "print only the number of matching posts");
  app.add_option("--facets", facets,
                 "count matches per category,author,feed,month (exact up to " + std::to_string(kFacetBound) +
                     " matches, estimated from a sample past it)");
  app.add_option("--facet-limit", facet_limit, "values per facet (default 10)")->check(CLI::Range(1u, 1000u));
  app.add_option("--limit", limit, "results per page (default 10, at most 1000)")
      ->check(CLI::Range(1u, kMaxLimit));
  auto* offset_opt = app.add_option("--offset", offset, "skip this many results");
  app.add_option("--page", page, "page number, from 1 (with --limit)")
      ->check(CLI::Range(1u, 1000000u))
      ->excludes(offset_opt);
  app.add_option("--sort", sort, "relevance (default), date (newest first) or recent")
      ->check(CLI::IsMember({"relevance", "date", "recent"}));
  app.add_flag("--reverse", reverse, "with --sort date: oldest first");
  app.add_option("--since", since, "published on or after: YYYY, YYYY-MM, YYYY-MM-DD, or 30d/6m/1y ago");
  app.add_option("--until", until, "published on or before: same forms as --since");
  app.add_option("--category", categories, "only posts with this category (repeatable)")
      ->allow_extra_args(false);  // --category X word: "word" is the query
  app.add_option("--author", authors, "only posts by this author (repeatable)")
      ->allow_extra_args(false);  // --category X word: "word" is the query
  app.add_option("--feed", feeds, "only posts from this feed id (repeatable)")
      ->allow_extra_args(false);  // --category X word: "word" is the query
  app.add_option("--color", color, "highlight matches: auto (on a terminal, unless NO_COLOR), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("--wildcard-limit", wildcard_limit, "most words a wildcard may expand to (default 1000)")
      ->check(CLI::Range(1u, 100000u));
  app.add_option("--time-limit", time_limit_ms,
                 "ms after which a large match stops counting and says its counts are partial "
                 "(default " + std::to_string(time_limit_ms) + "; 0: none)")
      ->check(CLI::Range(0u, 600000u));
  app.add_flag("--with-text", with_text, "JSON: include each post's full text");
  app.add_flag("--history", with_history, "JSON: include each post's history (blogsearch show has it too)");
  app.add_flag("--pretty", pretty, "JSON: indent");

  try {
    if (const int at = command_position(app, argc, argv))
      return std::string(argv[at]) == "show" ? run_show(argc, argv, at) : run_diff(argc, argv, at);
    app.parse(search_args(app, argc, argv));
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const std::string unknown = unknown_option(app, argc, argv);
    if (!unknown.empty()) std::cerr << "blogsearch: unknown option " << unknown << " (see blogsearch --help)\n";
    else std::cerr << "blogsearch: " << e.what() << " (see blogsearch --help)\n";
    return kExitUsage;
  }

  // config.toml gives what the command line did not (user_config.h).
  try {
    const UserConfig user = load_user_config();
    default_from_config(db_option, "BLOGSEARCH_DB", user, "db");
    auto given = [&](const char* name) { return app.get_option(name)->count() > 0; };
    if (auto v = user.get("sort"); v && !given("--sort")) sort = *v;
    if (auto v = user.get("limit"); v && !given("--limit")) limit = static_cast<unsigned>(std::stoul(*v));
    if (auto v = user.get("color"); v && !given("--color")) color = *v;
    if (auto v = user.get("facets"); v && !given("--facets")) facets = *v;
  } catch (const UserConfigError& e) {
    std::cerr << "blogsearch: " << e.what() << "\n";
    return kExitUsage;
  }
  const std::string db_path = schema::resolve_db_path(db_option);
  try {
    SearchRequest request;
    request.query.text = join_words(words);
    request.query.max_wildcard_expansion = wildcard_limit;
    // One search per process: a cheap match skips the time limit's thread.
    request.bounds.untimed_postings = kUntimedPostings;
    request.bounds.time_limit_ms = time_limit_ms;
    const auto now = static_cast<UnixTime>(std::time(nullptr));
    if (!since.empty()) request.query.filters.since = parse_time_option("--since", since, false, now);
    if (!until.empty()) request.query.filters.until = parse_time_option("--until", until, true, now);
    request.query.filters.categories = categories;
    request.query.filters.authors = authors;
    request.query.filters.feeds = feeds;
    request.sort = *parse_sort_order(sort);
    request.reverse = reverse;
    request.limit = limit;
    request.offset = page ? (page - 1) * limit : offset;
    for (const std::string& name : split_list(facets)) {
      const auto kind = parse_facet_name(name);
      if (!kind)
        throw QueryError("--facets: unknown facet '" + name + "' (use " + kFacetNameList + ")");
      request.facets.push_back(*kind);
    }
    request.facet_limit = facet_limit;
    if (count_only) {
      request.limit = 0;
      request.exact_count = true;
      request.snippets = false;
    }
    request.snippets = request.snippets && format != "ids";
    request.with_text = with_text && format == "json";
    request.with_history = with_history && format == "json";

    Searcher searcher(db_path);
    SearchResult result = searcher.search(request);
    for (const auto& u : result.unknown_filters) std::cerr << "blogsearch: " << clean_line(unknown_filter_note(u)) << "\n";

    if (result.any_word)
      std::cerr << "blogsearch: note: no post has all the words; these have some of them, the most first\n";
    if (!result.searched_as_words.empty())
      std::cerr << "blogsearch: note: the query could not be read as written (" << result.searched_as_words
                << "), so its words were searched\n";
    if (count_only) {
      std::cout << result.total.estimated << "\n";
      return result.total.estimated ? kExitMatches : kExitNoMatches;
    }
    if (format == "json") {
      std::cout << dump_json(result_to_json(result, JsonOptions{with_text, with_history}), pretty) << "\n";
    } else if (format == "ids") {
      write_ids(std::cout, result);
    } else {
      const char* no_color = std::getenv("NO_COLOR");
      bool bold = color == "always" ||
                  (color == "auto" && isatty(STDOUT_FILENO) && !(no_color && *no_color));
      write_text(std::cout, result, TextStyle{bold});
    }
    exit_now(result.hits.empty() ? kExitNoMatches : kExitMatches);
  } catch (const QueryError& e) {
    report_query_error(e);
    return kExitUsage;
  } catch (const std::exception& e) {  // DatabaseUnavailable and the rest: one line
    std::cerr << "blogsearch: " << e.what() << "\n";
    return kExitDatabase;
  }
}

}  // namespace

int main(int argc, char** argv) {
  blogsearch::prefault_short_process();
  std::ios::sync_with_stdio(false);
  exit_now(run(argc, argv));
}
