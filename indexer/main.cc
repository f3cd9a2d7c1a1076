// blogsearch-index: parse feed snapshots and write them into the database.
// Only this file touches CLI11, the environment, exit codes and stdout.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "indexer/date.h"
#include "indexer/feed_parser.h"
#include "indexer/html_text.h"
#include "indexer/snapshot.h"
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"blogsearch-index " BLOGSEARCH_VERSION
               ": parse blog feed snapshots and index them with Xapian"};
  app.require_subcommand(1);
  app.set_version_flag("--version", BLOGSEARCH_VERSION);

  std::vector<std::string> parse_files;
  auto* parse = app.add_subcommand("parse", "Print what the parser reads from each FILE, as one JSON object per line");
  parse->add_option("FILE", parse_files, "Feed files (RSS 2.0, RSS 1.0, Atom)")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? kOk : kInputError;
  }
  if (parse->parsed()) return run_parse(parse_files);
  return kInputError;
}
