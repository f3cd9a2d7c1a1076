// json_feed.cc: JSON Feed 1.0 / 1.1 through nlohmann-json's SAX interface.
//
// SAX rather than json::parse: the DOM of a hostile document costs many
// times its size (each value is a node), and the DOM parser's filtering
// callback rescans the parent container at every discarded child
// (quadratic in the item count). Here the fields a Post needs are copied
// out as they stream past and everything else (attachments, `_extension`
// objects, deep nesting, items past max_items) is skipped with a depth
// counter, so memory is the posts plus one string, whatever the document.
// nlohmann's parser keeps its own nesting state in a bit vector, so depth
// costs it nothing to speak of either.
#include "common/utf8.h"
#include "indexer/json_feed.h"

#include <iconv.h>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <exception>
#include <optional>
#include <utility>
#include <vector>

#include "indexer/date.h"
#include "indexer/feed_text.h"
#include "indexer/html_text.h"
#include "indexer/url.h"

namespace blogsearch {
namespace {

using nlohmann::json;

// Type warnings past this many are only counted: one bad field repeated in
// every item must not give thousands of lines.
constexpr std::size_t kMaxTypeWarnings = 5;

std::vector<std::string> people_or(std::vector<std::string> first, std::vector<std::string> second) {
  return first.empty() ? std::move(second) : std::move(first);
}

// As for XML feeds (feed_parser.cc): an item's authors and categories
// stop at this many, so the scan for duplicates is bounded and 100,000 tags
// cost time linear in their bytes.
constexpr std::size_t kMaxListEntries = 256;

// Adds value unless empty or present; sets `full` when the list is full.
void add_unique(std::vector<std::string>& list, std::string value, bool& full) {
  if (value.empty()) return;
  for (const auto& v : list) {
    if (v == value) return;
  }
  if (list.size() >= kMaxListEntries) {
    full = true;
    return;
  }
  list.push_back(std::move(value));
}

// One item as read, before URLs can be resolved (feed_url and
// home_page_url may come after the items).
struct Draft {
  Post post;  // id, title, dates and tags filled as read
  std::string url, external_url;
  std::string content_html, content_text, summary;
  bool has_html = false, has_text = false, has_summary = false;
  std::vector<std::string> authors, author;  // 1.1 `authors`, 1.0 `author`
  std::string published, modified;
  bool truncated = false;
  bool list_full = false;  // a list reached kMaxListEntries
};

class Reader final : public json::json_sax_t {
 public:
  Reader(const std::string& name, const ParseOptions& options, ParsedFeed& feed)
      : name_(name), options_(options), feed_(feed) {}

  // Where the stream stands: each open container the reader cares about.
  enum class Frame { kRoot, kItems, kItem, kPeople, kPerson, kTags };
  // Whose people a kPeople / kPerson frame collects.
  enum class Owner { kFeedAuthors, kFeedAuthor, kItemAuthors, kItemAuthor };

  // null is an absent field; only an item that is null is worth a word.
  bool null() override { return in(Frame::kItems) ? scalar(nullptr, "null") : true; }
  bool boolean(bool) override { return scalar(nullptr, "a boolean"); }
  bool number_integer(number_integer_t v) override { return number(std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return number(std::to_string(v)); }
  bool number_float(number_float_t, const string_t& text) override { return number(text); }
  bool binary(binary_t&) override { return scalar(nullptr, "binary data"); }
  bool string(string_t& v) override { return scalar(&v, "a string"); }

  bool key(string_t& k) override {
    if (skip_ == 0) key_ = std::move(k);
    return true;
  }

  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    // what() quotes the last token read, which may be a whole string.
    std::string what = e.what();
    if (std::size_t tag = what.find("] "); tag != std::string::npos && what[0] == '[') what.erase(0, tag + 2);
    if (utf8::truncate_in_place(what, 160)) what += "...";
    error_ = what.empty() ? "parse error" : what;
    error_at_ = position;
    return false;
  }

  // Builds feed_ from what was read; throws FeedError when it is no feed.
  void finish(std::size_t size);

  bool failed() const { return !error_.empty(); }

 private:
  Frame top() const { return frames_.back(); }
  bool in(Frame f) const { return skip_ == 0 && !frames_.empty() && top() == f; }

  void type_warning(const std::string& what, const char* type) {
    if (++type_warnings_ > kMaxTypeWarnings) return;
    feed_.warnings.push_back(name_ + ": " + what + " is " + type + ", not " +
                             expected_ + "; ignored");
  }

  std::string where() const { return in_item() ? "item " + std::to_string(items_seen_) + ": " : ""; }
  bool in_item() const {
    for (Frame f : frames_) {
      if (f == Frame::kItem) return true;
    }
    return false;
  }

  // Cut at a character boundary so the field stays valid UTF-8.
  std::string capped(std::string&& v) {
    if (utf8::truncate_in_place(v, options_.max_text_bytes)) {
      if (in_item()) {
        items_.back().truncated = true;
      } else {
        feed_truncated_ = true;
      }
    }
    return std::move(v);
  }

  // The string slot a key names in the current frame, or null.
  std::string* string_slot() {
    if (in(Frame::kRoot)) {
      if (key_ == "version") return &version_;
      if (key_ == "title") return &title_;
      if (key_ == "home_page_url") return &home_page_url_;
      if (key_ == "feed_url") return &feed_url_;
      if (key_ == "language") return &language_;
    } else if (in(Frame::kItem)) {
      Draft& d = items_.back();
      if (key_ == "id") return &d.post.id;
      if (key_ == "url") return &d.url;
      if (key_ == "external_url") return &d.external_url;
      if (key_ == "title") return &d.post.title;
      if (key_ == "content_html") return (d.has_html = true, &d.content_html);
      if (key_ == "content_text") return (d.has_text = true, &d.content_text);
      if (key_ == "summary") return (d.has_summary = true, &d.summary);
      if (key_ == "date_published") return &d.published;
      if (key_ == "date_modified") return &d.modified;
      if (key_ == "language") return &d.post.language;
    } else if (in(Frame::kPerson)) {
      if (key_ == "name") return &person_name_;
      if (key_ == "url") return &person_url_;
    }
    return nullptr;
  }

  // Which container a key (or an array element) opens, if one is wanted.
  enum class Want { kNothing, kString, kObject, kArray };
  Want wanted() const {
    if (skip_ > 0 || frames_.empty()) return Want::kNothing;
    switch (top()) {
      case Frame::kRoot:
        if (key_ == "items" || key_ == "authors") return Want::kArray;
        if (key_ == "author") return Want::kObject;
        if (key_ == "version" || key_ == "title" || key_ == "home_page_url" || key_ == "feed_url" ||
            key_ == "language") {
          return Want::kString;
        }
        return Want::kNothing;
      case Frame::kItem:
        if (key_ == "authors" || key_ == "tags") return Want::kArray;
        if (key_ == "author") return Want::kObject;
        if (key_ == "id" || key_ == "url" || key_ == "external_url" || key_ == "title" ||
            key_ == "content_html" || key_ == "content_text" || key_ == "summary" ||
            key_ == "date_published" || key_ == "date_modified" || key_ == "language") {
          return Want::kString;
        }
        return Want::kNothing;
      case Frame::kItems:
      case Frame::kPeople:
        return Want::kObject;
      case Frame::kPerson:
        return key_ == "name" || key_ == "url" ? Want::kString : Want::kNothing;
      case Frame::kTags:
        return Want::kString;
    }
    return Want::kNothing;
  }

  static const char* want_name(Want w) {
    switch (w) {
      case Want::kString: return "a string";
      case Want::kObject: return "an object";
      case Want::kArray: return "an array";
      case Want::kNothing: break;
    }
    return "";
  }

  // What a field is called in a warning.
  std::string field_name() const {
    if (in(Frame::kItems)) return "item " + std::to_string(items_seen_ + 1);
    if (in(Frame::kTags)) return where() + "tag";
    if (in(Frame::kPeople)) return where() + "author";
    return where() + key_;
  }

  bool number(std::string text) {
    // The spec: an id given as a number is read as its string.
    if (in(Frame::kItem) && key_ == "id") return scalar(&text, "a string");
    return scalar(nullptr, "a number");
  }

  bool scalar(std::string* value, const char* type) {
    if (skip_ > 0 || frames_.empty()) return true;
    Want want = wanted();
    if (want == Want::kNothing) return true;
    if (value == nullptr || want != Want::kString) {
      expected_ = want_name(want);
      type_warning(field_name(), type);
      if (in(Frame::kItems)) ++items_seen_;
      return true;
    }
    if (in(Frame::kTags)) {
      Draft& d = items_.back();
      add_unique(d.post.categories, collapse_whitespace(capped(std::move(*value))), d.list_full);
    } else if (std::string* slot = string_slot()) {
      *slot = capped(std::move(*value));
    }
    return true;
  }

  bool open(bool object) {
    if (skip_ > 0) {
      ++skip_;
      return true;
    }
    if (frames_.empty()) {
      if (started_) {  // a second top-level value: the parser will object
        ++skip_;
        return true;
      }
      started_ = true;
      if (!object) {
        ++skip_;
        return true;
      }
      frames_.push_back(Frame::kRoot);
      return true;
    }
    Want want = wanted();
    // `authors` written as one person rather than a list of them is common
    // enough (Miniflux's tests carry one) to read as meant.
    bool one_of_authors = object && want == Want::kArray && key_ == "authors" &&
                          (top() == Frame::kRoot || top() == Frame::kItem);
    if (want != (object ? Want::kObject : Want::kArray) && !one_of_authors) {
      if (want != Want::kNothing) {
        expected_ = want_name(want);
        type_warning(field_name(), object ? "an object" : "an array");
        if (in(Frame::kItems)) ++items_seen_;
      }
      ++skip_;
      return true;
    }
    Frame parent = top();
    if (parent == Frame::kRoot) {
      if (key_ == "items") {
        frames_.push_back(Frame::kItems);
      } else {
        owner_ = key_ == "authors" ? Owner::kFeedAuthors : Owner::kFeedAuthor;
        frames_.push_back(object ? Frame::kPerson : Frame::kPeople);
      }
    } else if (parent == Frame::kItem) {
      if (key_ == "tags") {
        frames_.push_back(Frame::kTags);
      } else {
        owner_ = key_ == "authors" ? Owner::kItemAuthors : Owner::kItemAuthor;
        frames_.push_back(object ? Frame::kPerson : Frame::kPeople);
      }
    } else if (parent == Frame::kItems) {
      if (items_seen_++ >= options_.max_items) {
        ++skipped_items_;
        ++skip_;
        return true;
      }
      items_.emplace_back();
      item_open_ = true;
      frames_.push_back(Frame::kItem);
    } else {  // kPeople
      frames_.push_back(Frame::kPerson);
    }
    if (top() == Frame::kPerson) {
      person_name_.clear();
      person_url_.clear();
    }
    key_.clear();
    return true;
  }

  bool close() {
    if (skip_ > 0) {
      --skip_;
      return true;
    }
    if (frames_.empty()) return true;
    Frame done = top();
    frames_.pop_back();
    if (done == Frame::kItem) item_open_ = false;
    if (done == Frame::kPerson) {
      // A name is read as an XML author element is (markup and "by "
      // dropped, bylines that join people split), so a post has the same
      // authors whichever format its feed uses.
      std::vector<std::string> who = split_byline(person_text(person_name_));
      if (who.empty() && !trim_copy(person_url_).empty()) who.push_back(trim_copy(person_url_));
      bool unused = false;
      bool& full = (owner_ == Owner::kItemAuthors || owner_ == Owner::kItemAuthor) ? items_.back().list_full : unused;
      for (auto& one : who) add_unique(people(owner_), std::move(one), full);
    }
    if (frames_.empty()) {
      root_closed_ = true;
      return true;
    }
    // Back in an object, the key that opened the closed container is spent;
    // back in a people list, the list's owner is the person's owner again.
    if (top() == Frame::kRoot || top() == Frame::kItem) key_.clear();
    return true;
  }

  std::vector<std::string>& people(Owner o) {
    switch (o) {
      case Owner::kFeedAuthors: return feed_authors_;
      case Owner::kFeedAuthor: return feed_author_;
      case Owner::kItemAuthors: return items_.back().authors;
      case Owner::kItemAuthor: break;
    }
    return items_.back().author;
  }

  // RFC 3339 says a zone is a number, but a feed that names one parse_date
  // does not know has its dates hours off in UTC: said once per document,
  // as for XML, since a feed writes all its dates alike.
  std::optional<Time> date(const std::string& text, std::size_t item, bool& warned) {
    bool unknown_zone = false;
    std::optional<Time> t = parse_date(text, &unknown_zone);
    if (unknown_zone && !warned) {
      warned = true;
      feed_.warnings.push_back(name_ + ": item " + std::to_string(item) + ": unknown time zone in date \"" +
                               collapse_whitespace(text) + "\", read as UTC");
    }
    return t;
  }

  const std::string& name_;
  const ParseOptions& options_;
  ParsedFeed& feed_;

  std::vector<Frame> frames_;
  std::size_t skip_ = 0;  // depth inside a container nobody wants
  std::string key_;       // the last key seen in the innermost wanted object
  Owner owner_ = Owner::kFeedAuthors;
  std::string person_name_, person_url_;
  bool started_ = false, root_closed_ = false;
  bool item_open_ = false;  // the last item has not closed yet
  std::string error_;
  std::size_t error_at_ = 0;

  std::string version_, title_, home_page_url_, feed_url_, language_;
  std::vector<std::string> feed_authors_, feed_author_;
  std::vector<Draft> items_;
  std::size_t items_seen_ = 0, skipped_items_ = 0;
  bool feed_truncated_ = false;
  std::size_t type_warnings_ = 0;
  const char* expected_ = "";
};

// Titles are plain text by the spec, but feeds made from a CMS's HTML
// titles carry its entities ("Tom &amp; Jerry&#8217;s"): read with the
// test RSS titles get (feed_text.h), so "AT&T" and "a < b" stay as written.
std::string plain_title(const std::string& t) {
  return looks_like_html(t) ? html_to_text(t) : collapse_whitespace(t);
}

// "https://jsonfeed.org/version/1.1" -> "json11"; "" when not a JSON Feed.
std::string format_of(const std::string& version, bool& unknown) {
  std::string v = trim_copy(version);
  for (char& c : v) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  static const std::string kMark = "jsonfeed.org/version/";
  std::size_t at = v.find(kMark);
  if (at == std::string::npos) return "";
  std::string number = v.substr(at + kMark.size());
  while (!number.empty() && number.back() == '/') number.pop_back();
  unknown = false;
  if (number == "1" || number == "1.0") return "json10";
  if (number != "1.1") unknown = true;
  return "json11";
}

void Reader::finish(std::size_t size) {
  bool unknown_version = false;
  feed_.format = format_of(version_, unknown_version);
  if (!started_ || feed_.format.empty()) {
    if (failed() && !root_closed_) {
      throw FeedError(name_ + ": not JSON (" + error_ + ")");
    }
    throw FeedError(name_ + ": not a feed (JSON without a jsonfeed.org version)");
  }
  if (unknown_version) {
    feed_.warnings.push_back(name_ + ": unknown JSON Feed version \"" + trim_copy(version_) +
                             "\", read as 1.1");
  }
  if (failed()) {
    if (root_closed_) {
      feed_.warnings.push_back(name_ + ": text after the JSON object ignored");
    } else {
      // A cut or broken document says nothing about the items it lacks,
      // and its last item may be missing fields.
      feed_.complete = false;
      if (item_open_) items_.pop_back();
      feed_.warnings.push_back(name_ + (error_at_ >= size ? ": JSON ends early" : ": JSON error") +
                               " at byte " + std::to_string(error_at_) + "; " +
                               std::to_string(items_.size()) + " complete item(s) kept");
    }
  }
  if (type_warnings_ > kMaxTypeWarnings) {
    feed_.warnings.push_back(name_ + ": " + std::to_string(type_warnings_ - kMaxTypeWarnings) +
                             " more field(s) of the wrong type ignored");
  }
  if (skipped_items_ > 0) {
    // As for XML: the items past the bound are unknown, not gone.
    feed_.items_skipped = skipped_items_;
    feed_.complete = false;
    feed_.warnings.push_back(items_skipped_warning(name_, items_seen_, options_.max_items));
  }
  if (feed_truncated_) {
    feed_.warnings.push_back(name_ + ": feed text longer than " + std::to_string(options_.max_text_bytes) +
                             " bytes truncated");
  }

  // The document's own URL is the base RFC 3986 gives; feed_url says the
  // same when the snapshot does not know where it came from. Item URLs
  // with neither fall back to the home page, the only other URL there is.
  std::string base = has_scheme(trim_copy(options_.base_url)) ? trim_copy(options_.base_url) : "";
  if (!feed_url_.empty()) {
    std::string feed_url = resolve_url(feed_url_, base);
    if (base.empty() && has_scheme(feed_url)) base = feed_url;
  }
  feed_.title = plain_title(title_);
  // Without a home page, the feed's own URL is the site's best address left
  // (same host, which is what a feed without an id is named by).
  feed_.link = !trim_copy(home_page_url_).empty() ? resolve_url(home_page_url_, base) : base;
  const std::string& item_base = !base.empty() ? base : feed_.link;

  std::vector<std::string> feed_people = people_or(std::move(feed_authors_), std::move(feed_author_));
  feed_.posts.reserve(items_.size());
  bool unknown_zone_warned = false;
  for (std::size_t i = 0; i < items_.size(); ++i) {
    Draft& d = items_[i];
    Post& p = d.post;
    p.id = trim_copy(p.id);
    std::string url = trim_copy(d.url);
    if (url.empty()) url = trim_copy(d.external_url);
    if (!url.empty()) p.link = resolve_url(url, item_base);
    // An id that is a web address is the best link left, as for Atom ids.
    if (p.link.empty() && is_web_address(p.id)) p.link = p.id;
    p.title = plain_title(p.title);
    p.language = trim_copy(p.language.empty() ? language_ : p.language);
    // 1.1 replaced `author` by `authors`; feeds written for both readers
    // carry both, naming the same people. An item without any has the
    // feed's.
    p.authors = people_or(people_or(std::move(d.authors), std::move(d.author)), feed_people);
    // Dates after the observed time are settled by parse_feed, for every
    // format alike.
    p.published = date(d.published, i + 1, unknown_zone_warned);
    p.updated = date(d.modified, i + 1, unknown_zone_warned);
    p.summary_is_html = false;  // the spec: a plain text sentence or two
    if (d.has_summary) p.summary = d.summary;
    // White space alone is no content: the next field may have some.
    if (d.has_html && !trim_copy(d.content_html).empty()) {
      p.content = std::move(d.content_html);
      p.content_is_html = true;
    } else if (d.has_text && !trim_copy(d.content_text).empty()) {
      p.content = std::move(d.content_text);
      p.content_is_html = false;
    } else if (d.has_summary) {
      p.content = std::move(d.summary);
      p.content_is_html = false;
    }
    if (d.list_full) {
      feed_.warnings.push_back(name_ + ": item " + std::to_string(i + 1) + ": more than " +
                               std::to_string(kMaxListEntries) + " authors or categories; the rest ignored");
    }
    if (d.truncated) {
      feed_.warnings.push_back(name_ + ": item " + std::to_string(i + 1) + ": text longer than " +
                               std::to_string(options_.max_text_bytes) + " bytes truncated");
    }
    feed_.posts.push_back(std::move(p));
  }
}

struct Iconv {
  iconv_t cd;
  Iconv(const char* to, const char* from) : cd(iconv_open(to, from)) {}
  ~Iconv() {
    if (ok()) iconv_close(cd);
  }
  bool ok() const { return cd != reinterpret_cast<iconv_t>(-1); }
};

// Finds and re-reads bytes that are not UTF-8; the converters are opened
// once per document, as a Latin-1 document may hold thousands of such bytes.
class Utf8Repair {
 public:
  Utf8Repair() : check_("UTF-8", "UTF-8"), latin_("UTF-8", "WINDOWS-1252") {}

  // Offset of the first byte from `from` on that is not part of well-formed
  // UTF-8, or size(); glibc's decoder rejects overlong forms and surrogates
  // as RFC 8259 (and nlohmann's lexer) do.
  std::size_t first_bad(std::string_view b, std::size_t from) {
    if (!check_.ok()) return b.size();
    iconv(check_.cd, nullptr, nullptr, nullptr, nullptr);
    char* in = const_cast<char*>(b.data()) + from;
    std::size_t left = b.size() - from;
    char out[4096];
    while (left > 0) {
      char* o = out;
      std::size_t room = sizeof out;
      if (iconv(check_.cd, &in, &left, &o, &room) == static_cast<std::size_t>(-1) && errno != E2BIG) break;
    }
    return b.size() - left;
  }

  // Each byte that is not UTF-8 re-read as Windows-1252 (JSON written by a
  // Latin-1 program is the usual cause); the five bytes it leaves undefined
  // become U+FFFD. `count` gets how many bytes were re-read.
  std::string repair(std::string_view b, std::size_t& count) {
    std::string out;
    out.reserve(b.size() + b.size() / 8);
    count = 0;
    std::size_t at = 0;
    while (at < b.size()) {
      std::size_t bad = first_bad(b, at);
      out.append(b.data() + at, bad - at);
      if (bad >= b.size()) break;
      ++count;
      char byte = b[bad];
      char utf8[8];
      char* in = &byte;
      char* o = utf8;
      std::size_t in_left = 1, room = sizeof utf8;
      if (latin_.ok() && iconv(latin_.cd, &in, &in_left, &o, &room) != static_cast<std::size_t>(-1)) {
        out.append(utf8, o);
      } else {
        out += "\xEF\xBF\xBD";
      }
      at = bad + 1;
    }
    return out;
  }

 private:
  Iconv check_, latin_;
};

void read_document(std::string_view text, const std::string& name, const ParseOptions& options,
                   ParsedFeed& feed) {
  Reader reader(name, options, feed);
  try {
    json::sax_parse(text.begin(), text.end(), &reader, json::input_format_t::json,
                    /*strict=*/true, /*ignore_comments=*/true);
  } catch (const json::exception& e) {
    // sax_parse reports through parse_error; this is only a safety net.
    reader.parse_error(text.size(), "", e);
  }
  reader.finish(text.size());
}

}  // namespace

bool looks_like_json_feed(std::string_view bytes) {
  std::size_t i = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < bytes.size() && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\n' || bytes[i] == '\r')) ++i;
  return i < bytes.size() && bytes[i] == '{';
}

void parse_json_feed(std::string_view bytes, const std::string& name, const ParseOptions& options,
                     ParsedFeed& feed) {
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);
  ParsedFeed first = feed;
  std::exception_ptr refused;
  try {
    read_document(bytes, name, options, first);
  } catch (const FeedError&) {
    refused = std::current_exception();
  }
  // Most documents parse; one that failed may only hold bytes that are not
  // UTF-8, which nlohmann's lexer stops at: those are re-read and the
  // document parsed again.
  if (refused || !first.complete) {
    Utf8Repair utf8;
    if (utf8.first_bad(bytes, 0) < bytes.size()) {
      std::size_t count = 0;
      std::string repaired = utf8.repair(bytes, count);
      feed.warnings.push_back(name + ": not valid UTF-8; " + std::to_string(count) +
                              " byte(s) read as Windows-1252");
      read_document(repaired, name, options, feed);
      return;
    }
  }
  if (refused) std::rethrow_exception(refused);
  feed = std::move(first);
}

}  // namespace blogsearch
