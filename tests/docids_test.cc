// Tests of interleaved document ids across shards (indexer/schema.h): every
// writer path gives shard s of K only ids d with (d-1) % K == s, compaction
// keeps them, and a long-running searcher then keeps its facet table and
// sort keys over local shards, answering as over one shard. A sharded
// database written before (ids 1, 2, 3... in every shard) is still
// searched right, and a rebuild interleaves it.
#include <gtest/gtest.h>
#include <unistd.h>
#include <xapian.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "indexer/db_layout.h"
#include "indexer/import_git.h"
#include "indexer/rebuild.h"
#include "indexer/schema.h"
#include "indexer/snapshot.h"
#include "indexer/stats.h"
#include "indexer/writer.h"
#include "query/searcher.h"
#include "record/link_key.h"

namespace blogsearch {
namespace {

namespace fs = std::filesystem;

std::string rss(int posts, const std::string& changed_body = "") {
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Docid Blog</title>"
      "<link>https://docids.example.org</link>\n";
  for (int i = 0; i < posts; ++i) {
    const std::string n = std::to_string(i);
    out += "<item><title>Post " + n + "</title><link>https://docids.example.org/" + n + "</link><guid>urn:docid-" +
           n + "</guid><pubDate>Tue, " + std::to_string(10 + i % 18) +
           " Sep 2026 10:00:00 +0000</pubDate><category>" + (i % 3 ? "odd" : "three") + "</category><description>" +
           (i == 0 && !changed_body.empty() ? changed_body : "Words of post " + n) + "</description></item>\n";
  }
  return out + "</channel></rss>\n";
}

class DocidsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/docids_test.XXXXXX";
    dir_ = mkdtemp(tmpl);
    fs::create_directories(dir_ + "/feeds/docfeed");
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  std::vector<Snapshot> feed_snapshot(const std::string& stamp, const std::string& body) {
    const std::string p = dir_ + "/feeds/docfeed/" + stamp + ".xml";
    std::ofstream(p) << body;
    std::vector<std::string> errors;
    auto snaps = collect_snapshots({p}, "", errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
    return snaps;
  }

  std::vector<Snapshot> sample_data() {
    std::vector<std::string> errors;
    auto all = collect_snapshots({data_, std::string(BLOGSEARCH_SOURCE_DIR) + "/tests/feeds/languages"}, "", errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
    // And 60 posts of a feed of our own, for more documents to tell apart.
    for (auto& s : feed_snapshot("2026-09-19T10-00-00Z", rss(60))) all.push_back(std::move(s));
    return all;
  }

  // The sample data written to `one` in one shard and to `two` in two;
  // returns it.
  std::vector<Snapshot> write_one_and_two(const std::string& one, const std::string& two) {
    auto all = sample_data();
    Writer(one, 1).ingest(all);
    Writer(two, 2).ingest(all);
    return all;
  }

  // Checks the rule in every shard of `db` and that each is marked so;
  // returns the number of documents.
  static unsigned check_interleaved(const std::string& db, unsigned shards) {
    const Layout layout = read_layout(db);
    EXPECT_EQ(layout.shards.size(), shards) << db;
    unsigned total = 0;
    for (unsigned s = 0; s < layout.shards.size(); ++s) {
      Xapian::Database shard(layout.shards[s]);
      EXPECT_EQ(shard.get_metadata(schema::kMetaDocids), schema::interleaved_docids_value(s, shards)) << db;
      for (auto it = shard.postlist_begin(""); it != shard.postlist_end(""); ++it, ++total)
        EXPECT_EQ((*it - 1) % shards, s) << "docid " << *it << " in shard " << s << " of " << shards;
    }
    return total;
  }

  // The id of post `id` in its shard of `db`.
  static Xapian::docid docid_of(const std::string& db, const std::string& id) {
    const Layout layout = read_layout(db);
    Xapian::Database shard(layout.shards[schema::shard_of(id, static_cast<unsigned>(layout.shards.size()))]);
    auto it = shard.postlist_begin(schema::id_term(id));
    return it == shard.postlist_end(schema::id_term(id)) ? 0 : *it;
  }

  // Rewrites `db` as blogsearch wrote sharded databases before ids were
  // interleaved: every shard numbered 1, 2, 3... (a compaction that
  // renumbers), without the mark.
  static void make_old_layout(const std::string& db) {
    for (const std::string& shard : read_layout(db).shards) {
      Xapian::Database(shard).compact(shard + ".old", Xapian::Compactor::FULL);
      fs::remove_all(shard);
      fs::rename(shard + ".old", shard);
      Xapian::WritableDatabase w(shard, Xapian::DB_OPEN);
      w.set_metadata(schema::kMetaDocids, "");
      w.commit();
    }
  }

  const std::string data_ = std::string(BLOGSEARCH_SOURCE_DIR) + "/data";
  std::string dir_;
};

TEST(InterleavedDocids, MappingFunctions) {
  EXPECT_EQ(schema::next_interleaved_docid(0, 0, 1), 1u);
  EXPECT_EQ(schema::next_interleaved_docid(7, 0, 1), 8u);
  EXPECT_EQ(schema::next_interleaved_docid(0, 0, 3), 1u);
  EXPECT_EQ(schema::next_interleaved_docid(0, 2, 3), 3u);
  EXPECT_EQ(schema::next_interleaved_docid(3, 2, 3), 6u);
  EXPECT_EQ(schema::next_interleaved_docid(4, 1, 3), 5u);
  EXPECT_EQ(schema::next_interleaved_docid(5, 1, 3), 8u);
  // Local d of shard s is combined (d-1)*K + s + 1: Xapian's own order.
  EXPECT_EQ(schema::combined_docid(1, 3), 1u);  // shard 0
  EXPECT_EQ(schema::combined_docid(3, 3), 9u);  // shard 2: (3-1)*3 + 2 + 1
  EXPECT_EQ(schema::combined_docid(8, 3), 23u);  // shard 1: 7*3 + 1 + 1
  EXPECT_EQ(schema::combined_docid(5, 1), 5u);
  EXPECT_THROW(schema::next_interleaved_docid(0xfffffff0u, 1, 4), Xapian::DatabaseError);
}

// A new database gets one shard per core (at most 8); an existing one keeps its K.
TEST_F(DocidsTest, ANewDatabaseGetsOneShardPerCore) {
  const unsigned cores = std::thread::hardware_concurrency();
  const unsigned want = std::min(std::max(cores, 1u), 8u);
  EXPECT_EQ(default_shard_count(), want);
  {
    Writer w(dir_ + "/new");
    EXPECT_EQ(w.shard_count(), want);
  }
  EXPECT_EQ(read_layout(dir_ + "/new").shards.size(), want);
  Writer(dir_ + "/three", 3).ingest(feed_snapshot("2026-09-20T10-00-00Z", rss(4)));
  Writer again(dir_ + "/three");
  EXPECT_EQ(again.shard_count(), 3u);
}

// The combined ids the formula gives are the ones Xapian uses.
TEST_F(DocidsTest, CombinedIdsAreXapians) {
  const std::string db = dir_ + "/db";
  Writer(db, 3).ingest(feed_snapshot("2026-09-20T10-00-00Z", rss(30)));
  ASSERT_EQ(check_interleaved(db, 3), 30u);
  Xapian::Database all(db);
  for (int i = 0; i < 30; ++i) {
    const std::string id = "urn:docid-" + std::to_string(i);
    auto it = all.postlist_begin(schema::id_term(id));
    ASSERT_NE(it, all.postlist_end(schema::id_term(id)));
    EXPECT_EQ(*it, schema::combined_docid(docid_of(db, id), 3)) << id;
  }
}

// add, an update of a post, a rebuild (compacted, also to another K) keep the rule.
TEST_F(DocidsTest, AddUpdateAndRebuildKeepTheRule) {
  for (unsigned k : {2u, 3u}) {
    const std::string db = dir_ + "/db" + std::to_string(k);
    auto first = feed_snapshot("2026-09-20T10-00-00Z", rss(25));
    Writer(db, k).ingest(first);
    EXPECT_EQ(check_interleaved(db, k), 25u);
    const Xapian::docid before = docid_of(db, "urn:docid-0");
    ASSERT_NE(before, 0u);
    auto second = feed_snapshot("2026-09-21T10-00-00Z", rss(27, "A changed body of post zero"));
    IngestSummary s = Writer(db).ingest(second);
    EXPECT_EQ(s.posts_updated, 1);
    EXPECT_EQ(s.posts_added, 2);
    EXPECT_EQ(check_interleaved(db, k), 27u);
    EXPECT_EQ(docid_of(db, "urn:docid-0"), before) << "an update keeps its id";

    std::vector<Snapshot> both = first;
    both.insert(both.end(), second.begin(), second.end());
    rebuild_database(db, both);
    EXPECT_EQ(check_interleaved(db, k), 27u);
    rebuild_database(db, both, {}, k + 2);
    EXPECT_EQ(check_interleaved(db, k + 2), 27u);
  }
}

// A feed of 2,500 posts, every one edited, then 1,500 of them gone, one
// run each, over 2 shards: each shard's ids skip (1, 3, 5...), and Xapian
// 1.4.22's matcher failed to list the posts still in the feed ("Unexpected
// end of posting list", found on a feed of 2,500 items); the writer walks
// the posting lists instead.
TEST_F(DocidsTest, ThousandsOfPostsEditedThenDroppedOverTwoShards) {
  auto feed = [](int posts, const std::string& words) {
    std::string out =
        "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel><title>Big</title>"
        "<link>https://big.example.org</link>\n";
    for (int i = 0; i < posts; ++i) {
      const std::string n = std::to_string(i);
      out += "<item><title>Post " + n + "</title><link>https://big.example.org/" + n + "</link><guid>urn:big-" + n +
             "</guid><description>" + words + " " + n + "</description></item>\n";
    }
    return out + "</channel></rss>\n";
  };
  const std::string db = dir_ + "/db";
  EXPECT_EQ(Writer(db, 2).ingest(feed_snapshot("2026-09-20T10-00-00Z", feed(2500, "first words"))).posts_added, 2500);
  EXPECT_EQ(Writer(db).ingest(feed_snapshot("2026-09-21T10-00-00Z", feed(2500, "second words"))).posts_updated, 2500);
  Writer(db).ingest(feed_snapshot("2026-09-22T10-00-00Z", feed(1000, "second words")));
  EXPECT_EQ(check_interleaved(db, 2), 2500u);
  Xapian::Database all(db);
  EXPECT_EQ(all.get_termfreq(std::string(schema::kInFeed) + "yes"), 1000u);
  EXPECT_EQ(all.get_termfreq(std::string(schema::kInFeed) + "no"), 1500u);
}

// import-git writes through the same writer: each version a snapshot.
TEST_F(DocidsTest, ImportGitKeepsTheRule) {
  if (std::system("git --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no git to run";
  const std::string repo = dir_ + "/repo";
  fs::create_directories(repo);
  std::string script = "cd '" + repo + "' && git init -q . ";
  for (int v = 1; v <= 3; ++v) {
    std::ofstream(repo + "/v" + std::to_string(v) + ".xml") << rss(10 * v, "version " + std::to_string(v));
    script += "&& cp v" + std::to_string(v) + ".xml feed.xml && git add feed.xml && GIT_AUTHOR_DATE='2026-09-2" + std::to_string(v) + "T10:00:00Z' GIT_COMMITTER_DATE='2026-09-2" +
              std::to_string(v) + "T10:00:00Z' git -c user.name=t -c user.email=t@example.org commit -q -m v" +
              std::to_string(v) + " ";
  }
  ASSERT_EQ(std::system(script.c_str()), 0) << script;
  for (unsigned k : {2u, 3u}) {
    const std::string db = dir_ + "/git" + std::to_string(k);
    Writer writer(db, k);
    ImportGitOptions options;
    options.repo = repo;
    options.path = "feed.xml";
    options.feed_id = "gitfeed";
    options.archive_dir = dir_ + "/archive" + std::to_string(k);
    options.chunk_versions = 1;
    options.on_chunk = [&](std::vector<Snapshot>&& chunk, long) { writer.ingest(chunk); };
    ImportGitResult r = import_git_history(options);
    EXPECT_EQ(r.snapshots, 3);
    EXPECT_EQ(check_interleaved(db, k), 30u);
  }
}

// ---- searching ------------------------------------------------------------

SearcherOptions long_running() {
  SearcherOptions o;
  o.cache_bytes = 64 << 20;
  return o;
}

// Facets (value, label, count) and the hits' published times in date
// order, newest first and oldest first. Labels are compared as they are:
// every way of counting picks the label most matches carry (facets.h), so
// a category written in two cases ("Debugging", "debugging" in the
// samples) is labelled alike over one shard, two, or by the CLI.
// A request for `q` over every date, counted exactly, with all four facets.
SearchRequest exact_request(const std::string& q) {
  SearchRequest r;
  r.query.text = q;
  r.query.filters.since = 0;
  r.exact_count = true;
  r.facets = {FacetKind::kFeed, FacetKind::kCategory, FacetKind::kAuthor, FacetKind::kMonth};
  return r;
}

std::string answer(Searcher& s, const std::string& q, bool sample) {
  std::string out;
  for (SortOrder order : {SortOrder::kRelevance, SortOrder::kDate}) {
    for (bool reverse : {false, true}) {
      if (reverse && order != SortOrder::kDate) continue;
      SearchRequest r = exact_request(q);
      r.sort = order;
      r.reverse = reverse;
      r.limit = kMaxLimit;
      if (sample) r.facet_bound = 20;
      const SearchResult res = s.search(r);
      out += "total " + std::to_string(res.total.estimated) + "\n";
      if (order == SortOrder::kDate)
        for (const auto& h : res.hits) out += h.post->published + "\n";
      for (const auto& f : res.facets)
        for (const auto& v : f.values)
          out += "facet " + v.value + " " + v.label + " " + std::to_string(v.count) + "\n";
    }
  }
  return out;
}

const std::vector<std::string> kQueries = {"", "the", "pytorch", "kernel", "\"custom kernels\"", "category:blog",
                                           "sprache", "notes OR digest", "words", "category:odd"};

// Over two local shards a long-running searcher counts facets from its
// FacetTable and sorts by its keys, and answers as over one shard. Past
// the facet bound the sample is the same too (a hash of the ids, which
// differ by layout): only the exact counts are compared there.
TEST_F(DocidsTest, LongRunningSearcherOverTwoShardsAnswersAsOverOne) {
  if (!fs::exists(data_ + "/pytorch")) GTEST_SKIP() << "no sample snapshots in " << data_;
  const std::string one = dir_ + "/one", two = dir_ + "/two";
  write_one_and_two(one, two);
  ASSERT_GT(check_interleaved(two, 2), 50u);
  Searcher s1(one, long_running()), s2(two, long_running()), cli2(two);
  std::size_t with_facets = 0;
  for (const auto& q : kQueries) {
    const std::string a = answer(s1, q, false);
    EXPECT_EQ(a, answer(s2, q, false)) << q;
    EXPECT_EQ(a, answer(cli2, q, false)) << q;
    if (a.find("facet ") != std::string::npos) ++with_facets;
  }
  EXPECT_GE(with_facets, 6u);
  EXPECT_GE(s2.kept_use().facets_from_table, 3 * kQueries.size());
  EXPECT_GE(s2.kept_use().sorts_by_keys, 3 * kQueries.size());
  EXPECT_EQ(cli2.kept_use().facets_from_table, 0u);
  // Sampled facets over two shards: from the table too, counted like the
  // CLI's (Xapian's ValueCountMatchSpy over the same sample).
  // The long-running searcher counts the sample beside the match, on its
  // second handle on both shards (dropped when the match then wants
  // another: every count is exact here).
  const unsigned long before = s2.kept_use().facets_from_table;
  for (const auto& q : {std::string(""), std::string("the")})
    EXPECT_EQ(answer(s2, q, true), answer(cli2, q, true)) << q;
  EXPECT_GT(s2.kept_use().facets_from_table, before);
  EXPECT_GT(s2.kept_use().samples_beside + s2.kept_use().samples_beside_dropped, 0u);
  EXPECT_EQ(cli2.kept_use().samples_beside + cli2.kept_use().samples_beside_dropped, 0u);
}

// A sharded database written before ids were interleaved is searched as
// before (Xapian's value counts, no kept tables), an add keeps writing it
// that way, and a rebuild interleaves it.
TEST_F(DocidsTest, AnOldShardedDatabaseFallsBackAndRebuildConvertsIt) {
  if (!fs::exists(data_ + "/pytorch")) GTEST_SKIP() << "no sample snapshots in " << data_;
  const std::string one = dir_ + "/one", two = dir_ + "/two";
  const auto all = write_one_and_two(one, two);
  make_old_layout(two);
  {
    const Layout layout = read_layout(two);
    Xapian::Database a(layout.shards[0]), b(layout.shards[1]);
    ASSERT_EQ(a.postlist_begin("") == a.postlist_end("") ? 0u : *a.postlist_begin(""), 1u);
    ASSERT_EQ(b.postlist_begin("") == b.postlist_end("") ? 0u : *b.postlist_begin(""), 1u)
        << "both shards have a document 1: the ids repeat";
  }
  EXPECT_NE(read_stats(two).layout.find("rebuild"), std::string::npos) << read_stats(two).layout;
  EXPECT_EQ(read_stats(one).layout, "sharded");
  // Another post added to it keeps the old numbering (and no mark).
  const auto extra = feed_snapshot("2026-09-20T10-00-00Z", rss(65));
  Writer(one).ingest(extra);
  Writer(two).ingest(extra);
  for (const std::string& shard : read_layout(two).shards)
    EXPECT_EQ(Xapian::Database(shard).get_metadata(schema::kMetaDocids), "");
  {
    Searcher s1(one, long_running()), s2(two, long_running());
    for (const auto& q : kQueries) EXPECT_EQ(answer(s1, q, false), answer(s2, q, false)) << q;
    EXPECT_EQ(s2.kept_use().facets_from_table, 0u);
    EXPECT_EQ(s2.kept_use().sorts_by_keys, 0u);
    EXPECT_GT(s1.kept_use().facets_from_table, 0u);
  }
  std::vector<Snapshot> both = all;
  both.insert(both.end(), extra.begin(), extra.end());
  rebuild_database(two, both);
  EXPECT_GT(check_interleaved(two, 2), 50u);
  EXPECT_EQ(read_stats(two).layout, "sharded");
  Searcher s1(one, long_running()), s2(two, long_running());
  for (const auto& q : kQueries) EXPECT_EQ(answer(s1, q, false), answer(s2, q, false)) << q;
  EXPECT_GT(s2.kept_use().facets_from_table, 0u);
  EXPECT_GT(s2.kept_use().sorts_by_keys, 0u);
}

// A shard compacted by hand with xapian-compact's default renumbering
// keeps its mark, but its ids move down to start at 1 (shard 1 of 2 then
// holds odd ids, as shard 0 does). Trusting the mark, a search read shard
// 0's values for shard 1's matches (wrong facet counts). The ids are
// checked: it is searched as an old layout, answers as one shard, and the
// next add removes the stale mark.
TEST_F(DocidsTest, AShardRenumberedByXapianCompactIsNotTrusted) {
  if (!fs::exists(data_ + "/pytorch")) GTEST_SKIP() << "no sample snapshots in " << data_;
  const std::string one = dir_ + "/one", two = dir_ + "/two";
  write_one_and_two(one, two);
  {
    const std::string shard = read_layout(two).shards[1];
    Xapian::Database(shard).compact(shard + ".renumbered", Xapian::Compactor::FULL);  // as xapian-compact does
    fs::remove_all(shard);
    fs::rename(shard + ".renumbered", shard);
    const Xapian::Database b(shard);
    ASSERT_EQ(b.get_metadata(schema::kMetaDocids), schema::interleaved_docids_value(1, 2));
    ASSERT_EQ(*b.postlist_begin(""), 1u) << "renumbered from 1";
    EXPECT_FALSE(schema::ids_interleaved(b, 1, 2));
    EXPECT_TRUE(schema::ids_interleaved(Xapian::Database(read_layout(two).shards[0]), 0, 2));
  }
  EXPECT_NE(read_stats(two).layout.find("rebuild"), std::string::npos) << read_stats(two).layout;
  {
    Searcher s1(one), s2(two), k2(two, long_running());
    for (const auto& q : kQueries) {
      EXPECT_EQ(answer(s1, q, false), answer(s2, q, false)) << q;
      EXPECT_EQ(answer(s1, q, false), answer(k2, q, false)) << q;
    }
    EXPECT_EQ(k2.kept_use().facets_from_table, 0u);
  }
  Writer(two).ingest(feed_snapshot("2026-09-20T10-00-00Z", rss(65)));
  for (const std::string& shard : read_layout(two).shards)
    EXPECT_EQ(Xapian::Database(shard).get_metadata(schema::kMetaDocids), "") << shard;
}

// The match by shard (query/shard_match.h: each shard matched on its own,
// on a thread of its own, weighed with the statistics of all the shards)
// ranks as one match: the same posts in the same order with the same
// weights (to the last bit) and percentages, counts and facets, at every
// offset, for the CLI's searcher and a long-running one, over 2 and 3
// shards. Ties (a pure filter weighs 0) go newest first, then by id, as
// Xapian orders them.
TEST_F(DocidsTest, AMatchSplitByShardRanksAsOneMatch) {
  if (!fs::exists(data_ + "/pytorch")) GTEST_SKIP() << "no sample snapshots in " << data_;
  auto ranking = [](Searcher& s, const std::string& q, unsigned offset, unsigned limit) {
    SearchRequest r = exact_request(q);
    r.offset = offset;
    r.limit = limit;
    const SearchResult res = s.search(r);
    std::string out = "total " + std::to_string(res.total.lower) + " " + std::to_string(res.total.estimated) +
                      " " + std::to_string(res.total.upper) + (res.partial ? " partial" : "") + "\n";
    char weight[40];
    for (const auto& h : res.hits) {
      std::snprintf(weight, sizeof weight, "%.17g", h.weight);
      out += std::to_string(h.rank) + " " + h.post->id + " " + weight + " " + std::to_string(h.percent) + "%\n";
    }
    for (const auto& f : res.facets)
      for (const auto& v : f.values) out += "facet " + v.value + " " + v.label + " " + std::to_string(v.count) + "\n";
    return out;
  };
  const std::vector<std::string> queries = {"the",         "pytorch",          "kernel OR notes", "\"custom kernels\"",
                                            "category:blog", "words post",     "model -the",      "sprache",
                                            "post 1*",     "category:odd words", ""};
  for (unsigned k : {2u, 3u}) {
    const std::string db = dir_ + "/db" + std::to_string(k);
    Writer(db, k).ingest(sample_data());
    SearcherOptions split = long_running(), split_cli;
    split.split_postings = split_cli.split_postings = 1;  // every match
    SearcherOptions whole = long_running(), whole_cli;
    whole.split_postings = whole_cli.split_postings = 0;  // none
    Searcher a(db, whole), b(db, split), c(db, whole_cli), d(db, split_cli);
    std::size_t hits = 0, split_queries = 0;
    for (const auto& q : queries) {
      const unsigned long before = b.kept_use().matches_by_shard;
      for (auto [offset, limit] : {std::pair{0u, kMaxLimit}, std::pair{0u, 10u}, std::pair{3u, 4u}, std::pair{50u, 7u}}) {
        const std::string one = ranking(a, q, offset, limit);
        EXPECT_EQ(one, ranking(b, q, offset, limit)) << k << " shards, " << q << " from " << offset;
        EXPECT_EQ(one, ranking(c, q, offset, limit)) << k << " shards, " << q << " from " << offset;
        EXPECT_EQ(one, ranking(d, q, offset, limit)) << k << " shards, " << q << " from " << offset;
        hits += std::count(one.begin(), one.end(), '%');
      }
      const bool was_split = b.kept_use().matches_by_shard > before;
      split_queries += was_split;
      // A wildcard is weighed as one synonym, from estimated statistics:
      // never split. Nor is a query two of whose terms have the same
      // statistics in a shard but not in all ("words" and "post" are in
      // the 60 posts of our feed once each, and "post" elsewhere too).
      if (q == "post 1*" || q == "words post") {
        EXPECT_FALSE(was_split) << k << " shards, " << q;
      }
      if (q == "the" || q == "pytorch" || q == "kernel OR notes" || q == "model -the" || q == "category:blog") {
        EXPECT_TRUE(was_split) << k << " shards, " << q;
      }
    }
    EXPECT_GT(hits, 300u);
    EXPECT_EQ(a.kept_use().matches_by_shard + c.kept_use().matches_by_shard, 0u);
    EXPECT_GE(split_queries, 7u);
    EXPECT_EQ(d.kept_use().matches_by_shard, b.kept_use().matches_by_shard);
  }
}

// A second feed holding a copy of each of rss(60)'s posts under another
// form of its link (http, www., a trailing slash), and three devlog posts
// that differ only in their link's fragment; written under dir.
std::string write_copies_feed(const std::string& dir) {
  std::string copies =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Docid Blog (http)</title>"
      "<link>http://www.docids.example.org</link>\n";
  for (int i = 0; i < 60; ++i) {
    const std::string n = std::to_string(i);
    copies += "<item><title>Post " + n + "</title><link>http://www.docids.example.org/" + n + "/</link><guid>urn:copy-" +
              n + "</guid><pubDate>Tue, " + std::to_string(10 + i % 18) +
              " Sep 2026 10:00:00 +0000</pubDate><category>odd</category><description>Words of post " + n +
              (i % 2 ? " and a longer copy of it" : "") + "</description></item>\n";
  }
  for (const char* part : {"a", "b", "c"})
    copies += std::string("<item><title>Devlog ") + part + "</title><link>https://docids.example.org/devlog/#" + part +
              "</link><guid>urn:devlog-" + part + "</guid><description>Words of the devlog</description></item>\n";
  copies += "</channel></rss>\n";
  fs::create_directories(dir + "/feeds/copies");
  const std::string copy_path = dir + "/feeds/copies/2026-09-20T10-00-00Z.xml";
  std::ofstream(copy_path) << copies;
  return copy_path;
}

// Copies of one post under two links (a second feed of the same blog: http
// for https, "www.", a trailing slash) are shown once, the best of them,
// whether the match is one or split by shard; posts of one page told apart
// by their fragments are not copies. The index keeps every copy.
TEST_F(DocidsTest, CopiesOfAPostAreShownOnce) {
  const std::string copy_path = write_copies_feed(dir_);
  std::vector<std::string> errors;
  std::vector<Snapshot> all = feed_snapshot("2026-09-19T10-00-00Z", rss(60));
  for (auto& s : collect_snapshots({copy_path}, "", errors)) all.push_back(std::move(s));
  ASSERT_TRUE(errors.empty()) << errors.front();

  auto ranking = [](Searcher& s, const std::string& q, unsigned offset, unsigned limit, bool exact) {
    SearchRequest r;
    r.query.text = q;
    r.query.filters.since = 0;
    r.exact_count = exact;
    r.offset = offset;
    r.limit = limit;
    const SearchResult res = s.search(r);
    std::string out = "total " + std::to_string(res.total.lower) + " " + std::to_string(res.total.estimated) + " " +
                      std::to_string(res.total.upper) + "\n";
    for (const auto& h : res.hits) out += std::to_string(h.rank) + " " + h.post->link + "\n";
    return std::make_pair(out, res);
  };
  for (unsigned k : {1u, 2u, 3u}) {
    const std::string db = dir_ + "/copies" + std::to_string(k);
    Writer(db, k).ingest(all);
    EXPECT_EQ(Xapian::Database(db).get_doccount(), 123u) << "every copy is kept";
    EXPECT_EQ(Xapian::Database(db).get_metadata(schema::kMetaCopies), "60");
    EXPECT_EQ(read_stats(db, false).copies, 60);
    SearcherOptions split = long_running(), whole = long_running(), cli;
    split.split_postings = 1;
    whole.split_postings = 0;
    Searcher a(db, whole), b(db, split), c(db, cli);
    for (const std::string q : {"words", "post", "words post 7", "category:odd", "devlog"}) {
      for (bool exact : {true, false}) {
        for (auto [offset, limit] : {std::pair{0u, kMaxLimit}, std::pair{0u, 10u}, std::pair{5u, 7u}}) {
          const auto [one, res] = ranking(a, q, offset, limit, exact);
          EXPECT_EQ(one, ranking(b, q, offset, limit, exact).first) << k << " shards, " << q << " from " << offset;
          EXPECT_EQ(one, ranking(c, q, offset, limit, exact).first) << k << " shards, " << q << " from " << offset;
          std::set<std::string> keys;
          for (const auto& h : res.hits)
            EXPECT_TRUE(keys.insert(duplicate_key(h.post->link, h.post->title)).second)
                << q << ": " << h.post->link << " twice";
        }
      }
    }
    // 60 posts and their 60 copies; the devlog's 3 posts are 3.
    const SearchResult words = ranking(c, "words", 0, kMaxLimit, true).second;
    EXPECT_EQ(words.total.estimated, 63u) << k << " shards";
    EXPECT_TRUE(words.total.exact());
    EXPECT_EQ(words.hits.size(), 63u);
    EXPECT_EQ(ranking(c, "devlog", 0, 10, true).second.hits.size(), 3u);
    // A page of 10 counts them exactly too (under the exact-count bound).
    for (Searcher* s : {&a, &c}) {
      const SearchResult page = ranking(*s, "words", 0, 10, false).second;
      EXPECT_EQ(page.total.estimated, 63u) << k << " shards";
      EXPECT_TRUE(page.total.exact()) << k << " shards";
    }
    if (k > 1) {
      EXPECT_GT(b.kept_use().matches_by_shard, 0u) << "the split was tried";
    }
  }
}

// The copies are counted at every commit that writes posts: a search
// between two commits of one run collapses the copies committed so far,
// and a run whose last batch was committed for its age (kCommitInterval,
// 2 s), leaving nothing for the run's end to commit, leaves the count of
// what it wrote.
TEST_F(DocidsTest, CopiesAreCountedAtEveryCommit) {
  std::vector<std::string> errors;
  std::vector<Snapshot> copies = collect_snapshots({write_copies_feed(dir_)}, "", errors);
  fs::create_directories(dir_ + "/feeds/other");
  const std::string other = dir_ + "/feeds/other/2026-09-21T10-00-00Z.xml";
  std::ofstream(other) << "<rss version=\"2.0\"><channel><title>Other</title><link>https://other.example.org</link>"
                          "<item><title>Other words</title><link>https://other.example.org/1</link>"
                          "<description>Words elsewhere</description></item></channel></rss>\n";
  std::vector<Snapshot> last = collect_snapshots({other}, "", errors);
  ASSERT_TRUE(errors.empty()) << errors.front();
  auto words = [](const std::string& db) {
    SearchRequest r;
    r.query.text = "words";
    r.exact_count = true;
    return Searcher(db).search(r).total.estimated;
  };
  for (bool copies_last : {true, false}) {
    const std::string db = dir_ + (copies_last ? "/last" : "/between");
    Writer writer(db, 2);
    writer.ingest(feed_snapshot("2026-09-19T10-00-00Z", rss(60)));
    ASSERT_EQ(Xapian::Database(db).get_metadata(schema::kMetaCopies), "0");
    std::vector<Snapshot> run = copies;
    if (!copies_last) run.insert(run.end(), last.begin(), last.end());
    // The copies feed is one batch of 63 documents; the other feed's one
    // document comes after its commit.
    IngestOptions options;
    int written = 0;
    std::uint64_t seen_between = 0;
    options.on_document_written = [&] {
      if (++written == 63) std::this_thread::sleep_for(std::chrono::milliseconds(2100));
      if (written == 64) seen_between = words(db);
    };
    writer.ingest(run, options);
    EXPECT_EQ(Xapian::Database(db).get_metadata(schema::kMetaCopies), "60") << db;
    EXPECT_EQ(words(db), copies_last ? 63u : 64u) << db;
    if (!copies_last) {
      EXPECT_EQ(seen_between, 63u) << "a search between two commits of one run";
    }
  }
}

// While a long-running searcher counts its facets' sample beside the
// match, a match of words is still split by shard (the sample skips most
// postings), with the same page and facets as unsplit. A phrase's sample
// reads positions: beside it, the phrase's match is split only where the
// cores outnumber the threads.
TEST_F(DocidsTest, AWordIsSplitBesideItsFacetSample) {
  if (!fs::exists(data_ + "/pytorch")) GTEST_SKIP() << "no sample snapshots in " << data_;
  const std::string db = dir_ + "/db";
  Writer(db, 2).ingest(sample_data());
  SearcherOptions split = long_running(), whole = long_running();
  split.split_postings = 1;  // every match worth it
  whole.split_postings = 0;  // none
  Searcher a(db, whole), b(db, split);
  const bool phrase_splits = 3 <= std::thread::hardware_concurrency();
  unsigned words_beside = 0, phrases_beside = 0;
  for (const std::string q : {"the", "pytorch", "kernel OR notes", "model -the", "\"of the\"", "\"in the\"",
                              "\"the pytorch\""}) {
    const unsigned long split_before = b.kept_use().matches_by_shard;
    auto started = [&b] { return b.kept_use().samples_beside + b.kept_use().samples_beside_dropped; };
    const unsigned long beside_before = started();
    SearchRequest r = exact_request(q);
    r.exact_count = false;
    r.facet_bound = 2;  // a sample of every match but the rarest
    const SearchResult one = a.search(r), two = b.search(r);
    ASSERT_EQ(one.hits.size(), two.hits.size()) << q;
    for (std::size_t i = 0; i < one.hits.size(); ++i) {
      EXPECT_EQ(one.hits[i].post->id, two.hits[i].post->id) << q << " #" << i;
      EXPECT_EQ(one.hits[i].weight, two.hits[i].weight) << q << " #" << i;
    }
    ASSERT_EQ(one.facets.size(), two.facets.size()) << q;
    for (std::size_t f = 0; f < one.facets.size(); ++f) {
      ASSERT_EQ(one.facets[f].values.size(), two.facets[f].values.size()) << q;
      for (std::size_t v = 0; v < one.facets[f].values.size(); ++v) {
        EXPECT_EQ(one.facets[f].values[v].value, two.facets[f].values[v].value) << q;
        EXPECT_EQ(one.facets[f].values[v].count, two.facets[f].values[v].count) << q;
      }
    }
    const bool beside = started() > beside_before;
    const bool was_split = b.kept_use().matches_by_shard > split_before;
    const bool phrase = q[0] == '"';
    (phrase ? phrases_beside : words_beside) += beside;
    EXPECT_EQ(was_split, !(phrase && beside) || phrase_splits) << q;
  }
  EXPECT_GE(words_beside, 2u);
  EXPECT_GE(phrases_beside, 1u);
  EXPECT_EQ(a.kept_use().matches_by_shard, 0u);
}

}  // namespace
}  // namespace blogsearch
