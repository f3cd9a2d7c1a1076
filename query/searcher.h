// searcher.h: running searches and look-ups over a blogsearch database.
//
// A Searcher opens the database read-only and answers SearchRequests with
// the one result model of result.h. The database may be a stub listing
// shards, local or served by xapian-tcpsrv (shards.h): results, feed titles,
// facets and spelling are those of all shards together. Over remote shards
// `--sort recent` is refused (xapian-tcpsrv cannot run blogsearch's own
// recency boost), and a shard that stops answering fails the search with
// DatabaseUnavailable naming the remote shards after the time limit of
// SearcherOptions::shards: results are never silently partial. Over local
// shards a match that reads many postings is split by shard over threads
// (shard_match.h), with the same results. It is the library behind the CLI
// and the CGI: it prints nothing, reads no environment and never exits.
//
// Failures:
//   DatabaseUnavailable  the database is missing, unreadable or of another
//                        schema version (then SchemaMismatch); the message
//                        names the path and the command that creates it;
//   QueryError           (query_builder.h) bad query syntax, bad dates, or a
//                        wildcard that expands to too many terms.
// A database modified while a search runs (Xapian::DatabaseModifiedError,
// a reindex committing) is reopened and the search retried. Other Xapian
// errors are rethrown as std::runtime_error with the path in the message.
#pragma once

#include <xapian.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "query/query_bounds.h"
#include "query/post_page.h"
#include "query/query_builder.h"
#include "query/result.h"
#include "query/shard_match.h"
#include "query/shards.h"
#include "query/feed_names.h"

namespace blogsearch {

class RevisionTables;  // revision_tables.h

class DatabaseUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A database of another schema version: opening it again will not help.
class SchemaMismatch : public DatabaseUnavailable {
 public:
  using DatabaseUnavailable::DatabaseUnavailable;
};

// A remote shard refused or did not answer in time: opening the database
// again at once would only wait as long again.
class ShardsUnreachable : public DatabaseUnavailable {
 public:
  using DatabaseUnavailable::DatabaseUnavailable;
};

enum class SortOrder {
  kRelevance,  // BM25, ties newest first
  kDate,       // newest first (oldest first with `reverse`)
  kRecent,     // BM25 plus a boost that decays with the post's age
};

// Parses "relevance", "date", "recent"; nullopt for anything else.
std::optional<SortOrder> parse_sort_order(const std::string& name);
const char* sort_order_name(SortOrder order);

inline constexpr Xapian::doccount kFacetBound = 10000;

struct SearchRequest {
  QueryOptions query;
  SortOrder sort = SortOrder::kRelevance;
  bool reverse = false;  // only with SortOrder::kDate
  unsigned offset = 0;
  unsigned limit = 10;   // at most kMaxLimit
  // Facets to count over the whole match set (facet_kind.h). Each keeps
  // its `facet_limit` biggest values (months: the newest).
  std::vector<FacetKind> facets;
  unsigned facet_limit = 10;
  // Facets are counted over every match up to this many matches; past it,
  // over a sample of about this many (one post in k, facets.h: sampled()),
  // the counts multiplied by k and marked as estimates
  // (SearchResult::facet_counting). Over remote shards counts are always
  // exact: xapian-tcpsrv cannot run the sampling posting source.
  Xapian::doccount facet_bound = kFacetBound;
  bool exact_count = false;  // count every match (slower) instead of estimating
  bool snippets = true;
  bool with_text = false;  // fill each hit's post.text
  bool with_history = false;  // fill each hit's history (document data)
  unsigned snippet_length = 240;  // bytes of text around the matches
  // Query length, words and match time (query_bounds.h). The wildcard
  // bound is query.max_wildcard_expansion, for the whole query.
  SearchBounds bounds;
};

inline constexpr unsigned kMaxLimit = 1000;

struct SearcherOptions {
  // For a process that answers many searches (FastCGI): until the
  // database is opened again, keep the records and texts of the posts read
  // (doc_cache.h) up to this many bytes, every post's facet terms and
  // every feed's title (facets.h: FacetTable), every post's published time
  // to sort by (sort_keys.h), and a set-up QueryBuilder; and a second
  // handle on the same local shards, for the facet sample that runs on a
  // thread of its own beside the match (searcher.cc: SampleBeside). 0, for
  // one search per process: read what each search needs.
  std::size_t cache_bytes = 0;
  // Where searchers of one process share the per-post tables of a revision
  // (revision_tables.h); null: this searcher makes its own.
  std::shared_ptr<RevisionTables> tables;
  // Time limits for shards served by xapian-tcpsrv (shards.h).
  ShardOptions shards;
  // A match whose query reads at least this many postings
  // (match_cost_bound) and may match at least as many posts (Xapian's
  // upper bound) over local shards is split by shard over threads
  // (shard_match.h); 0: never split. About 3 ms of matching, against the
  // ~0.3 ms a thread and a handle of its own on each shard cost.
  std::uint64_t split_postings = 100000;
  // Run by the threads a search starts besides its caller's (shard_match.h).
  HelperHooks helpers;
};

class Searcher {
 public:
  // Opens the database at `path`. Throws DatabaseUnavailable.
  explicit Searcher(const std::string& path, SearcherOptions options = {});
  ~Searcher();
  Searcher(const Searcher&) = delete;
  Searcher& operator=(const Searcher&) = delete;

  // Throws QueryError for bad requests (syntax, dates, wildcards, limit,
  // query size beyond request.bounds, --reverse without date order).
  SearchResult search(const SearchRequest& request);

  // One post by its id, else by its link: as stored, else as people type
  // links (link_key.h: http or https, "www.", host case, trailing slash,
  // tracking parameters, fragment). nullopt when there is none.
  std::optional<PostRecord> find_post(const std::string& id_or_url);
  // The history (record/post_history.h) of the post stored as `docid`
  // (PostRecord::docid from find_post), with the texts `texts` names; an
  // empty one when there is none.
  PostHistory post_history(Xapian::docid docid, const HistoryTexts& texts = {});

  // Moves to the newest committed revision, and to the live generation
  // after a rebuild. A long-running process (FastCGI) calls it per request.
  // Throws DatabaseUnavailable.
  void reopen();

  const std::string& path() const { return path_; }
  // Whether a shard is served by xapian-tcpsrv (no --sort recent there).
  bool over_remote_shards() const { return shards_.remote; }

  // How often searches used what a long-running searcher keeps
  // (SearcherOptions::cache_bytes): facets counted from the FacetTable,
  // sorts by the kept published times, facet samples counted beside the
  // match (and of those, samples the match then did not want). For tests
  // and benchmarks.
  struct KeptUse {
    unsigned long facets_from_table = 0;
    unsigned long sorts_by_keys = 0;
    unsigned long samples_beside = 0;
    unsigned long samples_beside_dropped = 0;
    unsigned long matches_by_shard = 0;  // split over threads (shard_match.h)
  };
  const KeptUse& kept_use() const { return kept_use_; }

  // The page of one post (post_page.h): nullopt when no post has the id
  // or link. Throws DatabaseUnavailable.
  std::optional<PostPage> post_page(const PostPageRequest& request);

 private:
  SearchResult search_once(const SearchRequest& request);
  // Where find_post looks: the id term, the link as stored among its
  // host's posts, the link as typed (find_by_link_key), and, only when
  // `whole_database`, every post (the page of one post does not: a request
  // must not read a million records). With `max_host_posts` (not 0), a
  // link whose host has more posts than that is looked for by the id term
  // only (a search for a pasted link reads at most that many records).
  std::optional<PostRecord> find_post_once(const std::string& id_or_url, bool whole_database,
                                           Xapian::doccount max_host_posts = 0);
  std::optional<PostRecord> find_by_link_key(const std::string& url);
  Xapian::Database with_spelling_data() const;
  std::string shard_failure(const Xapian::NetworkError& e) const;
  // Called in a catch (...) of a read that is tried again: reopens the
  // database when it moved under the read (five times at most), and
  // otherwise rethrows the error as DatabaseUnavailable (Xapian's) or as
  // it is (anything else).
  void on_read_error(int attempt);

  void open();

  std::optional<PostPage> post_page_once(const PostPageRequest& request);

  std::string path_;
  SearcherOptions options_;
  ShardSet shards_;
  Xapian::Database db_;  // shards_.all
  // db_'s writer found copies of posts (schema::kMetaCopies): searches
  // collapse them. Read once per revision, not per search (a round trip
  // over remote shards).
  bool collapse_ = false;
  // The feed titles and URLs results show (feed_names.h), of db_'s
  // revision: open() makes a new one.
  std::unique_ptr<FeedNames> feed_names_;
  // What is kept of db_'s revision (SearcherOptions::cache_bytes), made at
  // the first search; reopen() drops it.
  struct Kept;
  std::unique_ptr<Kept> kept_;
  KeptUse kept_use_;
  Kept* kept();
};

}  // namespace blogsearch
