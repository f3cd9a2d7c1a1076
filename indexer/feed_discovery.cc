// feed_discovery.cc: a URL -> a feed, through the page's alternates.
#include "indexer/feed_discovery.h"

#include <libxml/HTMLparser.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "indexer/snapshot.h"
#include "indexer/url.h"

namespace blogsearch {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string attr(xmlNode* node, const char* name) {
  xmlChar* v = xmlGetProp(node, reinterpret_cast<const xmlChar*>(name));
  if (!v) return {};
  std::string out(reinterpret_cast<const char*>(v));
  xmlFree(v);
  return out;
}

bool has_token(const std::string& list, const std::string& token) {
  std::size_t at = 0;
  const std::string l = lower(list);
  while (at < l.size()) {
    std::size_t b = l.find_first_not_of(" \t\r\n\f", at);
    if (b == std::string::npos) break;
    std::size_t e = l.find_first_of(" \t\r\n\f", b);
    if (l.compare(b, (e == std::string::npos ? l.size() : e) - b, token) == 0) return true;
    at = e == std::string::npos ? l.size() : e;
  }
  return false;
}

bool is_feed_type(std::string type) {
  type = lower(type.substr(0, type.find(';')));
  while (!type.empty() && std::isspace(static_cast<unsigned char>(type.back()))) type.pop_back();
  return type == "application/rss+xml" || type == "application/atom+xml" || type == "application/rdf+xml" ||
         type == "application/feed+json" || type == "application/json";
}

struct HtmlDocFree {
  void operator()(xmlDoc* doc) const { xmlFreeDoc(doc); }
};

void walk(xmlNode* node, std::string& base, std::vector<std::string>& links) {
  for (; node; node = node->next) {
    if (node->type != XML_ELEMENT_NODE) continue;
    const std::string name = lower(reinterpret_cast<const char*>(node->name));
    if (name == "base" && base.empty()) base = attr(node, "href");
    if (name == "link" && has_token(attr(node, "rel"), "alternate") && is_feed_type(attr(node, "type"))) {
      std::string href = attr(node, "href");
      if (!href.empty()) links.push_back(href);
    }
    walk(node->children, base, links);
  }
}

// One line for what a candidate answered.
std::string why_not(const FetchResponse& r) {
  if (!r.error.empty()) return r.error;
  if (r.status != 200) return "HTTP " + std::to_string(r.status);
  return "";
}

struct Tried {
  bool ok = false;
  ParsedFeed feed;
  std::string why;
};

Tried try_feed(const FetchResponse& r, const ParseOptions& parse) {
  Tried t;
  t.why = why_not(r);
  if (!t.why.empty()) return t;
  ParseOptions options = parse;
  options.base_url = r.final_url;
  options.http_charset = charset_of(r.content_type);
  try {
    t.feed = parse_feed(r.body, r.final_url, options);
    t.ok = true;
  } catch (const FeedError& e) {
    // The parser's message names the URL first; the caller names it too.
    t.why = e.what();
    const std::string named = r.final_url + ": ";
    if (t.why.compare(0, named.size(), named) == 0) t.why.erase(0, named.size());
  }
  return t;
}

DiscoveredFeed found(const std::string& requested, const FetchResponse& r, const Tried& t) {
  DiscoveredFeed d;
  d.url = r.permanent_redirect && !r.final_url.empty() ? r.final_url : requested;
  d.title = t.feed.title;
  d.format = t.feed.format;
  d.items = t.feed.posts.size();
  return d;
}

}  // namespace

std::vector<std::string> feed_links_in_html(const std::string& html, const std::string& page_url) {
  std::unique_ptr<xmlDoc, HtmlDocFree> doc(htmlReadMemory(
      html.data(), static_cast<int>(std::min<std::size_t>(html.size(), 1u << 30)), page_url.c_str(), nullptr,
      HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET | HTML_PARSE_COMPACT));
  std::vector<std::string> out;
  if (!doc) return out;
  std::string base;
  std::vector<std::string> links;
  walk(xmlDocGetRootElement(doc.get()), base, links);
  const std::string against = base.empty() ? page_url : resolve_url(base, page_url);
  for (const auto& href : links) {
    std::string url = resolve_url(href, against);
    if (std::find(out.begin(), out.end(), url) == out.end()) out.push_back(url);
  }
  return out;
}

DiscoveredFeed discover_feed(const std::string& url, const FetchOptions& fetch, const ParseOptions& parse) {
  const std::string scheme = url_scheme(url);
  if (scheme != "http" && scheme != "https") throw DiscoveryError(url + ": not an http(s) URL");
  FetchResponse page = std::move(fetch_all({{"", url, "", ""}}, fetch).front());
  Tried first = try_feed(page, parse);
  if (first.ok) return found(url, page, first);
  if (!why_not(page).empty()) throw DiscoveryError(url + ": " + first.why);

  const std::string page_url = page.final_url.empty() ? url : page.final_url;
  std::vector<std::string> alternates = feed_links_in_html(page.body, page_url);
  std::vector<std::string> rejected;
  // The page's own links first; the usual paths only when none is a feed.
  std::vector<std::string> named(alternates.begin(),
                                 alternates.begin() + static_cast<long>(std::min(alternates.size(), kMaxAlternates)));
  std::vector<std::string> usual;
  for (const char* path : {"/feed", "/rss.xml", "/atom.xml", "/index.xml", "/feed.json"}) {
    std::string candidate = resolve_url(path, page_url);
    if (candidate != url && candidate != page_url && std::find(named.begin(), named.end(), candidate) == named.end())
      usual.push_back(candidate);
  }
  for (const auto* round : {&named, &usual}) {
    std::vector<FetchRequest> requests;
    for (const auto& c : *round) {
      const std::string s = url_scheme(c);
      if (s == "http" || s == "https") requests.push_back({"", c, "", ""});
      else rejected.push_back(c + ": not an http(s) URL");
    }
    if (requests.empty()) continue;
    std::vector<FetchResponse> answers = fetch_all(requests, fetch);
    for (std::size_t i = 0; i < answers.size(); ++i) {
      Tried t = try_feed(answers[i], parse);
      if (t.ok) {
        DiscoveredFeed d = found(requests[i].url, answers[i], t);
        d.from_page = true;
        d.alternates = alternates;
        d.rejected = rejected;
        return d;
      }
      rejected.push_back(requests[i].url + ": " + t.why);
    }
  }
  std::string message = url + ": " + first.why;
  if (alternates.empty())
    message += ", and as a page it names no feed (no <link rel=\"alternate\"> of a feed type)";
  else if (alternates.size() == 1)
    message += ", and the one feed the page names does not parse";
  else
    message += ", and none of the " + std::to_string(alternates.size()) + " feeds the page names parses";
  message += "; tried: ";
  for (std::size_t i = 0; i < rejected.size(); ++i) message += (i ? "; " : "") + rejected[i];
  throw DiscoveryError(message);
}

}  // namespace blogsearch
