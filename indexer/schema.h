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
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/acronym_plural.h"
#include "common/fold.h"
#include "xxhash.h"

namespace blogsearch::schema {

// 2: the plain text moved from the JSON document data to kSlotText.
// 3: the facet terms of each post in kSlotFacets; the record (the JSON
//    object below) in kSlotRecord instead of the document data.
// 4: versions are changes of what the index shows; every version's content
//    and every appearance in the document data (record/post_history.h); the
//    record without the history; snapshots identified by feed, time and body.
// 5: each post stemmed in its language (kLanguage), stems of diacritic-folded
//    words (make_stemmer), folded copies of unstemmed words with diacritics,
//    author names and the feed title among the unprefixed words.
// 6: each post's duplicate key (kSlotDuplicateKey): copies of one post
//    under two links are shown once.
// 7: English stems of acronyms' plurals without their s ("llms" -> Zllm:
//    common/acronym_plural.h); a version number with a "v" indexed as its
//    number too ("v0.5.0" -> 0.5.0: common/version_word.h).
inline constexpr int kSchemaVersion = 7;

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
// The whole title, normalised (title_term below): a query that is a post's
// exact title ranks that post first. wdf 1, no position.
inline constexpr const char* kTitleExact = "XTITLE";
// The language a post was stemmed as: L + a code of kLanguages (Len, Lde).
inline constexpr const char* kLanguage = "L";

// Body words carry no prefix; stemmed forms get Xapian's "Z" prefix. Each
// post is stemmed in its language (the one its feed declares, else the one
// the indexer detects: indexer/language.h), after its diacritics are folded
// (make_stemmer). A post whose language is none of these is stemmed as
// kStemLanguage.
struct Language {
  const char* code;     // ISO 639-1, as feeds declare it (the L term's value)
  const char* stemmer;  // Xapian's name for its stemmer
};
inline constexpr Language kLanguages[] = {
    {"en", "english"}, {"de", "german"},   {"fr", "french"},     {"es", "spanish"},  {"it", "italian"},
    {"nl", "dutch"},   {"pt", "portuguese"}, {"sv", "swedish"},  {"da", "danish"},   {"no", "norwegian"},
    {"fi", "finnish"}, {"ru", "russian"},  {"hu", "hungarian"},  {"ro", "romanian"}, {"tr", "turkish"},
};
inline constexpr const char* kStemLanguage = "en";

// The kLanguages code of a declared language ("de-DE", "DE_at", "de" ->
// "de"; "nb" and "nn" -> "no"), "" when it is none of them.
inline std::string language_code(std::string_view declared) {
  std::string code;
  for (char c : declared) {
    if (c == '-' || c == '_') break;
    if (code.size() == 3) return {};
    code += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  if (code == "nb" || code == "nn") code = "no";
  for (const auto& l : kLanguages)
    if (code == l.code) return code;
  return {};
}

// Xapian's stemmer for `code` with diacritics folded first (common/fold.h):
// "Jürgen" and "jurgen" have one stem, on both sides. In English, the
// plural s of acronyms goes too ("LLMs" and "llm" meet: common/
// acronym_plural.h). Each call makes a stemmer of its own (copies of one
// share a reference count that is not atomic). An unknown code gives
// kStemLanguage's.
class FoldingStem : public Xapian::StemImplementation {
 public:
  explicit FoldingStem(const char* stemmer)
      : stem_(stemmer), english_(std::string_view(stemmer) == "english") {}
  std::string operator()(const std::string& word) override {
    std::string stem = fold::has_foldable(word) ? stem_(fold::fold(word)) : stem_(word);
    return english_ ? singular_of_acronym(std::move(stem)) : stem;
  }
  std::string get_description() const override { return "folded " + stem_.get_description(); }

 private:
  Xapian::Stem stem_;
  bool english_;
};
inline Xapian::Stem make_stemmer(std::string_view code) {
  const char* stemmer = "english";
  for (const auto& l : kLanguages)
    if (code == l.code) stemmer = l.stemmer;
  return Xapian::Stem(new FoldingStem(stemmer));
}

// ---- How a post's words are posted (issue 17 section 3) ------------------
// The choices measured in docs/benchmarks.md ("Cheaper postings"):
//   stem_cache      the indexer keeps one stemmer per language and thread
//                   with a cache of its stems (Xapian::Stem is slow per word)
//   compress_text   kSlotText zlib-compressed (record/stored_text.h)
//   trim_positions  no positions for the author words (A and unprefixed),
//                   the feed title's and the categories' words: only the
//                   body and the title (S and unprefixed) have them
//   stems_only      every word only as its Z stem, with positions
//                   (STEM_ALL_Z on both sides), instead of the word with
//                   positions and its stem without (STEM_SOME)
// Chosen: compress_text (by that study), and stem_cache since 2026-12-07
// (once the rest of an ingest got cheaper, Snowball was a tenth of its CPU
// and the cache saved 3-5%); the others cost quality.
struct PostingsLayout {
  bool stem_cache = true;
  bool compress_text = true;
  bool trim_positions = false;
  bool stems_only = false;
};
// The layout this build writes and searches. The environment variable
// BLOGSEARCH_POSTINGS_STUDY replaces it for tools/bench.d/postings_study.py
// only: "none", or a comma list of stem_cache, compress_text, trim_positions
// and stems_only (a database must be written and searched with the same
// value). Never throws except std::bad_alloc.
inline PostingsLayout read_postings_layout() {
  PostingsLayout l;
  const char* study = std::getenv("BLOGSEARCH_POSTINGS_STUDY");
  if (study == nullptr || *study == '\0') return l;
  l = PostingsLayout{false, false, false, false};
  const std::string v = std::string(",") + study + ",";
  l.stem_cache = v.find(",stem_cache,") != std::string::npos;
  l.compress_text = v.find(",compress_text,") != std::string::npos;
  l.trim_positions = v.find(",trim_positions,") != std::string::npos;
  l.stems_only = v.find(",stems_only,") != std::string::npos;
  return l;
}
inline const PostingsLayout& postings_layout() {
  static const PostingsLayout layout = read_postings_layout();
  return layout;
}

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
  kSlotContentHash = 4,  // 16 hex digits of XXH3-64 over the current version's content
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
  // The post's record (record/post_record.h): what a result shows. Glass
  // compresses document data with zlib but stores values as they are, and
  // every result of a search reads its record: inflating it took longer
  // than finding and parsing it. The document data holds the post's history
  // (record/post_history.h), which only `show` and the post page read.
  kSlotRecord = 7,
  // duplicate_key_value() of record/link_key.h duplicate_key() of the
  // post's link (else of its id) and title: posts that share it are copies
  // of one post (two feeds of one blog, one site at two addresses), and a
  // search shows the best of them only (Xapian's collapse key). Empty when
  // neither is a URL: never collapsed.
  kSlotDuplicateKey = 8,
};

// What kSlotDuplicateKey holds for a duplicate key: the 8 bytes of its
// XXH3-64, big-endian ("" for ""). A search's collapse keeps each key of
// its matches in a table: a key this short needs no allocation of its own,
// where the key itself (a link and a title) made collapsing a third of a
// search's instructions.
inline std::string duplicate_key_value(std::string_view key) {
  if (key.empty()) return {};
  const std::uint64_t h = XXH3_64bits(key.data(), key.size());
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(h >> (56 - 8 * i));
  return out;
}

// The hash a kSlotDuplicateKey value holds; nullopt for "" (no key) or a
// value of another length.
inline std::optional<std::uint64_t> duplicate_key_hash(std::string_view value) {
  if (value.size() != 8) return std::nullopt;
  std::uint64_t h = 0;
  for (unsigned char c : value) h = h << 8 | c;
  return h;
}

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
    {"site", kHost, true},        {"lang", kLanguage, true},
};

// ---- Database metadata keys -----------------------------------------------
inline constexpr const char* kMetaSchemaVersion = "schema_version";
// "feed:" + feed id -> JSON {id,title,url,link,last_ingest,latest_observed,...}
inline constexpr const char* kMetaFeedPrefix = "feed:";
// snapshot_key(feed, observed, body hash) -> the snapshot's archive file.
// One per snapshot ingested: a snapshot is its feed, observed time and body
// (a body that returns later, or that another feed also serves, is another
// snapshot), so ingesting the same one again is a no-op.
inline constexpr const char* kMetaSnapshotPrefix = "snapshot:";
// In every shard: the number of the writer's commit that last wrote it
// (decimal). The shards of a database commit one after another; a reader
// that finds them at different numbers opened them between two of those
// commits, and opens them again (query/shards.h).
inline constexpr const char* kMetaCommit = "commit";
// The number of posts that are copies of another (kSlotDuplicateKey: the
// posts that share a key, less one per key), decimal, in shard 0; the
// writer stores it at every commit that writes posts, kept up to date post
// by post (indexer/copy_count.h). A search collapses copies only where it is
// set and not "0": collapsing reads every match's key, which over 100,000
// generated posts makes a search for "the" 13% slower and counting all its
// matches 9 times slower (docs/schema.md).
inline constexpr const char* kMetaCopies = "copies";
// In every shard of a database whose document ids are interleaved (see
// interleaved_docids_value below): that value. A sharded database without
// it (written before ids were interleaved) has ids that repeat across
// shards; readers then take the slower path, and a rebuild interleaves it.
inline constexpr const char* kMetaDocids = "docids";

// ---- Post record (kSlotRecord) and history (document data) ----------------
// Their layouts and codecs are in record/post_record.h and
// record/post_history.h.

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

// The part of a snapshot's metadata key before its body hash: the feed and
// the observed time (11 digits, so keys sort by time within a feed).
inline std::string snapshot_key_prefix(std::string_view feed_id, std::int64_t observed) {
  std::string t = std::to_string(observed < 0 ? 0 : observed);
  if (t.size() < 11) t.insert(0, 11 - t.size(), '0');
  std::string key(kMetaSnapshotPrefix);
  key.append(feed_id).append("@").append(t).append("#");
  return key;
}
inline std::string snapshot_key(std::string_view feed_id, std::int64_t observed, std::string_view body_hash) {
  return snapshot_key_prefix(feed_id, observed).append(body_hash);
}

// The kTitleExact term of a title, or of a query typed as one: its words
// (runs of Xapian word characters), lowercased, one space apart, so that
// case, punctuation and quotes do not matter ("“Dark mode”!" is "dark
// mode"). "" when the text has no word.
inline std::string title_term(std::string_view title) {
  std::string key;
  bool in_word = false;
  for (Xapian::Utf8Iterator it(title.data(), title.size()); it != Xapian::Utf8Iterator(); ++it) {
    const unsigned ch = *it;
    if (!Xapian::Unicode::is_wordchar(ch)) {
      in_word = false;
      continue;
    }
    if (!in_word && !key.empty()) key += ' ';
    in_word = true;
    Xapian::Unicode::append_utf8(key, Xapian::Unicode::tolower(ch));
  }
  return key.empty() ? key : make_term(kTitleExact, key);
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

// The --db option's help, in every program and command: where
// resolve_db_path() and config.toml's `db` (user_config.h) look.
inline constexpr const char* kDbOptionHelp =
    "database directory (default: $BLOGSEARCH_DB, else db in config.toml, else "
    "$XDG_DATA_HOME/blogsearch/db, else ~/.local/share/blogsearch/db)";

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
// Beside it, a stub naming the live generation's spelling database, so that
// a read replica of it (xapian-replicate) has a name that outlives rebuilds.
inline constexpr const char* kSpellingStubFile = "SPELLINGDB";

// Beside them, one stub per shard ("SHARD-0" naming "gen-*/shard-0"), so
// that xapian-tcpsrv and xapian-replicate can serve a shard by a name that
// outlives rebuilds.
inline constexpr const char* kShardStubPrefix = "SHARD-";
// A generation's shards are the directories "shard-0" ... "shard-<K-1>".
inline constexpr const char* kShardDirPrefix = "shard-";

// The shard a post lives in, of `shards`: XXH3-64 (seed 0) of the post's id
// (the string its kId term is made from, before any hashing of long ids),
// modulo the number of shards. It depends on nothing but the id and K.
inline unsigned shard_of(std::string_view post_id, unsigned shards) {
  if (shards <= 1) return 0;
  return static_cast<unsigned>(XXH3_64bits(post_id.data(), post_id.size()) % shards);
}

// ---- Document ids across shards --------------------------------------------
// Xapian combines K shards by interleaving their ids: document d of shard s
// (0-based, in stub order) is document (d-1)*K + s + 1 of the whole. But a
// MatchSpy or KeyMaker is shown the id in its shard (Xapian 1.4), which is
// ambiguous when every shard counts 1, 2, 3... So the writer gives shard s
// only the ids d with (d-1) % K == s: 1+s, 1+s+K, 1+s+2K... Then an id in a
// shard names one document of the whole database, and its shard is
// (d-1) % K. (With K = 1 every id qualifies: a plain database.) Combined
// ids still must fit Xapian's 32 bits: about 2^32 / K^2 documents a shard.

// The id of the next document written to shard `shard` of `shards`, whose
// highest id so far is `last`: the smallest d > last with (d-1) % K ==
// shard. Throws Xapian::DatabaseError when no such id fits the combined ids.
inline Xapian::docid next_interleaved_docid(Xapian::docid last, unsigned shard, unsigned shards) {
  const std::uint64_t k = shards == 0 ? 1 : shards;
  std::uint64_t d = std::uint64_t{last} + 1;
  d += (shard + k - (d - 1) % k) % k;
  if ((d - 1) * k + shard + 1 > 0xffffffffu) throw Xapian::DatabaseError("no document ids left in shard " + std::to_string(shard));
  return static_cast<Xapian::docid>(d);
}

// The shard that holds the document whose id in its shard is `local`, in a
// database of `shards` interleaved shards.
inline unsigned shard_of_docid(Xapian::docid local, unsigned shards) {
  return shards <= 1 ? 0 : (local - 1) % shards;
}

// The combined id (what an MSet or Database::get_document of the whole
// uses) of the document whose id in its shard is `local`, in a database of
// `shards` interleaved shards.
inline Xapian::docid combined_docid(Xapian::docid local, unsigned shards) {
  if (shards <= 1) return local;
  return (local - 1) * shards + shard_of_docid(local, shards) + 1;
}

// kMetaDocids of shard `shard` of `shards` whose ids are interleaved.
inline std::string interleaved_docids_value(unsigned shard, unsigned shards) {
  return "interleaved " + std::to_string(shard) + "/" + std::to_string(shards);
}

// The shard and shard count a kMetaDocids value names; false when it is
// not one interleaved_docids_value wrote. Never throws (but bad_alloc).
inline bool read_interleaved_docids_value(const std::string& value, unsigned& shard, unsigned& shards) {
  const std::string head = "interleaved ";
  if (value.compare(0, head.size(), head) != 0) return false;
  const std::size_t slash = value.find('/', head.size());
  if (slash == std::string::npos) return false;
  const std::string n = value.substr(head.size(), slash - head.size()), k = value.substr(slash + 1);
  auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 6 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(n) || !digits(k)) return false;
  shard = static_cast<unsigned>(std::stoul(n));
  shards = static_cast<unsigned>(std::stoul(k));
  return shard < shards;
}

// Whether `db`, shard `shard` of `shards`, holds interleaved ids: it is
// marked so (kMetaDocids), and its first and last ids are its shard's. A
// shard compacted by `xapian-compact` without --no-renumber keeps the mark,
// but its ids are moved down to start at 1: then no longer its shard's
// (but in shard 0, whose ids do not move). Throws Xapian errors.
inline bool ids_interleaved(const Xapian::Database& db, unsigned shard, unsigned shards) {
  if (shards <= 1) return true;
  if (db.get_metadata(kMetaDocids) != interleaved_docids_value(shard, shards)) return false;
  if (db.get_doccount() == 0) return true;
  return shard_of_docid(*db.postlist_begin(""), shards) == shard && shard_of_docid(db.get_lastdocid(), shards) == shard;
}

// The generation the stub in `db_path` names ("auto gen-..." or, for a
// sharded database, "auto gen-.../shard-0" on its first line); "" when
// there is no stub or it names anything but a directory beside it. Never
// throws except std::bad_alloc.
inline std::string live_generation(const std::string& db_path) {
  std::ifstream stub(db_path + "/" + kStubFile);
  std::string kind, generation;
  if (!(stub >> kind >> generation) || kind != "auto") return {};
  if (const std::size_t slash = generation.find('/'); slash != std::string::npos) {
    if (generation.compare(slash + 1, std::string::npos, std::string(kShardDirPrefix) + "0") != 0) return {};
    generation.resize(slash);
  }
  if (generation.empty() || generation == "." || generation == "..") return {};
  return generation;
}

// Spelling data ("did you mean") is a glass database of its own in the
// subdirectory "spelling" of the live generation (one for all shards), so that it can be
// written by another thread than the documents. Databases written before it
// was moved hold their spelling data in the main database: readers use
// both. Returns the path for `db_path` (a database directory, or one
// generation).
// The second form is for a caller that has read the live generation.
inline std::string spelling_db_path(const std::string& db_path, const std::string& generation) {
  return db_path + (generation.empty() ? "" : "/" + generation) + "/spelling";
}
inline std::string spelling_db_path(const std::string& db_path) {
  return spelling_db_path(db_path, live_generation(db_path));
}

}  // namespace blogsearch::schema
