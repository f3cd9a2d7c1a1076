// feeds_edit.cc: line spans of [[feed]] tables, edited as text.
#include "indexer/feeds_edit.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <toml++/toml.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "indexer/snapshot.h"
#include "indexer/url.h"

namespace blogsearch {

namespace fs = std::filesystem;

namespace {

// The text as lines, each with its '\n' (the last one perhaps without).
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  return lines;
}

bool is_comment(const std::string& line) {
  std::size_t b = line.find_first_not_of(" \t");
  return b != std::string::npos && line[b] == '#';
}

}  // namespace

std::string toml_string(const std::string& value) {
  // Basic strings ("..."), as people write feeds.toml; toml++ would pick
  // literal ones ('...') where it can.
  std::ostringstream out;
  out << toml::toml_formatter{toml::value<std::string>(value), toml::format_flags::allow_unicode_strings};
  return out.str();
}

FeedsFile::FeedsFile(std::string path) : path_(std::move(path)) {
  std::error_code ec;
  if (!fs::exists(path_, ec)) return;  // a new file
  std::ifstream in(path_, std::ios::binary);
  if (!in) throw ConfigError(path_ + ": cannot read: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  set_text(text.str());
}

namespace {

// url_key, with https read as http: a blog's feed over both is one feed,
// and two subscriptions would index each of its posts twice.
std::string feed_url_key(const std::string& url) {
  std::string key = url_key(url);
  if (key.rfind("https://", 0) == 0) key.erase(4, 1);
  return key;
}

}  // namespace

void FeedsFile::set_text(std::string text) {
  feeds_ = parse_feeds_config(text, path_);
  text_ = std::move(text);
  url_keys_.clear();
  for (const auto& f : feeds_) url_keys_.push_back(feed_url_key(f.url));
}

const FeedConfig* FeedsFile::find(const std::string& id) const {
  for (const auto& f : feeds_)
    if (f.id == id) return &f;
  return nullptr;
}

const FeedConfig* FeedsFile::find_url(const std::string& url) const {
  const std::string key = feed_url_key(url);
  for (std::size_t i = 0; i < feeds_.size(); ++i)
    if (url_keys_[i] == key) return &feeds_[i];
  return nullptr;
}

std::string FeedsFile::already_there(const FeedConfig& same, const std::string& url) const {
  return path_ + ":" + std::to_string(same.line) + ": " + url + " is there already, as feed '" + same.id + "'" +
         (same.url == url ? "" : " (" + same.url + ")");
}

void FeedsFile::append(const FeedConfig& feed) {
  if (std::string why = feed_id_problem(feed.id); !why.empty()) throw ConfigError(path_ + ": " + why);
  if (find(feed.id)) throw ConfigError(path_ + ": there is already a feed with id '" + feed.id + "'");
  if (const FeedConfig* same = find_url(feed.url)) throw ConfigError(already_there(*same, feed.url));
  std::string table = "[[feed]]\nid = " + toml_string(feed.id) + "\nurl = " + toml_string(feed.url) + "\n";
  if (!feed.title.empty()) table += "title = " + toml_string(feed.title) + "\n";
  if (!feed.category.empty()) table += "category = " + toml_string(feed.category) + "\n";
  if (!feed.enabled) table += "enabled = false\n";
  std::string text = text_;
  if (!text.empty() && text.back() != '\n') text += '\n';
  if (!text.empty() && text.compare(text.size() - 2, 2, "\n\n") != 0) text += '\n';
  set_text(text + table);  // throws before anything changes when invalid
}

void FeedsFile::remove(const std::string& id) {
  std::size_t index = feeds_.size();
  for (std::size_t i = 0; i < feeds_.size(); ++i)
    if (feeds_[i].id == id) index = i;
  if (index == feeds_.size()) throw ConfigError(path_ + ": no feed with id '" + id + "'");
  std::vector<std::string> lines = lines_of(text_);
  // toml++ counts lines from 1; [[feed]] tables are the only tables.
  std::size_t first = static_cast<std::size_t>(feeds_[index].line - 1);
  std::size_t end = index + 1 < feeds_.size() ? static_cast<std::size_t>(feeds_[index + 1].line - 1) : lines.size();
  if (index + 1 < feeds_.size()) {
    // Comments right above the next header are about the next feed; the
    // blank lines before them went with this one.
    while (end > first + 1 && is_comment(lines[end - 1])) --end;
  }
  if (index > 0) {
    // Likewise the comments right above this header are about this feed
    // (above the first feed they may be about the file: kept).
    while (first > 0 && is_comment(lines[first - 1])) --first;
  }
  // Blank lines that would end up doubled are dropped with the span.
  std::string text;
  for (std::size_t i = 0; i < first; ++i) text += lines[i];
  for (std::size_t i = end; i < lines.size(); ++i) text += lines[i];
  if (end == lines.size()) {
    while (text.size() >= 2 && text.compare(text.size() - 2, 2, "\n\n") == 0) text.pop_back();
  }
  set_text(std::move(text));
}

void FeedsFile::save() const {
  parse_feeds_config(text_, path_);  // never write what does not parse
  fs::path target(path_);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  mode_t mode = 0644;
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0) mode = st.st_mode & 07777;
  std::string tmp = path_ + ".tmp.XXXXXX";
  int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw ConfigError(path_ + ": cannot write: " + std::strerror(errno));
  auto fail = [&](const char* what) {
    const std::string why = std::strerror(errno);
    ::close(fd);
    ::unlink(tmp.c_str());
    throw ConfigError(path_ + ": cannot " + what + ": " + why + " (the file is unchanged)");
  };
  std::size_t done = 0;
  while (done < text_.size()) {
    ssize_t n = ::write(fd, text_.data() + done, text_.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("write");
    done += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) fail("write");
  if (::close(fd) != 0) {
    fd = -1;
    ::unlink(tmp.c_str());
    throw ConfigError(path_ + ": cannot write: " + std::strerror(errno) + " (the file is unchanged)");
  }
  if (::rename(tmp.c_str(), path_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw ConfigError(path_ + ": cannot replace: " + why + " (the file is unchanged)");
  }
  const std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

std::string new_feed_id(const std::string& title, const std::string& url, const std::vector<std::string>& taken) {
  std::string base = feed_slug(title);
  if (base.size() > 40) base = base.substr(0, base.find_last_of('-', 40) == std::string::npos ? 40 : base.find_last_of('-', 40));
  if (base.empty()) {
    std::string host = url_host(url);
    if (host.compare(0, 4, "www.") == 0) host.erase(0, 4);
    base = feed_slug(host);
  }
  if (base.empty()) base = "feed";
  auto is_taken = [&](const std::string& id) {
    for (const auto& t : taken)
      if (t == id) return true;
    return false;
  };
  std::string id = base;
  for (int n = 2; is_taken(id); ++n) id = base + "-" + std::to_string(n);
  return id;
}

}  // namespace blogsearch
