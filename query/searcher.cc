#include "query/searcher.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <system_error>
#include <thread>

#include "common/utf8.h"
#include "indexer/schema.h"
#include "query/doc_cache.h"
#include "query/facets.h"
#include "query/filter_check.h"
#include "record/link_key.h"
#include "query/snippet.h"
#include "query/revision_tables.h"
#include "query/shard_match.h"
#include "query/sort_keys.h"

namespace blogsearch {

namespace {

// Below this many matches a query may be misspelt (see search_once).
constexpr Xapian::doccount kFewMatches = 20;
// A word in no post, or in at most this many, may be a typo (one in two
// posts, "htmx", "zed", is a word); a correction of a word in some posts
// must be in kCorrectionFactor times as many.
constexpr Xapian::doccount kRareWord = 1;
constexpr Xapian::doccount kCorrectionFactor = 20;

// Matches are counted exactly up to this many (Enquire's check_at_least).
constexpr Xapian::doccount kExactCountBound = 1000;

// A reindex that commits twice while we read makes Xapian throw
// DatabaseModifiedError; a few retries always get a consistent revision.
constexpr int kMaxRetries = 5;
// A query that is a pasted link whose host has more posts than this finds
// its post by the id term only: the look-up through the host's posts
// reads each one's record, and a request must not read a host's hundred
// thousand. Over remote shards each record is a round trip.
constexpr Xapian::doccount kPastedLinkHostPosts = 5000;
constexpr Xapian::doccount kPastedLinkHostPostsRemote = 50;

// "recent": the boost a post gets halves every kHalfLifeDays of age,
// counted back from the newest post in the database (not from today, so an
// archive of last year's posts still ranks its newest first). The boost
// of the newest post is this share of the best BM25 weight.
constexpr double kHalfLifeDays = 90;
constexpr double kRecencyShare = 0.5;

std::vector<std::string> split_spaces(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t b = s.find_first_not_of(" \t\n", i);
    if (b == std::string::npos) break;
    const std::size_t e = std::min(s.find_first_of(" \t\n", b), s.size());
    out.push_back(s.substr(b, e - b));
    i = e;
  }
  return out;
}

// The word of a query token: without +/-, a field name or quotes.
std::string word_of(const std::string& token) {
  std::string w = token;
  if (auto colon = w.rfind(':'); colon != std::string::npos) w.erase(0, colon + 1);
  while (!w.empty() && (w[0] == '+' || w[0] == '-' || w[0] == '"' || w[0] == '(')) w.erase(0, 1);
  while (!w.empty() && (w.back() == '"' || w.back() == ')')) w.pop_back();
  return schema::lowercase_utf8(w);
}

// A word of at most this many letters is corrected only to a word one edit
// away: Xapian allows two for any word, which makes "diff" "def" (half of a
// short word is no typo).
constexpr std::size_t kShortWord = 4;

// Xapian's correction of `typed` keeping only the words worth correcting:
// a word in at most kRareWord posts replaced by one in many times as many
// ("wasm", in 15 posts, is not "was"; "pytroch", in none, is "pytorch"),
// and for a short word, one edit away. Counts are of the word as typed
// (its unstemmed term); `spelling` is the database with the spelling data.
// "" when no word is left corrected.
std::string confident_correction(const Xapian::Database& db, const Xapian::Database& spelling,
                                 const std::string& typed, const std::string& corrected) {
  const std::vector<std::string> from = split_spaces(typed), to = split_spaces(corrected);
  if (from.size() != to.size()) return {};
  std::string out;
  bool changed = false;
  for (std::size_t i = 0; i < from.size(); ++i) {
    const std::string a = word_of(from[i]), b = word_of(to[i]);
    bool take = false;
    if (a != b && !a.empty() && !b.empty()) {
      const Xapian::doccount fa = db.get_termfreq(a), fb = db.get_termfreq(b);
      take = fa <= kRareWord && fb >= std::max<Xapian::doccount>(1, kCorrectionFactor * fa) &&
             (utf8::count_chars(a) > kShortWord || spelling.get_spelling_suggestion(a, 1) == b);
    }
    changed = changed || take;
    out += (i ? " " : "") + (take ? to[i] : from[i]);
  }
  return changed ? out : std::string();
}

std::string create_hint(const std::string& path) {
  return "create it with: blogsearch-index add --db " + path + " data/";
}

class RecencySource : public Xapian::ValuePostingSource {
 public:
  RecencySource(double max_boost, double reference)
      : Xapian::ValuePostingSource(schema::kSlotPublished),
        max_boost_(max_boost),
        reference_(reference) {}

  void init(const Xapian::Database& database) override {
    Xapian::ValuePostingSource::init(database);
    set_maxweight(max_boost_);
  }

  double get_weight() const override {
    double published = Xapian::sortable_unserialise(get_value());
    double age_days = std::max(0.0, reference_ - published) / 86400.0;
    return max_boost_ * std::exp2(-age_days / kHalfLifeDays);
  }

  RecencySource* clone() const override { return new RecencySource(max_boost_, reference_); }
  std::string name() const override { return "blogsearch::RecencySource"; }

 private:
  double max_boost_;
  double reference_;
};

}  // namespace

std::optional<SortOrder> parse_sort_order(const std::string& name) {
  if (name == "relevance") return SortOrder::kRelevance;
  if (name == "date") return SortOrder::kDate;
  if (name == "recent") return SortOrder::kRecent;
  return std::nullopt;
}

const char* sort_order_name(SortOrder order) {
  switch (order) {
    case SortOrder::kDate: return "date";
    case SortOrder::kRecent: return "recent";
    case SortOrder::kRelevance: break;
  }
  return "relevance";
}

namespace {

// The local shards of `set` opened a second time and combined, when each
// is at the revision `set` holds; nullopt when a commit came between the
// two opens, a shard cannot be opened again, or a shard is remote.
std::optional<Xapian::Database> open_again(const ShardSet& set) {
  if (set.remote) return std::nullopt;
  try {
    Xapian::Database all;
    for (std::size_t i = 0; i < set.shards.size(); ++i) {
      Xapian::Database shard(set.names[i]);
      if (shard.get_revision() != set.shards[i].get_revision()) return std::nullopt;
      all.add_database(shard);
    }
    return all;
  } catch (const Xapian::Error&) {
    return std::nullopt;
  }
}

// For the match by shard: a handle of its own on each shard but the first
// (the searcher's own is that one's), at the revision of `set`; none when
// one of them could not be had at it.
std::vector<Xapian::Database> open_handles(const ShardSet& set) {
  std::vector<Xapian::Database> handles;
  try {
    for (std::size_t i = 1; i < set.shards.size(); ++i) {
      Xapian::Database shard(set.names[i]);
      if (shard.get_revision() != set.shards[i].get_revision()) return {};
      handles.push_back(std::move(shard));
    }
  } catch (const Xapian::Error&) {
    return {};
  }
  return handles;
}

// Counts the facets of the matches of queries[i] in shard i (`first`,
// then `others`), at most `check` a shard and weighed by nothing, into
// spies[i], each shard on a thread of its own (run_by_shard).
void count_apart(const Xapian::Database& first, const std::vector<Xapian::Database>& others,
                 const std::vector<Xapian::Query>& queries, std::vector<std::unique_ptr<FacetSpy>>& spies,
                 Xapian::doccount check, double time_limit, const HelperHooks& hooks) {
  run_by_shard(
      spies.size(),
      [&](std::size_t i) {
        const Xapian::Database& shard = i == 0 ? first : others[i - 1];
        Xapian::Enquire pass(shard);
        pass.set_weighting_scheme(CountingWeight());
        pass.set_query(queries[i]);
        pass.add_matchspy(spies[i].get());
        if (time_limit > 0) pass.set_time_limit(time_limit);
        pass.get_mset(0, 0, check);
        spies[i]->tally(shard);
      },
      hooks);
}

}  // namespace

// Over remote shards nothing is kept that reads every document (sort keys,
// the facet table): each read would be a round trip to a shard, and
// xapian-tcpsrv runs no KeyMaker of ours anyway. Over several local shards
// they are kept only when the shards' document ids are distinct
// (interleaved, shards.h): Xapian 1.4 shows a KeyMaker and a MatchSpy the
// document's id in its shard, which the tables are by. (One remote shard
// keeps its facet table, read once per revision, as before.)
// The two per-post tables are immutable once made: with
// SearcherOptions::tables the searchers of a process share them (local
// shards only).
struct Searcher::Kept {
  Kept(const ShardSet& set, std::size_t bytes, RevisionTables* shared)
      : docs(bytes),
        builder(set.all),
        tables(shared),
        revision(shared && set.distinct_docids ? revision_key(set.shards) : ""),
        facet_table(!set.remote && (set.distinct_docids || set.shards.size() == 1)) {
    if (!set.distinct_docids) return;
    auto make = [&set] { return std::make_shared<const PublishedKeys>(set.shards); };
    keys = tables ? tables->keys(revision, make) : make();
  }
  DocCache docs;
  std::shared_ptr<const PublishedKeys> keys;
  QueryBuilder builder;
  RevisionTables* tables;
  std::string revision;  // revision_key of the shards, "" when not shared
  std::shared_ptr<const FacetTable> facets;  // made (or shared) at the first search with facets
  bool facet_table;  // `facets` may be made
  // The second handle for SampleBeside, opened at the first search that
  // wants it; null when it could not be had at this revision.
  Xapian::Database* second_handle(const ShardSet& set) {
    if (!second_tried) second = open_again(set);
    second_tried = true;
    return second ? &*second : nullptr;
  }
  std::optional<Xapian::Database> second;
  bool second_tried = false;
  // The handles of the match by shard (shard_match.h) beyond db_, opened at
  // the first search that splits; empty when they could not be had at
  // this revision.
  const std::vector<Xapian::Database>& match_handles(const ShardSet& set) {
    if (!match_handles_tried) match_handles_ = open_handles(set);
    match_handles_tried = true;
    return match_handles_;
  }
  std::vector<Xapian::Database> match_handles_;
  bool match_handles_tried = false;
};

Searcher::Kept* Searcher::kept() {
  if (options_.cache_bytes == 0) return nullptr;
  if (!kept_) kept_ = std::make_unique<Kept>(shards_, options_.cache_bytes, options_.tables.get());
  return kept_.get();
}

namespace {

// A KeyMaker for Enquire, which takes a non-const pointer but only calls
// the const operator(); the keys are not release()d, so Xapian keeps no
// count of them (its opt_intrusive_ptr counts only released objects) and
// searchers on several threads may sort by the same keys.
Xapian::KeyMaker* sorter(const std::shared_ptr<const PublishedKeys>& keys) {
  return const_cast<PublishedKeys*>(keys.get());
}

// The facets' sample (search_once), counted on a thread of its own while
// the match runs, when Xapian's estimate before the match already says
// the matches are past the bound: over a million posts the sample took as
// long as the match (10,000 phrase checks for a phrase). The thread has
// its own handle on the shards (Kept::second_handle, the same revision)
// and its own copy of the query: Xapian's objects are not shared between
// threads. Its counts are used only when the match then asks for the same
// sample (stride); otherwise they are dropped and the sample counted after
// the match, as without it, so that results never depend on it.
struct SampleBeside {
  unsigned stride = 0;  // 0: not started
  std::unique_ptr<FacetSpy> spy;
  bool cut = false;  // stopped by the time limit
  std::future<void> done;  // declared last: its destructor waits for the thread

  // `copy` must share no part with any query this thread keeps (Xapian
  // counts references to a query's parts without atomics): this thread
  // lets go of it before the other starts.
  void start(Xapian::Database& second, Xapian::Query copy, unsigned sample_stride,
             const std::vector<FacetKind>& facets, double time_limit, const HelperHooks& hooks) {
    stride = sample_stride;
    spy = std::make_unique<FacetSpy>(facets);
    Xapian::Query query = sampled(copy, stride);
    copy = Xapian::Query();
    auto count = [this, &second, query = std::move(query), time_limit, &hooks, caller = gettid()] {
      HelperScope scope(hooks, caller);
      Xapian::Enquire pass(second);
      pass.set_weighting_scheme(CountingWeight());  // counted, not ranked
      pass.set_query(query);
      pass.add_matchspy(spy.get());
      if (time_limit > 0) pass.set_time_limit(time_limit);
      const auto start = std::chrono::steady_clock::now();
      pass.get_mset(0, 0, second.get_doccount());
      cut = time_limit > 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= time_limit;
    };
    try {
      done = std::async(std::launch::async, std::move(count));
    } catch (const std::system_error&) {  // no thread to be had: counted after the match
      stride = 0;
    }
  }
};

}  // namespace

Searcher::Searcher(const std::string& path, SearcherOptions options) : path_(path), options_(options) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw DatabaseUnavailable("no database at " + path + "; " + create_hint(path));
  try {
    // A commit while the shards are opened and their commit numbers read
    // (shards.h) discards the revision being read: open them again.
    for (int attempt = 0;; ++attempt) {
      try {
        open();
        break;
      } catch (const Xapian::DatabaseModifiedError&) {
        if (attempt >= kMaxRetries) throw;
      }
    }
  } catch (const ShardUnreachable& e) {
    throw ShardsUnreachable("cannot open the database at " + path + ": " + e.what());
  } catch (const ShardError& e) {
    throw DatabaseUnavailable("cannot open the database at " + path + ": " + e.what());
  } catch (const Xapian::DatabaseCorruptError& e) {
    throw DatabaseUnavailable(schema::damaged_database_message(path, e.get_msg()));
  } catch (const Xapian::NetworkError& e) {
    throw ShardsUnreachable("cannot open the database at " + path + ": a remote shard did not answer: " +
                            e.get_msg());
  } catch (const Xapian::Error& e) {
    throw DatabaseUnavailable("cannot open the database at " + path + ": " + e.get_msg() + "; " +
                              create_hint(path));
  }
  for (std::size_t i = 0; i < shards_.shards.size(); ++i) {
    std::string version;
    try {
      version = shards_.shards[i].get_metadata(schema::kMetaSchemaVersion);
    } catch (const Xapian::Error& e) {
      throw DatabaseUnavailable("cannot read the shard " + shards_.names[i] + " of " + path + ": " + e.get_msg());
    }
    const std::string where = shards_.shards.size() == 1 ? path : "the shard " + shards_.names[i] + " of " + path;
    if (!version.empty() && version != std::to_string(schema::kSchemaVersion))
      throw SchemaMismatch("the database at " + where + " has schema version " + version +
                           ", this blogsearch reads version " + std::to_string(schema::kSchemaVersion) +
                           "; rebuild it from the snapshot archive (blogsearch-index rebuild --db " + path +
                           "), or remove it and " + create_hint(path));
  }
}

void Searcher::open() {
  shards_ = open_shards(path_, options_.shards);
  db_ = shards_.all;
  const std::string copies = db_.get_metadata(schema::kMetaCopies);
  collapse_ = !copies.empty() && copies != "0";
  feed_names_ = std::make_unique<FeedNames>(shards_.shards);
}

Searcher::~Searcher() = default;

// The spelling data is a database of its own (schema::spelling_db_path),
// one per shard (shards.h: spelling_paths); combined with the documents'
// (which holds it in databases written before it moved), Xapian consults
// them all and adds up each word's frequency. Without any, the documents'
// database alone.
Xapian::Database Searcher::with_spelling_data() const {
  if (shards_.spelling_paths.empty()) return db_;
  Xapian::Database all;
  all.add_database(db_);
  for (const auto& spelling : shards_.spelling_paths) {
    try {
      all.add_database(Xapian::Database(spelling));
    } catch (const Xapian::DatabaseOpeningError&) {
      // replaced by a rebuild just now: no suggestion is lost for long
    }
  }
  return all;
}

void Searcher::reopen() {
  // Opening the path again (rather than Database::reopen) also follows the
  // XAPIANDB stub to a new generation after `blogsearch-index` rebuilt.
  kept_.reset();
  try {
    open();
  } catch (const ShardError& e) {
    throw DatabaseUnavailable("cannot reopen the database at " + path_ + ": " + e.what());
  } catch (const Xapian::Error& e) {
    throw DatabaseUnavailable("cannot reopen the database at " + path_ + ": " + e.get_msg());
  }
}

SearchResult Searcher::search(const SearchRequest& request) {
  if (request.limit > kMaxLimit)
    throw QueryError("--limit " + std::to_string(request.limit) + " is too large (at most " +
                     std::to_string(kMaxLimit) + ")");
  if (request.reverse && request.sort != SortOrder::kDate)
    throw QueryError("--reverse only applies to --sort date");
  check_query_size(request.query.text, request.bounds);
  if (request.sort == SortOrder::kRecent && shards_.remote)
    throw QueryError("--sort recent is not available over remote shards (xapian-tcpsrv cannot run its "
                     "recency boost); use --sort relevance or --sort date");

  const auto start = std::chrono::steady_clock::now();
  for (int attempt = 0;; ++attempt) {
    try {
      // A query that is one pasted link finds the post of that link (as
      // people type links: link_key.h), within the filters; a link of no
      // post is searched as words.
      std::optional<PostRecord> linked;
      if (const std::string link = pasted_link(request.query.text); !link.empty())
        linked = find_post_once(link, false, shards_.remote ? kPastedLinkHostPostsRemote : kPastedLinkHostPosts);
      SearchRequest by_link;
      if (linked) {
        by_link = request;
        by_link.query.text.clear();
        by_link.query.spelling = false;
        by_link.query.filters.posts = {linked->id};
      }
      SearchResult result = search_once(linked ? by_link : request);
      if (linked) result.query = request.query.text;
      result.elapsed_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      return result;
    } catch (const Xapian::DatabaseModifiedError& e) {
      if (attempt >= kMaxRetries)
        throw std::runtime_error("the database at " + path_ + " kept changing during the search: " +
                                 e.get_msg());
      reopen();
    } catch (const Xapian::WildcardError& e) {
      // Xapian says "Wildcard PATTERN* expands to more than N terms".
      const std::string& msg = e.get_msg();
      std::string pattern;
      if (msg.compare(0, 9, "Wildcard ") == 0) pattern = msg.substr(9, msg.find(' ', 9) - 9);
      const std::string& text = request.query.text;
      std::size_t at = pattern.empty() ? std::string::npos : text.find(pattern);
      throw QueryError("'" + (pattern.empty() ? std::string("the wildcard") : pattern) +
                           "' matches more than " +
                           std::to_string(request.query.max_wildcard_expansion) +
                           " words; give more letters before the *",
                       text, at == std::string::npos ? 0 : at + 1, pattern.size());
    } catch (const Xapian::DatabaseCorruptError& e) {
      throw DatabaseUnavailable(schema::damaged_database_message(path_, e.get_msg()));
    } catch (const Xapian::DatabaseError& e) {
      throw DatabaseUnavailable("cannot read the database at " + path_ + ": " + e.get_msg());
    } catch (const Xapian::NetworkError& e) {
      throw ShardsUnreachable(shard_failure(e));
    } catch (const Xapian::Error& e) {
      throw std::runtime_error("search failed on " + path_ + ": " + e.get_type() + ": " + e.get_msg());
    }
  }
}

SearchResult Searcher::search_once(const SearchRequest& request) {
  SearchResult result;
  result.query = request.query.text;
  result.sort = sort_order_name(request.sort);
  result.reverse = request.reverse;
  result.offset = request.offset;
  result.limit = request.limit;
  result.unknown_filters = unknown_filters(db_, request.query.filters);

  // The "did you mean" correction is worked out after the search, and only
  // when it could be offered (see below): it costs more than the search.
  QueryOptions typed = request.query;
  typed.spelling = false;
  Kept* const kept = this->kept();
  auto build = [&](const QueryOptions& options) {
    return kept ? kept->builder.build(options) : build_query(db_, options);
  };
  BuiltQuery built = build(typed);
  // The query's own fields (`unboosted` is its text alone, without the
  // filters checked above).
  for (UnknownFilter& u : unknown_query_fields(db_, built.unboosted)) result.unknown_filters.push_back(std::move(u));
  check_wildcard_total(db_, built.query, request.query.text, request.query.max_wildcard_expansion);
  check_shard_operators(db_, built.query, request.query.text);
  result.searched_as_words = built.as_words;

  const bool faceted = !request.facets.empty();
  FacetSpy spy(request.facets);
  // Over remote shards (one alone too), or local ones whose ids repeat
  // (written before they were interleaved), the facet values are counted by
  // Xapian's own ValueCountMatchSpy: xapian-tcpsrv runs no other, and the ids a spy is
  // shown are ids in their shards, which then do not say which shard. Over
  // remote shards it counts in a pass of its own in relevance order: with
  // a sort by value, 1.4.22's remote matcher shows the spy some documents
  // twice. Elsewhere FacetSpy only notes ids, and reads each shard's value
  // stream forwards after the match: over 100,000 posts, with 2 shards, a
  // tenth of the time the value spy's look-up per document took.
  const bool count_values =
      shards_.remote || (shards_.shards.size() > 1 && !shards_.distinct_docids && !(kept && kept->facet_table));
  Xapian::ValueCountMatchSpy values(schema::kSlotFacets);

  Xapian::Enquire enquire(db_);
  enquire.set_weighting_scheme(Xapian::BM25Weight());
  // Copies of one post under two links are shown once, the best of them.
  const bool collapse = collapse_;
  if (collapse) enquire.set_collapse_key(schema::kSlotDuplicateKey);
  Xapian::Query query = built.query;
  // Ties (every match of a pure filter weighs 0) go newest first. (Called
  // on the threads of a match by shard too: it changes nothing else.)
  auto sort_relevance_then_newest = [keys = kept ? kept->keys : nullptr](Xapian::Enquire& e) {
    if (keys) e.set_sort_by_relevance_then_key(sorter(keys), true);
    else e.set_sort_by_relevance_then_value(schema::kSlotPublished, true);
  };
  auto relevance_then_newest = [&] {
    sort_relevance_then_newest(enquire);
    if (kept && kept->keys) ++kept_use_.sorts_by_keys;
  };
  switch (request.sort) {
    case SortOrder::kRelevance:
      relevance_then_newest();
      break;
    case SortOrder::kDate:
      if (kept && kept->keys) {
        enquire.set_sort_by_key_then_relevance(sorter(kept->keys), !request.reverse);
        ++kept_use_.sorts_by_keys;
      } else enquire.set_sort_by_value_then_relevance(schema::kSlotPublished, !request.reverse);
      break;
    case SortOrder::kRecent: {
      // The boost is scaled to this query's best weight so that it shifts
      // the order by a similar amount for rare and common words alike.
      enquire.set_query(built.unboosted.empty() ? query : built.unboosted);
      Xapian::MSet best = enquire.get_mset(0, 1);
      double top = best.empty() ? 0 : best.begin().get_weight();
      double reference = Xapian::sortable_unserialise(db_.get_value_upper_bound(schema::kSlotPublished));
      auto* source = new RecencySource(top > 0 ? top * kRecencyShare : 1.0, reference);
      query = Xapian::Query(Xapian::Query::OP_AND_MAYBE, query, Xapian::Query(source->release()));
      relevance_then_newest();
      break;
    }
  }
  enquire.set_query(query);
  result.parsed_query = describe_query(query, built.dates);
  if (faceted) {
    if (!count_values) enquire.add_matchspy(&spy);
    else if (!shards_.remote) enquire.add_matchspy(&values);
  }

  // Counts are exact up to kExactCountBound matches (--count: always),
  // "about" only past it. Facets need every match seen, up to their bound:
  // past it they are counted over a sample, so that their cost stops
  // growing with the match set. Whether the matches are within the bound
  // is found out after the match (below), not by making it count them.
  const Xapian::doccount doccount = db_.get_doccount();
  const bool bounded = faceted && !shards_.remote && request.facet_bound > 0;
  Xapian::doccount check_at_least = kExactCountBound;
  if (request.exact_count || (faceted && !bounded)) check_at_least = doccount;
  // offset + limit must not wrap around (--offset 4294967295).
  const Xapian::doccount limit =
      std::min<Xapian::doccount>(request.limit, std::numeric_limits<Xapian::doccount>::max() - request.offset);
  // The time limit ends only the counting past the page (check_at_least);
  // a match that took the whole limit may have been cut short.
  // Not set where the match cannot come near it, when asked (query_bounds.h).
  // The postings the match reads, counted up to both bounds that use them
  // (the time limit's, and the split's below).
  const std::uint64_t untimed = request.bounds.untimed_postings;
  const std::uint64_t cost =
      shards_.remote ? 0 : match_cost_bound(db_, query, std::max(untimed, options_.split_postings));
  const double time_limit =
      untimed > 0 && !shards_.remote && cost <= untimed ? 0 : request.bounds.time_limit_ms / 1000.0;
  if (time_limit > 0) enquire.set_time_limit(time_limit);
  // Past the bound by Xapian's estimate: the sample is counted beside the
  // match (SampleBeside; long-running searchers over local shards).
  SampleBeside beside;
  if (kept && bounded && !count_values) {
    Xapian::Enquire probe(db_);
    probe.set_query(query);
    const unsigned stride = sample_stride(probe.get_mset(0, 0).get_matches_upper_bound(), request.facet_bound);
    Xapian::Database* second = stride > 1 ? kept->second_handle(shards_) : nullptr;
    // Built again, and nothing else of that build kept (its other queries
    // share parts of this one) by the time the thread starts.
    auto own_query = [&] {
      BuiltQuery again = build(typed);
      return std::move(again.query);
    };
    if (second) beside.start(*second, own_query(), stride, request.facets, time_limit, options_.helpers);
  }
  // A match that reads many postings over local shards is split by shard
  // over threads (shard_match.h): the same page, in about 1/K of the time.
  // Many postings to read (match_cost_bound) and many possible matches
  // (Xapian's upper bound, worked out from the terms' frequencies without
  // matching): a word in one feed's posts ANDed with a common word reads
  // few of the common word's postings. Not for a phrase while the facets'
  // sample runs beside the match with fewer cores than the threads would
  // be: a phrase's sample reads positions too and takes longer than its
  // match, and the page then waits for a sample that shares its cores (46
  // to 50 ms for "open source" over a million posts on 2 cores). A word's
  // sample skips most postings, and its match gains more than the
  // sample loses.
  auto worth_splitting = [&] {
    if (beside.stride > 0 && shards_.shards.size() + 1 > std::thread::hardware_concurrency() &&
        reads_positions(query))
      return false;
    const std::uint64_t bound = options_.split_postings;
    if (cost < bound) return false;
    Xapian::Enquire probe(db_);
    probe.set_query(query);
    return probe.get_mset(0, 0).get_matches_upper_bound() >= bound;
  };
  std::vector<ShardTask> tasks;
  if (request.sort == SortOrder::kRelevance && shards_.shards.size() > 1 && !shards_.remote &&
      shards_.distinct_docids && !count_values && options_.split_postings > 0 && worth_splitting()) {
    std::vector<Xapian::Database> handles;
    if (kept) handles = kept->match_handles(shards_);
    else handles = open_handles(shards_);
    if (!handles.empty()) {
      tasks.push_back({shards_.shards[0], query});
      for (std::size_t i = 1; i < shards_.shards.size(); ++i) tasks.push_back({handles[i - 1], build(typed).query});
    }
  }
  const auto match_start = std::chrono::steady_clock::now();
  Matches page;
  // Each shard's facet spy, added to `spy` when the split is used.
  std::vector<std::unique_ptr<FacetSpy>> task_spies;
  std::optional<Matches> split;
  if (!tasks.empty()) {
    for (std::size_t i = 0; i < tasks.size(); ++i) task_spies.push_back(std::make_unique<FacetSpy>(request.facets));
    auto set_up = [&](Xapian::Enquire& e, std::size_t i) {
      sort_relevance_then_newest(e);
      if (collapse) e.set_collapse_key(schema::kSlotDuplicateKey);
      if (faceted) e.add_matchspy(task_spies[i].get());
      if (time_limit > 0) e.set_time_limit(time_limit);
    };
    split = match_by_shard(db_, shards_.shards, query, tasks, set_up, request.offset, limit, check_at_least,
                           options_.helpers);
    if (split) {
      page = std::move(*split);
      for (const auto& seen : task_spies) spy.add(*seen);
      ++kept_use_.matches_by_shard;
    }
  }
  const auto timed_out = [&] {
    return time_limit > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - match_start).count() >= time_limit;
  };
  // The snippets weigh the query's words by how many posts have them: from
  // this match's statistics when it ran as one (over remote shards a look-up
  // of the database is a round trip each), else from the local shards.
  TermCounts counts = TermCounts::of(db_);
  if (!split) {
    const Xapian::MSet mset = enquire.get_mset(request.offset, limit, check_at_least);
    page = matches_of(mset);
    counts = TermCounts::of(mset, doccount);
    // Xapian 1.4 counts a match that collapsed copies only as bounds unless
    // its page held every match. Until it has kept check_at_least matches
    // (at most its uncollapsed lower bound) it shows every one to the
    // collapser, whose lower bound (keys and documents without one) is
    // then the count. Otherwise, under check_at_least, one more match
    // whose page holds every match counts them.
    if (collapse && page.lower != page.upper && page.upper < check_at_least && !timed_out()) {
      if (mset.get_uncollapsed_matches_lower_bound() < check_at_least) {
        page.estimated = page.upper = page.lower;
      } else {
        enquire.clear_matchspies();  // they have counted this match's facets
        const Xapian::MSet whole = enquire.get_mset(0, page.upper + 1, check_at_least);
        page.lower = page.estimated = page.upper = whole.size();
      }
    }
  }
  result.partial = check_at_least > request.offset + limit && timed_out();
  if (count_values && shards_.remote && faceted) {
    Xapian::Enquire count(db_);
    count.set_query(query);
    count.add_matchspy(&values);
    count.get_mset(0, 0, check_at_least);
  }
  result.total.estimated = page.estimated;
  result.total.lower = page.lower;
  result.total.upper = page.upper;

  std::vector<Xapian::Stem> stem;
  for (const auto& l : built.languages) stem.push_back(schema::make_stemmer(l));
  if (stem.empty()) stem.push_back(schema::make_stemmer(schema::kStemLanguage));
  const SnippetTerms snippet_words =
      request.snippets ? snippet_terms(built.query, request.query.text, &counts) : SnippetTerms();
  unsigned rank = request.offset;
  result.hits.reserve(page.docs.size());
  for (const MatchedDoc& match : page.docs) {
    Hit& hit = result.hits.emplace_back();
    hit.rank = ++rank;
    hit.percent = match.percent;
    hit.weight = match.weight;
    // The text is read for the snippet, and kept in the post only when asked.
    if (kept) {
      const std::shared_ptr<const DocCache::Entry> entry = kept->docs.get(db_, match.docid, *feed_names_);
      if (request.snippets)
        hit.snippet = make_snippet(entry->text.empty() ? entry->record.summary : entry->text, snippet_words,
                                   request.snippet_length, stem);
      if (request.with_text) {
        auto post = std::make_shared<PostRecord>(entry->record);
        post->text = entry->text;
        hit.post = std::move(post);
      } else {
        hit.post = std::shared_ptr<const PostRecord>(entry, &entry->record);  // shares the cache entry
      }
    } else {
      auto post = std::make_shared<PostRecord>(
          read_post_record(db_.get_document(match.docid), request.snippets || request.with_text));
      feed_names_->apply(*post);
      post->docid = match.docid;  // not the document's own: its id in its shard
      if (request.snippets)
        hit.snippet = make_snippet(post->text.empty() ? post->summary : post->text, snippet_words,
                                   request.snippet_length, stem);
      if (!request.with_text) post->text.clear();
      hit.post = std::move(post);
    }
    if (request.with_history)
      // The JSON lists the versions, not their texts.
      hit.history = std::make_shared<const PostHistory>(
          read_post_history(db_.get_document(match.docid), HistoryTexts::none()));
  }
  // Xapian proposes a correction for any word that has a more frequent
  // neighbour, even a correct one ("plugins" -> "plugin"). Offer it when
  // what was typed finds nothing, or a few posts (a typo that a few posts
  // share) and at most a tenth of what the correction finds. A query that
  // finds many posts is not looked at: Xapian's look-up costs more than the
  // whole search, and the correction could find at most every document.
  if (request.query.spelling && result.total.estimated < kFewMatches &&
      result.total.estimated <= db_.get_doccount() / 10) {
    const Xapian::Database spelling = with_spelling_data();
    result.suggestion =
        confident_correction(db_, spelling, request.query.text, build_query(spelling, request.query).suggestion);
  }
  if (!result.suggestion.empty()) {
    QueryOptions corrected = request.query;
    corrected.text = result.suggestion;
    corrected.spelling = false;
    Xapian::Enquire check(db_);
    check.set_query(build(corrected).query);
    Xapian::MSet alt = check.get_mset(0, 0, 100);
    // A correction that finds nothing either is no help.
    if (alt.get_matches_estimated() == 0 ||
        (result.total.estimated > 0 && alt.get_matches_estimated() < 10 * result.total.estimated))
      result.suggestion.clear();
  }
  // Plain words that no post has all of, and no correction to offer
  // ("how do I securely erase a hard drive on macos"): a second try takes
  // the posts with any of them, the most first, and says so.
  if (result.total.estimated == 0 && result.suggestion.empty() && built.plain_words && !request.query.any_word) {
    SearchRequest wider = request;
    wider.query.any_word = true;
    wider.query.spelling = false;
    SearchResult any = search_once(wider);
    if (any.total.estimated > 0) {
      any.any_word = true;
      any.unknown_filters = std::move(result.unknown_filters);
      return any;
    }
  }
  // The match counted at least kExactCountBound matches, and the spies saw
  // those. When that was not all of them, or more than facet_bound, the
  // facets are counted in a pass of their own: over every match when there
  // are at most facet_bound (known from the upper bound, or from a sample
  // that finds few), else over one post in `stride` (by a hash of its id),
  // about facet_bound of them, multiplied. Counting up to the bound in the
  // match itself cost a phrase of 344,000 matches over a million posts
  // 10,001 phrase checks before the sample's, for counts the sample then
  // replaced.
  std::unique_ptr<FacetSpy> pass_spy;
  std::unique_ptr<Xapian::ValueCountMatchSpy> pass_values;
  // Counts the matches again, at most `check` of them, among one post in
  // `stride` (every match when 1); returns how many it saw.
  auto count_pass = [&](unsigned stride, Xapian::doccount check) -> Xapian::doccount {
    pass_values = std::make_unique<Xapian::ValueCountMatchSpy>(schema::kSlotFacets);
    if (beside.done.valid() && stride == beside.stride && check == doccount) {
      beside.done.get();  // what the pass threw is thrown here
      pass_spy = std::move(beside.spy);
      if (beside.cut) result.partial = true;
      ++kept_use_.samples_beside;
      return pass_spy->seen();
    }
    pass_spy = std::make_unique<FacetSpy>(request.facets);
    const auto start = std::chrono::steady_clock::now();
    // A one-shot search over local shards samples and counts each shard on
    // a thread of its own (a long-running one samples beside the match and
    // counts from its table).
    std::vector<Xapian::Database> others;
    if (stride > 1 && !kept && !count_values && !shards_.remote && shards_.shards.size() > 1)
      others = open_handles(shards_);
    if (!others.empty()) {
      std::vector<std::unique_ptr<FacetSpy>> spies;
      std::vector<Xapian::Query> queries;  // built for each thread: none shares a part
      for (std::size_t i = 0; i < shards_.shards.size(); ++i) {
        spies.push_back(std::make_unique<FacetSpy>(request.facets));
        queries.push_back(sampled(build(typed).query, stride));
      }
      count_apart(shards_.shards[0], others, queries, spies, check, time_limit, options_.helpers);
      for (const auto& one : spies) pass_spy->absorb(std::move(*one));
    } else {
      Xapian::Enquire pass(db_);
      pass.set_weighting_scheme(CountingWeight());  // counted, not ranked
      pass.set_query(stride > 1 ? sampled(query, stride) : query);
      if (count_values) pass.add_matchspy(pass_values.get());
      else pass.add_matchspy(pass_spy.get());
      if (time_limit > 0) pass.set_time_limit(time_limit);
      pass.get_mset(0, 0, check);
    }
    if (time_limit > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= time_limit)
      result.partial = true;
    return count_values ? static_cast<Xapian::doccount>(pass_values->get_total()) : pass_spy->seen();
  };
  const Xapian::doccount seen = count_values ? values.get_total() : spy.seen();
  bool from_pass = false;
  if (bounded && (seen < result.total.upper || seen > request.facet_bound)) {
    const Xapian::doccount lower = result.total.lower, upper = result.total.upper, bound = request.facet_bound;
    const unsigned stride = sample_stride(std::max(upper, lower), bound);
    from_pass = true;
    bool all = stride == 1;
    if (!all) {
      result.facet_counting.sampled = count_pass(stride, doccount);
      result.facet_counting.stride = stride;
      if (const unsigned again = resample_stride(result.facet_counting.sampled, stride, lower, upper, bound)) {
        result.facet_counting.sampled = count_pass(again, doccount);
        result.facet_counting.stride = again;
      }
      // A sample this small may come from bound matches or fewer (at twice
      // the bound, or fewer than 64 counted: the sample's spread is far
      // inside that margin); count them all to find out.
      const std::uint64_t counted = std::uint64_t{result.facet_counting.sampled} * result.facet_counting.stride;
      all = lower <= bound && (counted <= 2 * std::uint64_t{bound} || result.facet_counting.sampled < 64);
    }
    if (all) {
      auto sample_spy = std::move(pass_spy);
      auto sample_values = std::move(pass_values);
      const bool was_partial = result.partial;
      const Xapian::doccount matches = count_pass(1, bound + 1);
      const bool cut = result.partial && !was_partial;  // by the time limit: some matches not seen
      if (matches <= bound && !cut) {
        result.total.estimated = result.total.lower = result.total.upper = matches;
        result.facet_counting = FacetCounting();
      } else {
        // More than the bound after all (the sample's counts stand), or cut
        // short (counts of the matches seen, marked partial).
        result.total.lower = std::max(result.total.lower, cut ? matches : bound + 1);
        if (result.facet_counting.stride > 1) {
          pass_spy = std::move(sample_spy);
          pass_values = std::move(sample_values);
        }
      }
    }
    if (result.facet_counting.stride > 1) {
      // The sample counts the matches among one post in `stride`: a better
      // estimate of their number than Xapian's, within its bounds.
      result.facet_counting.estimated = true;
      const std::uint64_t counted = std::uint64_t{result.facet_counting.sampled} * result.facet_counting.stride;
      result.total.estimated = static_cast<Xapian::doccount>(
          std::clamp<std::uint64_t>(counted, result.total.lower, result.total.upper));
    }
  }
  if (beside.done.valid()) ++kept_use_.samples_beside_dropped;  // `beside` waits for it when it goes
  FacetSpy& counted = from_pass ? *pass_spy : spy;
  if (kept && kept->facet_table && faceted && !kept->facets) {
    auto make = [this] { return std::make_shared<const FacetTable>(shards_.shards); };
    kept->facets = kept->tables ? kept->tables->facets(kept->revision, make) : make();
  }
  const FacetTable* table = kept ? kept->facets.get() : nullptr;
  if (table && faceted) ++kept_use_.facets_from_table;
  if (count_values) counted.count_values(from_pass ? *pass_values : values);
  else counted.count(shards_.shards, table);
  if (faceted && !result.facet_counting.estimated) result.facet_counting.sampled = result.total.estimated;
  for (std::size_t i = 0; i < request.facets.size(); ++i) {
    Facet facet = make_facet(db_, shards_.shards, request.facets[i], counted.terms(i), request.facet_limit, table);
    for (FacetValue& v : facet.values) v.count *= result.facet_counting.stride;
    result.facets.push_back(std::move(facet));
  }
  return result;
}

std::optional<PostRecord> Searcher::find_post(const std::string& id_or_url) {
  for (int attempt = 0;; ++attempt) {
    try {
      std::optional<PostRecord> post = find_post_once(id_or_url, true);
      if (post) feed_names_->apply(*post);
      return post;
    } catch (...) {
      on_read_error(attempt);
    }
  }
}

void Searcher::on_read_error(int attempt) {
  try {
    throw;
  } catch (const Xapian::DatabaseModifiedError& e) {
    if (attempt >= kMaxRetries)
      throw std::runtime_error("the database at " + path_ + " kept changing: " + e.get_msg());
    reopen();
  } catch (const Xapian::NetworkError& e) {
    throw ShardsUnreachable(shard_failure(e));
  } catch (const Xapian::DatabaseCorruptError& e) {
    throw DatabaseUnavailable(schema::damaged_database_message(path_, e.get_msg()));
  } catch (const Xapian::Error& e) {
    throw DatabaseUnavailable("cannot read the database at " + path_ + ": " + e.get_msg());
  }
}

PostHistory Searcher::post_history(Xapian::docid docid, const HistoryTexts& texts) {
  for (int attempt = 0;; ++attempt) {
    try {
      return read_post_history(db_.get_document(docid), texts);
    } catch (const Xapian::DocNotFoundError&) {
      return PostHistory{};
    } catch (...) {
      on_read_error(attempt);
    }
  }
}

std::string Searcher::shard_failure(const Xapian::NetworkError& e) const {
  return "a shard of " + path_ + " did not answer (remote shards: " + remote_shard_names(shards_) +
         "): " + e.get_msg();
}

std::optional<PostRecord> Searcher::find_post_once(const std::string& id_or_url, bool whole_database,
                                                   Xapian::doccount max_host_posts) {
  const std::string id_term = schema::id_term(id_or_url);
  Xapian::PostingIterator p = db_.postlist_begin(id_term);
  // Xapian 1.4's Document::get_docid() is the id in its shard: every
  // record found here gets the combined one.
  if (p != db_.postlist_end(id_term)) {
    PostRecord post = read_post_record(db_.get_document(*p), true);
    post.docid = *p;
    return post;
  }
  if (max_host_posts > 0) {
    const std::string host = link_key_host(id_or_url);
    Xapian::doccount posts = 0;
    for (const std::string& h : {host, "www." + host}) posts += db_.get_termfreq(schema::exact_term(schema::kHost, h));
    if (posts > max_host_posts) return std::nullopt;
  }

  // No term holds the link, so look through the posts of its host (or all
  // posts when the host has none); a substring test skips most JSON parsing.
  auto matches = [&](Xapian::docid did) -> std::optional<PostRecord> {
    Xapian::Document doc = db_.get_document(did);
    if (doc.get_value(schema::kSlotRecord).find(id_or_url) == std::string::npos) return std::nullopt;
    PostRecord post = read_post_record(doc, true);
    post.docid = did;
    if (post.link == id_or_url) return post;
    return std::nullopt;
  };
  std::string host = id_or_url;
  if (auto scheme = host.find("://"); scheme != std::string::npos) {
    host.erase(0, scheme + 3);
    host.erase(std::min(host.find('/'), host.size()));
    const std::string term = schema::exact_term(schema::kHost, host);
    for (auto it = db_.postlist_begin(term); it != db_.postlist_end(term); ++it)
      if (auto post = matches(*it)) return post;
  }
  if (auto post = find_by_link_key(id_or_url)) return post;
  if (!whole_database) return std::nullopt;
  for (auto it = db_.postlist_begin(""); it != db_.postlist_end(""); ++it)
    if (auto post = matches(*it)) return post;
  return std::nullopt;
}

// The link as typed may differ from the stored one in scheme, host case,
// "www.", a trailing slash, tracking parameters or a fragment (link_key.h):
// the posts of its host, with and without "www.", are compared by key. The
// record is parsed only when it holds the link's last path segment.
std::optional<PostRecord> Searcher::find_by_link_key(const std::string& url) {
  const std::string key = link_key(url);
  const std::string host = link_key_host(url);
  if (key.empty() || host.empty()) return std::nullopt;
  std::string_view segment = key;
  segment = segment.substr(0, segment.find('?'));
  segment.remove_prefix(std::min(segment.rfind('/') + 1, segment.size()));
  std::optional<PostRecord> found;
  for (const std::string& h : {host, "www." + host}) {
    const std::string term = schema::exact_term(schema::kHost, h);
    for (auto it = db_.postlist_begin(term); it != db_.postlist_end(term); ++it) {
      Xapian::Document doc = db_.get_document(*it);
      if (doc.get_value(schema::kSlotRecord).find(segment) == std::string::npos) continue;
      PostRecord post = read_post_record(doc, true);
      post.docid = *it;
      if (link_key(post.link) == key || link_key(post.id) == key) return post;
    }
  }
  return std::nullopt;
}

}  // namespace blogsearch
