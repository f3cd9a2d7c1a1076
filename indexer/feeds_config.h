// feeds_config.h: reading feeds.toml, the list of feeds `fetch` polls.
//
//   [[feed]]
//   id = "pytorch"                      # slug: archive folder, XFEED term
//   url = "https://pytorch.org/blog/feed/"
//   title = "PyTorch Blog"              # optional
//   enabled = false                     # optional, default true
//   category = "Tech/Machine learning"  # optional; OPML folders, outer/inner
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace blogsearch {

struct FeedConfig {
  std::string id;
  std::string url;
  std::string title;
  bool enabled = true;
  std::string category;  // "" = none; nested OPML outlines joined by '/'
  long line = 0;         // of its [[feed]] header in the file (1-based)
};

// A config that cannot be used. what() is one line naming the file, the line
// and the key: "feeds.toml:7: feed 'x': url must be an http(s) URL".
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads and validates the file (ids unique slugs, urls http/https).
// Throws ConfigError.
std::vector<FeedConfig> load_feeds_config(const std::string& path);

// The same for the text of such a file; `path` names it in errors.
std::vector<FeedConfig> parse_feeds_config(const std::string& text, const std::string& path);

// --config, else data/feeds.toml when it exists, else
// $XDG_CONFIG_HOME/blogsearch/feeds.toml (~/.config/blogsearch/feeds.toml).
std::string resolve_config_path(const std::string& from_option);

}  // namespace blogsearch
