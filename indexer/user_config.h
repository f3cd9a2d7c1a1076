// user_config.h: config.toml, the options a user would otherwise give every
// time, read by both blogsearch and blogsearch-index (not the CGI, which is
// configured by its web server's environment: docs in README).
//
//   # $XDG_CONFIG_HOME/blogsearch/config.toml (~/.config/blogsearch/config.toml),
//   # or the file $BLOGSEARCH_CONFIG names
//   db = "~/blogs/db"          # both programs (like --db)
//   archive = "~/blogs/archive"  # blogsearch-index (like --archive)
//   feeds = "~/blogs/feeds.toml" # blogsearch-index fetch, feeds (like --config)
//   wait = 900                 # blogsearch-index writers (like --wait)
//   sort = "date"              # blogsearch: relevance, date or recent
//   limit = 20                 # blogsearch: results per page, 1..1000
//   color = "never"            # blogsearch: auto, always or never
//   facets = ["category", "feed"]  # blogsearch (or "category,feed")
//
// Paths may start with "~/"; relative ones are relative to the file's folder.
// The command line wins over the environment ($BLOGSEARCH_DB,
// $BLOGSEARCH_ARCHIVE), which wins over the file, which wins over the
// defaults; Setting::source says which one gave a value.
//
// load_user_config throws UserConfigError, one line naming the file, the
// line and the key (an unknown key, a value of the wrong type or range, a
// TOML syntax error). A file that does not exist is an empty config.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>

namespace blogsearch {

class UserConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ConfigValue {
  std::string value;  // as text: a path made absolute, a number, "a,b" for lists
  long line = 0;
};

struct UserConfig {
  std::string path;    // the file read (or that would be read)
  bool found = false;  // it exists
  std::map<std::string, ConfigValue> values;  // by key; only keys it sets

  // The value of `key`, or nullopt.
  std::optional<std::string> get(const std::string& key) const;
  // "config.toml:3" for the line that set `key`.
  std::string where(const std::string& key) const;
};

// $BLOGSEARCH_CONFIG, else $XDG_CONFIG_HOME/blogsearch/config.toml, else
// ~/.config/blogsearch/config.toml.
std::string user_config_path();

UserConfig load_user_config(const std::string& path = user_config_path());

// A setting as used, and where it came from: "--db", "$BLOGSEARCH_DB",
// "/home/u/.config/blogsearch/config.toml:3" or "default".
struct Setting {
  std::string value;
  std::string source;
};

// When neither `flag` nor the environment variable `env` (null = none)
// gives a value, the file's `key` (if it sets one) is put in `flag`.
void default_from_config(std::string& flag, const char* env, const UserConfig& config, const std::string& key);

// flag (when given) > environment variable `env` (when set, "" = none) >
// the file's `key` > `fallback`.
Setting resolve_setting(const std::string& flag_name, const std::string& flag_value, const char* env,
                        const UserConfig& config, const std::string& key, const std::string& fallback);

}  // namespace blogsearch
