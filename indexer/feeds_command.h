// feeds_command.h: `blogsearch-index feeds add|list|remove|import|export`,
// the subscription commands. Part of blogsearch-index's main (main.cc): the
// only other file that touches CLI11, stdout and exit codes.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>

#include "indexer/fetch.h"

namespace blogsearch {

struct FeedsArgs {
  std::string config, db;
  std::string archive;                   // remove: names the feed's folder in it ($BLOGSEARCH_ARCHIVE, config.toml)
  std::string url, id, title, category;  // add
  std::string file;                      // import
  FetchOptions fetch;                    // add: the discovery requests
  std::size_t max_items = 10000;
  CLI::App *add = nullptr, *list = nullptr, *remove = nullptr, *import = nullptr, *exprt = nullptr;
};

// Adds `feeds` and its subcommands to `app`; returns the `feeds` command.
CLI::App* add_feeds_command(CLI::App& app, FeedsArgs& args);

// Runs the subcommand parsed; returns the exit code (0, 2 for bad input or
// a feed not found, 3 when an import skipped entries, 4 database trouble
// in `list`).
int run_feeds(const FeedsArgs& args);

}  // namespace blogsearch
