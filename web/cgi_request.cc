#include "web/cgi_request.h"

#include <uriparser/Uri.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <memory>

#include "common/utf8.h"
#include "web/escape.h"

namespace blogsearch::web {

namespace {

// Cuts `text` to at most `max` bytes without splitting a UTF-8 sequence.
std::string cut_utf8(const std::string& text, std::size_t max) { return std::string(utf8::truncate(text, max)); }

// A whole positive decimal number, or false. Values too big for unsigned
// saturate: they are clamped to the limit later anyway.
bool parse_count(const std::string& text, unsigned& out) {
  if (text.empty() || text.size() > 20) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  errno = 0;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  out = (errno == ERANGE || v > std::numeric_limits<unsigned>::max())
            ? std::numeric_limits<unsigned>::max()
            : static_cast<unsigned>(v);
  return true;
}

bool parse_format(const std::string& name, OutputFormat& out) {
  if (name == "html") out = OutputFormat::kHtml;
  else if (name == "json") out = OutputFormat::kJson;
  else if (name == "atom") out = OutputFormat::kAtom;
  else if (name == "opensearch") out = OutputFormat::kOpenSearch;
  else if (name == "css") out = OutputFormat::kStyle;
  else return false;
  return true;
}

struct QueryListDeleter {
  void operator()(UriQueryListA* list) const { uriFreeQueryListA(list); }
};

// Before every post: the start page and an empty Atom feed list all posts.
constexpr UnixTime kBeginningOfTime = -(UnixTime{1} << 40);

// The names of the parameters decode_query_string reads.
bool is_parameter(const std::string& key) {
  for (const char* name :
       {"q", "page", "n", "sort", "since", "until", "format", "v", "history", "post", "version", "diff"})
    if (key == name) return true;
  for (const FacetInfo& f : kFacetTable)
    if (!f.parameter.empty() && key == f.parameter) return true;
  return false;
}

// Why a decoded value cannot be a parameter's text, or nullptr.
const char* unusable_text(std::string_view value) {
  for (std::size_t i = 0; i < value.size();) {
    std::uint32_t cp = 0;
    const std::size_t len = utf8::decode(value, i, cp);
    if (len == 0) return "is not valid UTF-8 text";
    if (dropped_character(cp))
      return cp < 0xA0 ? "holds a control character" : "holds a noncharacter (U+FFFE or U+FFFF)";
    i += len;
  }
  return nullptr;
}

// uriparser decodes into C strings, where a "%00" would end the value
// unseen: it is read as "%01", another control character, refused alike.
std::string without_nul_escapes(std::string_view query_string) {
  std::string out(query_string);
  for (std::size_t at = 0; (at = out.find("%00", at)) != std::string::npos; at += 3) out[at + 2] = '1';
  return out;
}


}  // namespace

std::vector<std::string>* WebQuery::filter(FacetKind kind) {
  switch (kind) {
    case FacetKind::kCategory: return &categories;
    case FacetKind::kAuthor: return &authors;
    case FacetKind::kFeed: return &feeds;
    case FacetKind::kMonth: break;
  }
  return nullptr;
}

const std::vector<std::string>* WebQuery::filter(FacetKind kind) const {
  return const_cast<WebQuery*>(this)->filter(kind);
}

bool WebQuery::is_empty() const {
  for (char c : q)
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return false;
  return !has_filters();
}

const char* format_name(OutputFormat format) {
  switch (format) {
    case OutputFormat::kJson: return "json";
    case OutputFormat::kAtom: return "atom";
    case OutputFormat::kOpenSearch: return "opensearch";
    case OutputFormat::kStyle: return "css";
    case OutputFormat::kHtml: break;
  }
  return "html";
}

Method parse_method(std::string_view method) {
  if (method == "GET") return Method::kGet;
  if (method == "HEAD") return Method::kHead;
  return Method::kOther;
}

DecodedRequest decode_query_string(std::string_view query_string, const RequestLimits& limits) {
  DecodedRequest out;
  WebQuery& w = out.query;
  w.n = limits.default_per_page;
  if (query_string.empty()) return out;

  const std::string text = without_nul_escapes(query_string);
  UriQueryListA* raw = nullptr;
  int count = 0;
  if (uriDissectQueryMallocExA(&raw, &count, text.data(), text.data() + text.size(), URI_TRUE,
                               URI_BR_DONT_TOUCH) != URI_SUCCESS) {
    out.error = "the query string cannot be read";
    return out;
  }
  std::unique_ptr<UriQueryListA, QueryListDeleter> list(raw);

  bool seen_q = false, seen_page = false, seen_n = false, seen_sort = false, seen_since = false,
       seen_until = false, seen_format = false, seen_v = false, seen_history = false, seen_post = false,
       seen_version = false, seen_diff = false;
  bool cut_values = false;
  std::size_t filter_bytes = 0;
  auto add_value = [&](std::vector<std::string>& values, std::string v) {
    if (v.empty()) return;
    if (values.size() >= limits.max_values || filter_bytes + v.size() > limits.max_filter_bytes) {
      cut_values = true;
      return;
    }
    filter_bytes += v.size();
    values.push_back(std::move(v));
  };
  for (const UriQueryListA* item = list.get(); item; item = item->next) {
    if (!item->key) continue;
    const std::string key = item->key;
    if (!is_parameter(key)) continue;
    if (key == "post") out.names_post = true;
    std::string value = item->value ? item->value : "";
    if (const char* why = unusable_text(value)) {
      out.error = key + " " + why;
      continue;
    }
    if (key == "q" && !seen_q) {
      seen_q = true;
      if (value.size() > limits.max_query_bytes) {
        value = cut_utf8(value, limits.max_query_bytes);
        out.notices.push_back("The query was too long and was cut to " +
                              std::to_string(limits.max_query_bytes) + " bytes.");
      }
      w.q = std::move(value);
    } else if (key == "page" && !seen_page) {
      seen_page = true;
      if (value.empty()) continue;
      unsigned page = 0;
      if (!parse_count(value, page)) {
        out.error = "page must be a whole number from 1";
        continue;
      }
      if (page > limits.max_page) out.notices.push_back("Only the first " + std::to_string(limits.max_page) + " pages can be shown.");
      if (page == 0) out.notices.push_back("Pages are numbered from 1: showing page 1.");
      w.page = std::max(1u, std::min(page, limits.max_page));
    } else if (key == "n" && !seen_n) {
      seen_n = true;
      if (value.empty()) continue;
      unsigned n = 0;
      if (!parse_count(value, n)) {
        out.error = "n (results per page) must be a whole number from 1 to " +
                    std::to_string(limits.max_per_page);
        continue;
      }
      w.n = std::max(1u, std::min(n, limits.max_per_page));
      if (w.n != n)
        out.notices.push_back("Results per page go from 1 to " + std::to_string(limits.max_per_page) + ": showing " +
                              std::to_string(w.n) + ".");
    } else if (key == "sort" && !seen_sort) {
      seen_sort = true;
      if (value.empty()) continue;
      if (!parse_sort_order(value)) {
        out.error = "sort must be relevance, date or recent";
        continue;
      }
      w.sort = value;
    } else if (key == "since" && !seen_since) {
      seen_since = true;
      w.since = cut_utf8(value, 64);
    } else if (key == "until" && !seen_until) {
      seen_until = true;
      w.until = cut_utf8(value, 64);
    } else if (key == "format" && !seen_format) {
      seen_format = true;
      if (value.empty()) continue;
      if (!parse_format(value, w.format)) out.error = "format must be html, json, atom or opensearch";
    } else if (key == "v" && !seen_v) {
      seen_v = true;
      w.style_hash = cut_utf8(value, 64);
    } else if (key == "history" && !seen_history) {
      seen_history = true;
      if (value == "1") w.history = true;
      else if (!value.empty() && value != "0") out.error = "history must be 1 or 0";
    } else if (key == "post" && !seen_post) {
      seen_post = true;
      // Ids are terms (at most 245 bytes) but links may be longer; a longer
      // value cannot name a post, and is not copied whole into the page.
      if (value.size() > kMaxPostParameter) out.error = "post is too long to name a post";
      else w.post = std::move(value);
    } else if (key == "version" && !seen_version) {
      seen_version = true;
      if (value.empty()) continue;
      if (!parse_count(value, w.version) || w.version == 0) out.error = "version must be a whole number from 1";
    } else if (key == "diff" && !seen_diff) {
      seen_diff = true;
      if (value.empty()) continue;
      const std::size_t dash = value.find('-');
      if (dash == std::string::npos || !parse_count(value.substr(0, dash), w.diff_from) ||
          !parse_count(value.substr(dash + 1), w.diff_to) || w.diff_from == 0 || w.diff_to == 0)
        out.error = "diff must be two version numbers, as in diff=1-2";
    } else {
      for (const FacetInfo& f : kFacetTable)
        if (!f.parameter.empty() && key == f.parameter) add_value(*w.filter(f.kind), std::move(value));
    }
  }
  if (cut_values)
    out.notices.push_back("Only the first " + std::to_string(limits.max_values) + " values of each filter, " +
                          std::to_string(limits.max_filter_bytes) + " bytes in all, were used.");
  return out;
}

namespace {

// The parameters of a query string, in its order: the filters in the
// order of kFacetTable.
enum Group { kQ, kCategory, kAuthor, kFeed, kSince, kUntil, kRest, kGroups };
static_assert(static_cast<int>(FacetKind::kCategory) == kCategory - 1 &&
              static_cast<int>(FacetKind::kAuthor) == kAuthor - 1 && static_cast<int>(FacetKind::kFeed) == kFeed - 1);
Group group_of(FacetKind kind) { return static_cast<Group>(static_cast<int>(kind) + 1); }

// Calls f(group, key, value) for each parameter of `w` that a query string
// carries, in its order: q, category, author, feed, since, until, then
// sort, n, page and format; parameters at their default value are left
// out, so links stay short.
template <typename F>
void for_each_parameter(const WebQuery& w, bool with_page, F f) {
  if (!w.q.empty()) f(kQ, "q", w.q);
  for (const FacetInfo& facet : kFacetTable)
    if (const auto* values = w.filter(facet.kind))
      for (const auto& v : *values) f(group_of(facet.kind), facet.parameter, v);
  if (!w.since.empty()) f(kSince, "since", w.since);
  if (!w.until.empty()) f(kUntil, "until", w.until);
  if (w.sort != "relevance") f(kRest, "sort", w.sort);
  if (w.n != RequestLimits{}.default_per_page) f(kRest, "n", std::to_string(w.n));
  if (with_page && w.page > 1) f(kRest, "page", std::to_string(w.page));
  if (w.format != OutputFormat::kHtml) f(kRest, "format", std::string(format_name(w.format)));
  if (w.history) f(kRest, "history", std::string("1"));
  if (!w.post.empty()) f(kRest, "post", w.post);
  if (w.version) f(kRest, "version", std::to_string(w.version));
  if (w.diff_from) f(kRest, "diff", std::to_string(w.diff_from) + "-" + std::to_string(w.diff_to));
}

}  // namespace

std::string to_query_string(const WebQuery& w, std::string_view separator) {
  std::string out;
  for_each_parameter(w, true, [&out, separator](Group, std::string_view key, const std::string& value) {
    if (!out.empty()) out += separator;
    out += key;
    out += '=';
    append_url_component(out, value);
  });
  return out;
}

Refinements::Refinements(const WebQuery& w, std::string_view separator) : query_(w), separator_(separator) {
  std::array<std::vector<std::string>, kGroups> parts;  // "key=value", encoded
  for_each_parameter(w, false, [&parts](Group group, std::string_view key, const std::string& value) {
    parts[group].push_back(std::string(key) + "=" + url_component(value));
  });
  auto join = [&](int first, int last) {
    std::string joined;
    for (int g = first; g <= last; ++g)
      for (const auto& p : parts[g]) {
        if (!joined.empty()) joined += separator;
        joined += p;
      }
    return joined;
  };
  category_ = {join(kQ, kCategory), join(kAuthor, kRest)};
  author_ = {join(kQ, kAuthor), join(kFeed, kRest)};
  feed_ = {join(kQ, kFeed), join(kSince, kRest)};
  month_ = {join(kQ, kFeed), join(kRest, kRest)};
  all_ = join(kQ, kRest);
}

void Refinements::append_query_string(std::string& out, FacetKind facet, const std::string& value) const {
  const std::size_t start = out.size();
  auto separate = [&] {
    if (out.size() > start) out += separator_;
  };
  auto insert = [&](const Cut& cut, std::initializer_list<std::string_view> keys) {
    out += cut.before;
    for (std::string_view key : keys) {
      separate();
      out += key;
      out += '=';
      append_url_component(out, value);
    }
    if (!cut.after.empty()) {
      separate();
      out += cut.after;
    }
  };
  const std::vector<std::string>* list = query_.filter(facet);
  if (!list) {
    insert(month_, {"since", "until"});
    return;
  }
  const Cut& cut = facet == FacetKind::kCategory ? category_ : facet == FacetKind::kAuthor ? author_ : feed_;
  if (std::find(list->begin(), list->end(), value) == list->end()) insert(cut, {facet_info(facet).parameter});
  else out += all_;
}

SearchRequest to_search_request(const WebQuery& w, UnixTime now) {
  SearchRequest r;
  r.query.text = w.q;
  r.query.filters.categories = w.categories;
  r.query.filters.authors = w.authors;
  r.query.filters.feeds = w.feeds;
  if (!w.since.empty()) r.query.filters.since = parse_time_option("since", w.since, false, now);
  if (!w.until.empty()) r.query.filters.until = parse_time_option("until", w.until, true, now);
  r.sort = *parse_sort_order(w.sort);
  if (w.is_empty()) {
    r.query.filters.since = kBeginningOfTime;
    r.sort = SortOrder::kDate;
  }
  r.limit = w.n;
  r.offset = (w.page - 1) * w.n;
  r.with_history = w.history && w.format == OutputFormat::kJson;
  return r;
}

}  // namespace blogsearch::web
