// opml.h: OPML 2.0 subscription lists, what feed readers import and export.
//
// A feed is an <outline> with an xmlUrl; an <outline> without one is a
// folder, and the folders around a feed become its category, outer to
// inner, joined by '/' ("Tech/Machine learning": feeds.toml's `category`).
//
// read_opml throws OpmlError (one line naming the file) when the text is
// not XML or not OPML; libxml2 reads it without network access or entity
// loading. write_opml never throws except std::bad_alloc.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "indexer/post.h"

namespace blogsearch {

class OpmlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct OpmlFeed {
  std::string title;     // title, else text
  std::string url;       // xmlUrl
  std::string site;      // htmlUrl, "" when none
  std::string category;  // folders outer to inner, joined by '/'
};

// Feeds in document order. `name` is used in messages.
std::vector<OpmlFeed> read_opml(const std::string& text, const std::string& name);

// An OPML 2.0 document: head (title, dateCreated at `now`) and body, with a
// folder outline for each category level, in the order the feeds come.
std::string write_opml(const std::vector<OpmlFeed>& feeds, const std::string& title, Time now);

}  // namespace blogsearch
