// schema.h: THE one definition of how blogsearch lays posts out in Xapian.
//
// Every term prefix, value slot, metadata key and the layout of the post
// record is defined here and only here. The writer (indexer/) and the
// searcher (query/) both include this header; query/ includes nothing else
// from indexer/.
// docs/schema.md mirrors the tables below: change both together and bump
// kSchemaVersion when a change makes old databases unreadable.
//
// Nothing here throws except std::bad_alloc.
#pragma once

#include <xapian.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "xxhash.h"

namespace blogsearch::schema {

// 2: the plain text moved from the JSON document data to kSlotText.
// 3: the facet terms of each post in kSlotFacets; the record (the JSON
//    object below) in kSlotRecord instead of the document data.
inline constexpr int kSchemaVersion = 3;

// ---- Term prefixes (Omega's conventions where Omega has one) --------------
inline constexpr const char* kId = "Q";               // unique post id (boolean)
inline constexpr const char* kTitle = "S";            // title words (free text)
inline constexpr const char* kAuthor = "A";           // author words (free text)
inline constexpr const char* kAuthorExact = "XAUTHOR";  // lowercased full name
inline constexpr const char* kCategory = "K";         // lowercased label
inline constexpr const char* kFeed = "XFEED";         // feed id
inline constexpr const char* kHost = "H";             // host of the post link
inline constexpr const char* kDay = "D";              // D20260902
inline constexpr const char* kMonth = "M";            // M202609
inline constexpr const char* kYear = "Y";             // Y2026
inline constexpr const char* kInFeed = "XINFEED";     // XINFEEDyes / XINFEEDno

// Body words carry no prefix; stemmed forms get Xapian's "Z" prefix.
inline constexpr const char* kStemLanguage = "english";

// Title words are indexed twice: under S and unprefixed with this extra
// within-document frequency, so a title match outranks a body match.
inline constexpr unsigned kTitleWeight = 5;

// ---- Value slots ----------------------------------------------------------
// Times are Xapian::sortable_serialise(unix seconds, UTC).
enum Slot : Xapian::valueno {
  kSlotPublished = 0,  // published, else updated, else first seen
  kSlotUpdated = 1,
  kSlotFirstSeen = 2,
  kSlotLastSeen = 3,
  kSlotContentHash = 4,  // 16 hex digits of XXH3-64 over the item's content
  // The post's plain text, for snippets and `show`. Kept out of the JSON
  // record so that reading a result's fields does not scan the whole text:
  // that was a fifth of a search's instructions.
  kSlotText = 5,
  // The post's facet terms (kCategory, kMonth, kAuthorExact and kFeed) in
  // term order, each with its label: a byte holding the term's length (at
  // most kMaxTermBytes), the term, a byte holding the label's length, the
  // label. The label is the category or author as the feed wrote it; it is
  // empty for feeds and months, and for a label over 255 bytes.
  // facet_value() makes it, for_each_facet_term() reads it. Counting the
  // facets of a search's matches reads this one value per match instead of
  // a posting list per category, author, feed and month, and shows each
  // label as a matching post wrote it without reading that post.
  kSlotFacets = 6,
  // The post's record, the JSON object described under "Post record" below.
  // Glass compresses document data with zlib but stores values as they are,
  // and every result of a search reads its record: inflating it took longer
  // than finding and parsing it. The document data is left empty.
  kSlotRecord = 7,
};

// The prefixes whose terms kSlotFacets holds.
inline constexpr const char* kFacetPrefixes[] = {kCategory, kMonth, kAuthorExact, kFeed};

// ---- Query-parser field names -> prefixes ---------------------------------
struct FieldPrefix {
  const char* field;   // what the user types before the colon
  const char* prefix;  // term prefix
  bool boolean;        // filter (exact value) rather than free text
};
inline constexpr FieldPrefix kFieldPrefixes[] = {
    {"title", kTitle, false},     {"author", kAuthor, false},
    {"category", kCategory, true}, {"feed", kFeed, true},
    {"site", kHost, true},
};

// ---- Database metadata keys -----------------------------------------------
inline constexpr const char* kMetaSchemaVersion = "schema_version";
// "feed:" + feed id -> JSON {id,title,url,link,last_ingest,latest_observed,...}
inline constexpr const char* kMetaFeedPrefix = "feed:";
// "snapshot:" + hex body hash -> RFC 3339 time it was ingested.
inline constexpr const char* kMetaSnapshotPrefix = "snapshot:";

// ---- Post record (kSlotRecord) ---------------------------------------------
// One JSON object (nlohmann-json) per document:
//   id, link, title            strings
//   authors[], categories[]    strings, as written in the feed
//   feed {id, title, url}      the feed that last carried the post
//   feeds[]                    every feed id that ever carried it
//   published, updated         RFC 3339 UTC strings or null
//   first_seen, last_seen      RFC 3339 UTC strings (observed snapshot times)
//   versions                   number of distinct contents seen (>= 1)
//   in_feed                    true while the feed's newest snapshot has it
//   summary                    plain text of the description/summary, cut
//                              at a word to at most 600 bytes + "…"
//   content_hash               hex XXH3-64 of the current version
//   snapshot                   archive file holding the current version
//   history[]                  earlier versions: {content_hash, first_seen,
//                              last_seen, snapshot}, oldest first

// Xapian refuses terms longer than 245 bytes.
inline constexpr std::size_t kMaxTermBytes = 245;

// A feed id is a term (XFEED + id, with room for the other feed terms) and
// a metadata key: ids are validated against this bound before anything is
// written (feeds.toml, --feed), and folder names are shortened to it.
inline constexpr std::size_t kMaxFeedIdBytes = 100;

inline std::string hex64(std::uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = digits[v & 15];
  return out;
}

// A term of `prefix` + `value`; values too long for Xapian are replaced by
// "#" + a 128-bit hash so the term stays unique and within the limit.
inline std::string make_term(std::string_view prefix, std::string_view value) {
  std::string term(prefix);
  if (prefix.size() + value.size() <= kMaxTermBytes) {
    term.append(value);
  } else {
    XXH128_hash_t h = XXH3_128bits(value.data(), value.size());
    term += '#';
    term += hex64(h.high64);
    term += hex64(h.low64);
  }
  return term;
}

// Exact-match terms (author, category, feed, host) are case-insensitive.
inline std::string lowercase_utf8(std::string_view s) {
  return Xapian::Unicode::tolower(std::string(s));
}

inline std::string id_term(std::string_view post_id) { return make_term(kId, post_id); }
inline std::string exact_term(std::string_view prefix, std::string_view value) {
  return make_term(prefix, lowercase_utf8(value));
}

// The kSlotFacets value of a document: its terms with a facet prefix, the
// kCategory and kAuthorExact ones labelled with the first of `categories`
// and `authors` (as the feed wrote them) that makes the term.
inline std::string facet_value(const Xapian::Document& doc, const std::vector<std::string>& authors,
                               const std::vector<std::string>& categories) {
  std::map<std::string, std::string_view> labels;
  for (const auto& a : authors) labels.emplace(exact_term(kAuthorExact, a), a);
  for (const auto& c : categories) labels.emplace(exact_term(kCategory, c), c);
  std::string value;
  for (std::string_view prefix : kFacetPrefixes) {
    Xapian::TermIterator t = doc.termlist_begin();
    for (t.skip_to(std::string(prefix)); t != doc.termlist_end(); ++t) {
      const std::string term = *t;
      if (term.compare(0, prefix.size(), prefix) != 0) break;
      if (term.size() > kMaxTermBytes) continue;  // Xapian refuses these anyway
      auto label = labels.find(term);
      // A K term no shown category makes is an Atom category's term
      // (Post::category_terms): it filters, but is not a facet of its own.
      if (prefix == kCategory && label == labels.end()) continue;
      const std::string_view text = label == labels.end() || label->second.size() > 255 ? "" : label->second;
      value += static_cast<char>(term.size());
      value += term;
      value += static_cast<char>(text.size());
      value += text;
    }
  }
  return value;
}

// Calls f(std::string_view term, std::string_view label) for each term of
// a kSlotFacets value; stops at a length that runs past the end (a damaged
// value).
template <typename F>
void for_each_facet_term(std::string_view value, F f) {
  while (!value.empty()) {
    const std::size_t n = static_cast<unsigned char>(value[0]);
    if (n + 2 > value.size()) return;
    const std::size_t m = static_cast<unsigned char>(value[n + 1]);
    if (n + 2 + m > value.size()) return;
    f(value.substr(1, n), value.substr(n + 2, m));
    value.remove_prefix(n + 2 + m);
  }
}

// Where the database lives: --db, else $BLOGSEARCH_DB, else
// $XDG_DATA_HOME/blogsearch/db, else ~/.local/share/blogsearch/db.
inline std::string resolve_db_path(const std::string& from_option) {
  if (!from_option.empty()) return from_option;
  if (const char* env = std::getenv("BLOGSEARCH_DB"); env && *env) return env;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
    return std::string(xdg) + "/blogsearch/db";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.local/share/blogsearch/db";
}

// What both programs say of a database Xapian finds corrupt (`detail` is
// Xapian's message): it is damaged, and the archive is how it comes back.
inline std::string damaged_database_message(const std::string& db_path, const std::string& detail) {
  return "the database at " + db_path + " is damaged (" + detail +
         "); rebuild it from the snapshot archive: blogsearch-index rebuild --db " + db_path;
}

// A database directory's stub file (db_layout.h) names its live generation.
inline constexpr const char* kStubFile = "XAPIANDB";

// The generation the stub in `db_path` names ("auto gen-..."); "" when there
// is no stub or it names anything but a directory beside it. Never throws
// except std::bad_alloc.
inline std::string live_generation(const std::string& db_path) {
  std::ifstream stub(db_path + "/" + kStubFile);
  std::string kind, generation;
  if (stub >> kind >> generation && kind == "auto" && generation.find('/') == std::string::npos &&
      generation != "." && generation != "..")
    return generation;
  return {};
}

// Spelling data ("did you mean") is a glass database of its own in the
// subdirectory "spelling" of the live database directory, so that it can be
// written by another thread than the documents. Databases written before it
// was moved hold their spelling data in the main database: readers use
// both. Returns the path for `db_path` (a database directory, or one
// generation).
inline std::string spelling_db_path(const std::string& db_path) {
  const std::string generation = live_generation(db_path);
  return db_path + (generation.empty() ? "" : "/" + generation) + "/spelling";
}

}  // namespace blogsearch::schema
