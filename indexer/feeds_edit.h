// feeds_edit.h: changing feeds.toml the way a person would, in its text.
//
// toml++ does not keep comments, so a file is never written back from a
// parsed table: each edit works on the text, by the span of lines of one
// [[feed]] table (its header to the next header; comment lines directly
// above the next header belong to that one). Everything outside the span
// edited stays byte for byte: comments, order, blank lines, quoting.
// The new text is parsed again (feeds_config.h) before it replaces the file,
// and the file is replaced atomically (a temporary file beside it, fsync,
// rename), keeping its permissions.
//
// Functions throw ConfigError (feeds_config.h) with a one-line message
// naming the file: the file cannot be read or written, the edit would make
// it invalid, or the id to remove is not there.
#pragma once

#include <string>
#include <vector>

#include "indexer/feeds_config.h"

namespace blogsearch {

// A feeds.toml held as text, with its feeds as parsed. A missing file is
// an empty one (and is created, with its folder, on save).
class FeedsFile {
 public:
  explicit FeedsFile(std::string path);

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }
  const std::vector<FeedConfig>& feeds() const { return feeds_; }
  const FeedConfig* find(const std::string& id) const;
  // The feed whose url is `url`, however either is written (url_key,
  // url.h: "HTTP://Example.org:80/feed#top" is "http://example.org/feed";
  // https and http are one feed), or null.
  const FeedConfig* find_url(const std::string& url) const;
  // "FILE:LINE: URL is there already, as feed 'ID'", and the URL as the
  // file writes it when that differs: the error for a URL find_url found.
  std::string already_there(const FeedConfig& same, const std::string& url) const;

  // Appends a [[feed]] table (id, url, then title and category when not
  // empty, enabled only when false). Throws ConfigError when the id or url
  // is invalid or already there (find_url; the message is already_there's).
  void append(const FeedConfig& feed);
  // Removes the [[feed]] table of `id`. Throws ConfigError when it is not
  // there.
  void remove(const std::string& id);
  // Validates and writes the text.
  void save() const;

 private:
  void set_text(std::string text);
  std::string path_;
  std::string text_;
  std::vector<FeedConfig> feeds_;
  std::vector<std::string> url_keys_;  // of each feed's url, as find_url compares them
};

// An id for a new feed that is not in `taken`: the slug of `title`, else of
// the URL's host (without "www."), with "-2", "-3"... appended while taken.
// Never "" (falls back to "feed").
std::string new_feed_id(const std::string& title, const std::string& url, const std::vector<std::string>& taken);

// A TOML basic string for `value`, quoted and escaped.
std::string toml_string(const std::string& value);

}  // namespace blogsearch
