// Tests of the postings glass steps over once a match's page is full
// (tools/xapian/search.patch: Weight::get_maxpart_at_wdf). A match whose
// weight bounds each posting by its wdf must return the same page, weights
// and counts as one that weighs every posting, while weighing far fewer;
// and the match split by shard (query/shard_match.h), whose weight gives the
// same bound, the same page as one match over all the shards.
#include <gtest/gtest.h>
#include <unistd.h>
#include <xapian.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "query/shard_match.h"

namespace blogsearch {
namespace {

namespace fs = std::filesystem;

// Xapian::BM25Weight's arithmetic (k1 = 1, b = 0.5, no k2), counting the
// postings it weighs. With `bounded`, it bounds a posting by its wdf the way
// BM25Weight does; without, by get_maxpart() (Xapian's default: glass then
// skips nothing).
class CountedBM25 : public Xapian::Weight {
 public:
  CountedBM25(bool bounded, std::shared_ptr<std::size_t> weighed) : bounded_(bounded), weighed_(std::move(weighed)) {
    need_stat(TERMFREQ);
    need_stat(COLLECTION_SIZE);
    need_stat(AVERAGE_LENGTH);
    need_stat(WDF);
    need_stat(WDF_MAX);
    need_stat(DOC_LENGTH);
    need_stat(DOC_LENGTH_MIN);
  }
  CountedBM25* clone() const override { return new CountedBM25(bounded_, weighed_); }
  std::string name() const override { return "CountedBM25"; }
  void init(double factor) override {
    const double n = get_collection_size(), tf = get_termfreq();
    double tw = (n - tf + 0.5) / (tf + 0.5);
    if (tw < 2) tw = tw * 0.5 + 1;
    termweight_ = 2 * std::log(tw) * factor;
    len_factor_ = get_average_length() > 0 ? 1 / get_average_length() : 0;
  }
  double get_sumpart(Xapian::termcount wdf, Xapian::termcount len, Xapian::termcount) const override {
    ++*weighed_;
    return part(wdf, len);
  }
  double get_maxpart() const override {
    return part(get_wdf_upper_bound(), std::max(get_wdf_upper_bound(), get_doclength_lower_bound()));
  }
#if BLOGSEARCH_XAPIAN_PATCHED
  double get_maxpart_at_wdf(Xapian::termcount wdf) const override {
    return bounded_ ? part(wdf, std::max(wdf, get_doclength_lower_bound())) : get_maxpart();
  }
#endif
  double get_sumextra(Xapian::termcount, Xapian::termcount) const override { return 0; }
  double get_maxextra() const override { return 0; }

 private:
  double part(Xapian::termcount wdf, Xapian::termcount len) const {
    const double normlen = std::max(len * len_factor_, 0.5);
    const double w = wdf;
    return termweight_ * (w / ((normlen * 0.5 + 0.5) + w));
  }
  bool bounded_;
  std::shared_ptr<std::size_t> weighed_;
  double termweight_ = 0, len_factor_ = 0;
};

struct Page {
  std::vector<std::pair<Xapian::docid, double>> docs;
  Xapian::doccount lower = 0, estimated = 0, upper = 0;
  bool operator==(const Page& o) const {
    return docs == o.docs && lower == o.lower && estimated == o.estimated && upper == o.upper;
  }
};

class SkipPostingsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!BLOGSEARCH_XAPIAN_PATCHED)
      GTEST_SKIP() << "built against the shared, unpatched libxapian (no static one: run tools/setup)";
    char tmpl[] = "/tmp/skip_postings_test.XXXXXX";
    dir_ = mkdtemp(tmpl);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // Document i: "every" (wdf 1 to 12), "half" in even ones, "fruit" in one
  // in seven, a filter term in one in three, and 150 to 330 other words.
  static Xapian::Document doc(unsigned i) {
    Xapian::Document d;
    Xapian::termpos pos = 0;
    for (unsigned k = 0; k < 1 + (i * 7) % 12; ++k) d.add_posting("every", ++pos);
    if (i % 2 == 0)
      for (unsigned k = 0; k < 1 + i % 5; ++k) d.add_posting("half", ++pos);
    if (i % 7 == 0) d.add_posting("fruit", ++pos);
    if (i % 3 == 0) d.add_boolean_term("Kthree");
    for (unsigned k = 0; k < 150 + (i * 13) % 180; ++k) d.add_posting("w" + std::to_string(k % 40), ++pos);
    return d;
  }

  std::string write(const std::string& name, unsigned from, unsigned step, unsigned count) {
    const std::string path = dir_ + "/" + name;
    Xapian::WritableDatabase db(path, Xapian::DB_CREATE_OR_OVERWRITE | Xapian::DB_BACKEND_GLASS);
    for (unsigned i = from; i < count; i += step) db.replace_document(i + 1, doc(i));
    db.commit();
    return path;
  }

  static Page match(const Xapian::Database& db, const Xapian::Query& q, bool bounded, std::size_t* weighed) {
    auto counter = std::make_shared<std::size_t>(0);
    Xapian::Enquire e(db);
    e.set_weighting_scheme(CountedBM25(bounded, counter));
    e.set_query(q);
    const Xapian::MSet m = e.get_mset(0, 10, 10);
    Page p;
    for (auto it = m.begin(); it != m.end(); ++it) p.docs.emplace_back(*it, it.get_weight());
    p.lower = m.get_matches_lower_bound();
    p.estimated = m.get_matches_estimated();
    p.upper = m.get_matches_upper_bound();
    *weighed = *counter;
    return p;
  }

  std::string dir_;
};

TEST_F(SkipPostingsTest, SamePageWeighingFewerPostings) {
  const Xapian::Database db(write("one", 0, 1, 3000));
  const Xapian::Query every("every"), half("half"), fruit("fruit");
  const std::vector<std::pair<std::string, Xapian::Query>> queries = {
      {"a word in every document", every},
      {"OR", Xapian::Query(Xapian::Query::OP_OR, every, half)},
      {"AND", Xapian::Query(Xapian::Query::OP_AND, every, half)},
      {"AND_MAYBE", Xapian::Query(Xapian::Query::OP_AND_MAYBE, half, fruit)},
      {"a filter", Xapian::Query(Xapian::Query::OP_FILTER, every, Xapian::Query("Kthree"))},
      {"XOR", Xapian::Query(Xapian::Query::OP_XOR, every, fruit)},
      {"a phrase", Xapian::Query(Xapian::Query::OP_PHRASE, every, every)},
  };
  for (const auto& [what, q] : queries) {
    std::size_t all = 0, bounded = 0;
    const Page expected = match(db, q, false, &all);
    const Page got = match(db, q, true, &bounded);
    ASSERT_EQ(expected.docs.size(), 10u) << what;
    EXPECT_TRUE(got == expected) << what << ": the page or counts differ";
    EXPECT_LE(bounded, all) << what;
    if (what == "a word in every document") {
      // Every document weighed without the bound; most stepped over with it.
      EXPECT_GE(all, 3000u);
      EXPECT_LT(bounded, all / 2) << "weighed " << bounded << " of " << all;
    }
  }
}

TEST_F(SkipPostingsTest, ASplitMatchKeepsThePageOfOneMatch) {
  // Two shards with interleaved ids (shard s holds ids d with (d-1) % 2 == s).
  const Xapian::Database s0(write("s0", 0, 2, 3000)), s1(write("s1", 1, 2, 3000));
  Xapian::Database all;
  all.add_database(s0);
  all.add_database(s1);
  for (const char* word : {"every", "half"}) {
    const Xapian::Query q(word);
    Xapian::Enquire one(all);
    one.set_weighting_scheme(Xapian::BM25Weight());
    one.set_query(q);
    const Xapian::MSet expected = one.get_mset(0, 10, 10);
    std::vector<ShardTask> tasks = {{Xapian::Database(dir_ + "/s0"), Xapian::Query(word)},
                                    {Xapian::Database(dir_ + "/s1"), Xapian::Query(word)}};
    const std::optional<Matches> split =
        match_by_shard(all, {s0, s1}, q, tasks, [](Xapian::Enquire&, std::size_t) {}, 0, 10, 10, HelperHooks());
    ASSERT_TRUE(split) << word;
    ASSERT_EQ(split->docs.size(), expected.size()) << word;
    std::size_t r = 0;
    for (auto it = expected.begin(); it != expected.end(); ++it, ++r) {
      EXPECT_EQ(split->docs[r].docid, *it) << word << " rank " << r;
      EXPECT_EQ(split->docs[r].weight, it.get_weight()) << word << " rank " << r;
    }
  }
}

}  // namespace
}  // namespace blogsearch
