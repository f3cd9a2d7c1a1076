// Tests of the Xapian writer: identity, history, idempotence, atomicity.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <nlohmann/json.hpp>
#include <xapian.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "indexer/db_layout.h"
#include "indexer/schema.h"
#include "indexer/snapshot.h"
#include "indexer/writer.h"
#include "record/post_history.h"
#include "record/stored_text.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace blogsearch;

namespace {

struct Item {
  std::string guid, link, title, body;
  std::string date = "Tue, 01 Sep 2026 10:00:00 +0000";
  std::vector<std::string> categories = {"Blog"};
  std::string author = "Ada Lovelace";
};

std::string rss(const std::vector<Item>& items, const std::string& build_date = "Wed, 02 Sep 2026 01:00:00 +0000") {
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<rss version=\"2.0\" xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" "
      "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><title>Test Blog</title>"
      "<link>https://blog.example.org</link><lastBuildDate>" + build_date + "</lastBuildDate>\n";
  for (const auto& it : items) {
    out += "<item><title>" + it.title + "</title>";
    if (!it.link.empty()) out += "<link>" + it.link + "</link>";
    out += "<dc:creator><![CDATA[" + it.author + "]]></dc:creator><pubDate>" + it.date + "</pubDate>";
    for (const auto& c : it.categories) out += "<category><![CDATA[" + c + "]]></category>";
    if (!it.guid.empty()) out += "<guid isPermaLink=\"false\">" + it.guid + "</guid>";
    out += "<content:encoded><![CDATA[" + it.body + "]]></content:encoded></item>\n";
  }
  return out + "</channel></rss>\n";
}

class WriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("blogsearch-writer-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "feeds" / "testfeed");
    db_ = (root_ / "db").string();
  }
  void TearDown() override { fs::remove_all(root_); }

  // Writes feeds/testfeed/<stamp>.xml and returns its path.
  std::string snapshot(const std::string& stamp, const std::string& body) {
    fs::path p = root_ / "feeds" / "testfeed" / (stamp + ".xml");
    std::ofstream(p) << body;
    return p.string();
  }

  IngestSummary ingest(const std::vector<std::string>& paths, IngestOptions options = {}) {
    std::vector<std::string> errors;
    auto snaps = collect_snapshots(paths, "", errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
    Writer w(db_);
    return w.ingest(snaps, options);
  }

  // Every document as {Q term -> data + sorted terms + values (the record
  // among them)}, minus nothing: a byte-for-byte view of what a search
  // could see.
  std::map<std::string, std::string> dump() {
    Xapian::Database db(db_);
    std::map<std::string, std::string> out;
    for (auto it = db.postlist_begin(""); it != db.postlist_end(""); ++it) {
      Xapian::Document doc = db.get_document(*it);
      std::string key, desc = doc.get_data() + "\n";
      for (auto t = doc.termlist_begin(); t != doc.termlist_end(); ++t) {
        if ((*t)[0] == 'Q') key = *t;
        desc += *t + ":" + std::to_string(t.get_wdf()) + " ";
      }
      for (auto v = doc.values_begin(); v != doc.values_end(); ++v) desc += "\n" + std::to_string(v.get_valueno()) + "=" + *v;
      out[key] = desc;
    }
    return out;
  }

  json data_of(const std::string& id) {
    Xapian::Database db(db_);
    std::string term = schema::id_term(id);
    auto it = db.postlist_begin(term);
    if (it == db.postlist_end(term)) return nullptr;
    return json::parse(db.get_document(*it).get_value(schema::kSlotRecord));
  }

  PostHistory history_of(const std::string& id) {
    Xapian::Database db(db_);
    std::string term = schema::id_term(id);
    auto it = db.postlist_begin(term);
    if (it == db.postlist_end(term)) return PostHistory();
    return read_post_history(db.get_document(*it));
  }

  // The plain text the writer keeps for snippets (schema::kSlotText).
  std::string text_of(const std::string& id) {
    Xapian::Database db(db_);
    std::string term = schema::id_term(id);
    auto it = db.postlist_begin(term);
    if (it == db.postlist_end(term)) return "";
    return decode_stored_text(db.get_document(*it).get_value(schema::kSlotText));
  }

  // The terms held in the post's facet value (schema::kSlotFacets), as
  // "term=label" where it holds a label.
  std::vector<std::string> facet_terms_of(const std::string& id) {
    Xapian::Database db(db_);
    std::string term = schema::id_term(id);
    auto it = db.postlist_begin(term);
    if (it == db.postlist_end(term)) return {};
    std::vector<std::string> terms;
    schema::for_each_facet_term(db.get_document(*it).get_value(schema::kSlotFacets),
                                [&](std::string_view t, std::string_view label) {
                                  terms.emplace_back(label.empty() ? std::string(t) : std::string(t) + "=" + std::string(label));
                                });
    return terms;
  }

  long count(const std::string& word) {
    Xapian::Database db(db_);
    return static_cast<long>(db.get_termfreq(word));
  }

  fs::path root_;
  std::string db_;
};

const Item kA{"https://blog.example.org/?p=1", "https://blog.example.org/a/", "Alpha release notes",
              "<p>The alpha release brings quantization.</p><pre><code>torch.compile(model)</code></pre>"};
const Item kB{"https://blog.example.org/?p=2", "https://blog.example.org/b/", "Beta scheduling",
              "<p>Beta is about scheduling kernels.</p>"};

TEST_F(WriterTest, AddsPostsWithFieldsTermsAndValues) {
  auto s = ingest({snapshot("2026-09-02T010000Z", rss({kA, kB}))});
  EXPECT_EQ(s.snapshots_read, 1);
  EXPECT_EQ(s.items_seen, 2);
  EXPECT_EQ(s.posts_added, 2);
  EXPECT_EQ(s.errors, 0);
  json a = data_of(kA.guid);
  ASSERT_TRUE(a.is_object());
  EXPECT_EQ(a["title"], "Alpha release notes");
  EXPECT_EQ(a["link"], "https://blog.example.org/a/");
  EXPECT_EQ(a["authors"], json::array({"Ada Lovelace"}));
  EXPECT_EQ(a["categories"], json::array({"Blog"}));
  EXPECT_EQ(a["published"], "2026-09-01T10:00:00Z");
  EXPECT_EQ(a["first_seen"], "2026-09-02T01:00:00Z");
  EXPECT_EQ(a["versions"], 1);
  EXPECT_EQ(a["in_feed"], true);
  EXPECT_EQ(a["feed"]["id"], "testfeed");
  EXPECT_FALSE(a.contains("text"));  // the text is in its value slot, not the JSON
  EXPECT_NE(text_of(kA.guid).find("torch.compile(model)"), std::string::npos);
  EXPECT_EQ(count("Squantization"), 0);
  EXPECT_EQ(count("Salpha"), 1);
  EXPECT_EQ(count("quantization"), 1);
  EXPECT_EQ(count("Zquantiz"), 1);
  EXPECT_EQ(count("XAUTHORada lovelace"), 2);
  EXPECT_EQ(count("Kblog"), 2);
  EXPECT_EQ(count("XFEEDtestfeed"), 2);
  EXPECT_EQ(count("Hblog.example.org"), 2);
  EXPECT_EQ(count("D20260901"), 2);
  EXPECT_EQ(count("M202609"), 2);
  EXPECT_EQ(count("Y2026"), 2);
  Xapian::Database db(db_);
  EXPECT_EQ(db.get_metadata(schema::kMetaSchemaVersion), std::to_string(schema::kSchemaVersion));
}

TEST_F(WriterTest, IngestingTheSameSnapshotTwiceChangesNothing) {
  std::string s1 = snapshot("2026-09-02T010000Z", rss({kA, kB}));
  ingest({s1});
  auto before = dump();
  auto again = ingest({s1});
  EXPECT_EQ(again.snapshots_read, 1);
  EXPECT_EQ(again.snapshots_skipped, 1);
  EXPECT_EQ(again.items_seen, 0);
  EXPECT_EQ(dump(), before);
}

TEST_F(WriterTest, UnchangedItemOnlyMovesLastSeen) {
  ingest({snapshot("2026-09-02T010000Z", rss({kA}))});
  auto s = ingest({snapshot("2026-09-03T010000Z", rss({kA}, "Thu, 03 Sep 2026 01:00:00 +0000"))});
  EXPECT_EQ(s.snapshots_skipped, 0);
  EXPECT_EQ(s.posts_unchanged, 1);
  EXPECT_EQ(s.posts_updated, 0);
  json a = data_of(kA.guid);
  EXPECT_EQ(a["versions"], 1);
  EXPECT_EQ(a["first_seen"], "2026-09-02T01:00:00Z");
  EXPECT_EQ(a["last_seen"], "2026-09-03T01:00:00Z");
}

// A date far in the future is the first-seen time in the index, and a post
// that keeps it (or whose date stops being in the future) is no new version.
TEST_F(WriterTest, FutureDateIsTheFirstSeenTimeAndNoVersion) {
  Item far = kA;
  far.date = "Fri, 31 Dec 9999 00:00:00 +0000";
  Item soon = kB;
  soon.date = "Fri, 04 Sep 2026 10:00:00 +0000";  // two days after it is first seen
  ingest({snapshot("2026-09-02T010000Z", rss({far, soon}))});
  ingest({snapshot("2026-09-03T010000Z", rss({far, soon}, "Thu, 03 Sep 2026 01:00:00 +0000"))});
  auto s = ingest({snapshot("2026-09-06T010000Z", rss({far, soon}, "Sun, 06 Sep 2026 01:00:00 +0000"))});
  EXPECT_EQ(s.posts_updated, 0);
  json a = data_of(kA.guid), b = data_of(kB.guid);
  EXPECT_EQ(a["published"], "2026-09-02T01:00:00Z");
  EXPECT_EQ(a["versions"], 1);
  EXPECT_EQ(a["last_seen"], "2026-09-06T01:00:00Z");
  EXPECT_EQ(b["published"], "2026-09-02T01:00:00Z");
  EXPECT_EQ(b["versions"], 1);
  Xapian::Database db(db_);
  EXPECT_EQ(db.get_termfreq("D20260902"), 2u);
  EXPECT_EQ(db.get_termfreq("Y9999"), 0u);
}

TEST_F(WriterTest, EditReplacesDocumentAndCountsVersion) {
  ingest({snapshot("2026-09-02T010000Z", rss({kA}))});
  Item edited = kA;
  edited.title = "Alpha release notes (updated)";
  edited.body = "<p>The alpha release now brings sparsity.</p>";
  auto s = ingest({snapshot("2026-09-05T010000Z", rss({edited}))});
  EXPECT_EQ(s.posts_updated, 1);
  Xapian::Database db(db_);
  EXPECT_EQ(db.get_doccount(), 1u);
  json a = data_of(kA.guid);
  EXPECT_EQ(a["versions"], 2);
  EXPECT_EQ(a["title"], "Alpha release notes (updated)");
  EXPECT_EQ(a["last_change"], "2026-09-05T01:00:00Z");
  PostHistory h = history_of(kA.guid);
  ASSERT_EQ(h.versions.size(), 2u);
  EXPECT_EQ(format_time(h.versions[0].last_seen), "2026-09-02T01:00:00Z");
  EXPECT_EQ(h.content_of(h.versions[0]).title, kA.title);
  EXPECT_EQ(h.versions[1].changed, (std::vector<std::string>{"title", "text"}));
  EXPECT_EQ(h.content_of(h.versions[1]).text, "The alpha release now brings sparsity.");
  EXPECT_EQ(count("sparsity"), 1);
  EXPECT_EQ(count("quantization"), 0);
}

// The facet value follows the document's terms: a second feed that carries
// the post, then an edit that changes its categories.
TEST_F(WriterTest, FacetValueFollowsFeedsAndCategories) {
  ingest({snapshot("2026-09-02T010000Z", rss({kA}))});
  EXPECT_EQ(facet_terms_of(kA.guid), (std::vector<std::string>{"Kblog=Blog", "M202609",
                                                               "XAUTHORada lovelace=Ada Lovelace", "XFEEDtestfeed"}));
  fs::create_directories(root_ / "feeds" / "otherfeed");
  const fs::path other = root_ / "feeds" / "otherfeed" / "2026-09-03T010000Z.xml";
  std::ofstream(other) << rss({kA}, "Thu, 03 Sep 2026 01:00:00 +0000");
  ingest({other.string()});
  EXPECT_EQ(facet_terms_of(kA.guid),
            (std::vector<std::string>{"Kblog=Blog", "M202609", "XAUTHORada lovelace=Ada Lovelace", "XFEEDotherfeed",
                                      "XFEEDtestfeed"}));
  Item edited = kA;
  edited.categories = {"News", "Compilers"};
  edited.body = "<p>The alpha release, revised.</p>";
  ingest({snapshot("2026-09-05T010000Z", rss({edited}, "Sat, 05 Sep 2026 01:00:00 +0000"))});
  EXPECT_EQ(facet_terms_of(kA.guid),
            (std::vector<std::string>{"Kcompilers=Compilers", "Knews=News", "M202609",
                                      "XAUTHORada lovelace=Ada Lovelace", "XFEEDotherfeed", "XFEEDtestfeed"}));
  EXPECT_EQ(count("Kblog"), 0);
}

TEST_F(WriterTest, PostThatLeavesTheFeedStaysSearchable) {
  ingest({snapshot("2026-09-02T010000Z", rss({kA, kB}))});
  ingest({snapshot("2026-09-04T010000Z", rss({kB}, "Fri, 04 Sep 2026 01:00:00 +0000"))});
  EXPECT_EQ(data_of(kA.guid)["in_feed"], false);
  EXPECT_EQ(data_of(kB.guid)["in_feed"], true);
  EXPECT_EQ(count("quantization"), 1);
  EXPECT_EQ(count("XINFEEDno"), 1);
  EXPECT_EQ(count("XINFEEDyes"), 1);
}

TEST_F(WriterTest, OlderSnapshotNeverOverwritesNewerContent) {
  Item edited = kA;
  edited.body = "<p>Newest words: sparsity.</p>";
  std::string newer = snapshot("2026-09-05T010000Z", rss({edited}));
  std::string older = snapshot("2026-09-01T010000Z", rss({kA}));
  ingest({newer});
  ingest({older});
  json a = data_of(kA.guid);
  EXPECT_EQ(count("sparsity"), 1);
  EXPECT_EQ(count("quantization"), 0);
  EXPECT_EQ(a["first_seen"], "2026-09-01T01:00:00Z");
  EXPECT_EQ(a["last_seen"], "2026-09-05T01:00:00Z");
  EXPECT_EQ(a["in_feed"], true);
}

TEST_F(WriterTest, OneBatchEqualsSnapshotBySnapshot) {
  Item edited = kA;
  edited.body = "<p>Edited text about sparsity.</p>";
  std::vector<std::string> files = {snapshot("2026-09-02T010000Z", rss({kA, kB})),
                                    snapshot("2026-09-03T010000Z", rss({edited, kB}, "x")),
                                    snapshot("2026-09-04T010000Z", rss({edited}, "y"))};
  ingest(files);
  auto batch = dump();
  fs::remove_all(db_);
  for (const auto& f : files) ingest({f});
  EXPECT_EQ(dump(), batch);
  EXPECT_EQ(data_of(kA.guid)["versions"], 2);
  EXPECT_EQ(data_of(kB.guid)["in_feed"], false);
}

TEST_F(WriterTest, FailureInTheMiddleOfABatchLeavesThePreviousState) {
  ingest({snapshot("2026-09-02T010000Z", rss({kA}))});
  auto before = dump();
  IngestOptions failing;
  int written = 0;
  failing.on_document_written = [&] {
    if (++written == 2) throw std::runtime_error("simulated crash");
  };
  Item c{"https://blog.example.org/?p=3", "https://blog.example.org/c/", "Gamma", "<p>gamma rays</p>"};
  Item edited = kA;
  edited.body = "<p>sparsity</p>";
  std::string s2 = snapshot("2026-09-03T010000Z", rss({edited, kB, c}));
  EXPECT_THROW(ingest({s2}, failing), std::runtime_error);
  EXPECT_EQ(dump(), before);
  // The snapshot was not recorded as ingested, so a rerun applies it.
  auto s = ingest({s2});
  EXPECT_EQ(s.snapshots_skipped, 0);
  EXPECT_EQ(s.posts_added, 2);
  EXPECT_EQ(s.posts_updated, 1);
}

// IngestOptions::before_read (what `add` waits on for the archive copy):
// when it throws, ingest() throws the same and rolls back the open
// transaction, in which the feeds read before were already written.
TEST_F(WriterTest, ReadingStoppedByBeforeReadRollsBackAndRethrows) {
  ingest({snapshot("2026-09-02T010000Z", rss({kA}))});
  auto before = dump();
  // Three feeds of one snapshot each, applied in id order: a-feed, b-feed,
  // then this fixture's testfeed, whose read fails.
  std::vector<std::string> paths;
  const Item x{"https://a.example.org/?p=1", "https://a.example.org/x/", "Xenon", "<p>xenon lamps</p>"};
  const Item y{"https://b.example.org/?p=1", "https://b.example.org/y/", "Yttrium", "<p>yttrium garnet</p>"};
  for (const auto& [feed, item] : {std::pair{"a-feed", x}, std::pair{"b-feed", y}}) {
    fs::create_directories(root_ / "feeds" / feed);
    paths.push_back((root_ / "feeds" / feed / "2026-09-03T010000Z.xml").string());
    std::ofstream(paths.back()) << rss({item});
  }
  Item c{"https://blog.example.org/?p=3", "https://blog.example.org/c/", "Gamma", "<p>gamma rays</p>"};
  paths.push_back(snapshot("2026-09-04T010000Z", rss({kA, c})));
  struct ArchiveFull : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  IngestOptions stopping;
  std::atomic<int> written{0};
  stopping.on_document_written = [&] { written++; };
  stopping.before_read = [&](std::size_t index) {
    if (index == 2) throw ArchiveFull("archive/testfeed/x.xml.tmp: cannot write: No space left on device");
  };
  std::vector<std::string> errors;
  const std::vector<Snapshot> snaps = collect_snapshots(paths, "", errors);
  ASSERT_TRUE(errors.empty());
  Writer w(db_);
  EXPECT_THROW(w.ingest(snaps, stopping), ArchiveFull);
  EXPECT_GE(written.load(), 1) << "a-feed was written in the open transaction before the failure";
  EXPECT_EQ(dump(), before);
  // The same writer goes on from the committed state: nothing of the run
  // was recorded as ingested, so it applies it all again.
  auto s = w.ingest(snaps);
  EXPECT_EQ(s.snapshots_skipped, 0);
  EXPECT_EQ(s.posts_added, 3);
  EXPECT_EQ(s.posts_updated, 0);
}

// How often `word` is in the spelling data of the database at `path`.
Xapian::termcount spelling_frequency(const std::string& path, const std::string& word) {
  Xapian::Database db(path);
  for (auto it = db.spellings_begin(); it != db.spellings_end(); ++it)
    if (*it == word) return it.get_termfreq();
  return 0;
}

// Spelling data is a database of its own (schema::spelling_db_path),
// committed and cancelled with the documents' transaction.
TEST_F(WriterTest, SpellingDataIsCommittedWithTheDocuments) {
  ingest({snapshot("2026-09-02T010000Z", rss({kA}))});
  const std::string spelling = schema::spelling_db_path(db_);
  EXPECT_GT(spelling_frequency(spelling, "alpha"), 0u);
  EXPECT_EQ(spelling_frequency(db_, "alpha"), 0u);

  // Two feeds in one transaction: the first is written (its words queued
  // for the spelling data), the second fails; neither may remain.
  fs::create_directories(root_ / "feeds" / "another");
  Item z{"https://blog.example.org/?p=9", "https://blog.example.org/z/", "Zebra", "<p>zebras graze</p>"};
  std::string other = (root_ / "feeds" / "another" / "2026-09-03T010000Z.xml").string();
  std::ofstream(other) << rss({z});
  Item c{"https://blog.example.org/?p=3", "https://blog.example.org/c/", "Gamma", "<p>gamma rays</p>"};
  std::string mine = snapshot("2026-09-03T010000Z", rss({c}));
  IngestOptions failing;
  int written = 0;
  failing.on_document_written = [&] {
    if (++written == 2) throw std::runtime_error("simulated crash");
  };
  auto before = dump();
  std::vector<std::string> errors;
  Writer w(db_);
  EXPECT_THROW(w.ingest(collect_snapshots({other, mine}, "", errors), failing), std::runtime_error);
  EXPECT_EQ(written, 2);
  EXPECT_EQ(dump(), before);
  EXPECT_EQ(spelling_frequency(spelling, "zebra"), 0u);
  EXPECT_GT(spelling_frequency(spelling, "alpha"), 0u);

  // The same writer goes on: the failed transaction's words stay out.
  w.ingest(collect_snapshots({mine}, "", errors));
  EXPECT_EQ(spelling_frequency(spelling, "zebra"), 0u);
  EXPECT_GT(spelling_frequency(spelling, "gamma"), 0u);
  EXPECT_TRUE(errors.empty());
}

TEST_F(WriterTest, IdentityFallsBackToLinkThenToAHash) {
  Item no_guid{"", "https://blog.example.org/noguid/", "No guid", "<p>linked</p>"};
  Item nothing{"", "", "Neither guid nor link", "<p>orphan</p>"};
  ingest({snapshot("2026-09-02T010000Z", rss({no_guid, nothing}))});
  EXPECT_TRUE(data_of("https://blog.example.org/noguid/").is_object());
  Xapian::Database db(db_);
  EXPECT_EQ(db.get_doccount(), 2u);
  // Re-seen with the same title and date, the hashed id is stable.
  ingest({snapshot("2026-09-03T010000Z", rss({no_guid, nothing}, "later"))});
  EXPECT_EQ(Xapian::Database(db_).get_doccount(), 2u);
}

TEST_F(WriterTest, VeryLongIdsAreHashedIntoValidTerms) {
  Item long_id = kA;
  long_id.guid = "https://blog.example.org/?p=" + std::string(400, '7');
  ingest({snapshot("2026-09-02T010000Z", rss({long_id}))});
  EXPECT_TRUE(data_of(long_id.guid).is_object());
}

TEST_F(WriterTest, BadFileIsReportedAndTheRestIngested) {
  std::string bad = snapshot("2026-09-02T010000Z", "this is not a feed <<<");
  std::string good = snapshot("2026-09-03T010000Z", rss({kA}));
  std::vector<std::string> messages;
  IngestOptions opts;
  opts.on_message = [&](const std::string& m) { messages.push_back(m); };
  auto s = ingest({bad, good}, opts);
  EXPECT_EQ(s.errors, 1);
  EXPECT_EQ(s.posts_added, 1);
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages[0].find(bad), std::string::npos) << messages[0];
  EXPECT_EQ(messages[0].find('\n'), std::string::npos);
}

// A post lives in the shard of its id's hash (schema::shard_of), whatever
// the order it came in; K is the database's from its creation.
TEST_F(WriterTest, APostLivesInTheShardOfItsIdsHash) {
  std::vector<Item> items;
  for (int i = 0; i < 40; ++i)
    items.push_back({"urn:post-" + std::to_string(i), "", "Post " + std::to_string(i), "<p>Words " + std::to_string(i) + ".</p>"});
  const std::string path = snapshot("2026-09-02T01-00-00Z", rss(items));
  std::vector<std::string> errors;
  auto snaps = collect_snapshots({path}, "", errors);
  std::vector<std::string> shards;
  {
    Writer w(db_, 3);
    w.ingest(snaps);
    ASSERT_EQ(w.shard_count(), 3u);
    shards = w.shard_paths();
  }
  ASSERT_EQ(shards.size(), 3u);
  long total = 0;
  for (unsigned n = 0; n < shards.size(); ++n) {
    Xapian::Database shard(shards[n]);
    EXPECT_GT(shard.get_doccount(), 0u) << "shard " << n << " is empty";
    for (auto t = shard.allterms_begin(schema::kId); t != shard.allterms_end(schema::kId); ++t) {
      EXPECT_EQ(schema::shard_of((*t).substr(1), 3), n) << *t;
      ++total;
    }
  }
  EXPECT_EQ(total, 40);
  // The metadata is shard 0's: searches read the feed through the stub.
  EXPECT_FALSE(Xapian::Database(shards[0]).get_metadata(schema::kMetaFeedPrefix + std::string("testfeed")).empty());
  EXPECT_TRUE(Xapian::Database(shards[1]).get_metadata(schema::kMetaFeedPrefix + std::string("testfeed")).empty());
  // The hash is part of the format: these must never change (they would
  // move posts between shards of existing databases).
  EXPECT_EQ(schema::shard_of("urn:post-0", 7), 5u);
  EXPECT_EQ(schema::shard_of("https://blog.example.org/a", 7), 5u);
  EXPECT_EQ(schema::shard_of("anything", 1), 0u);
  // An existing database keeps its K: asking for another is refused.
  EXPECT_THROW(Writer(db_, 2), DatabaseError);
  Writer again(db_, 3);
  EXPECT_EQ(again.shard_count(), 3u);
}

// The shards hold the tables their posts fill and no other: Xapian creates
// spelling and synonym tables, empty, in a shard opened for writing at
// revision 0, and every search then opens and reads them. Spelling data
// has a database of its own (schema::spelling_db_path).
TEST_F(WriterTest, ShardsHoldNoEmptySpellingOrSynonymTables) {
  std::vector<std::string> shards, errors;
  {
    Writer w(db_, 2);
    w.ingest(collect_snapshots({snapshot("2026-09-02T010000Z", rss({kA, kB}))}, "", errors));
    shards = w.shard_paths();
  }
  ASSERT_EQ(shards.size(), 2u);
  for (unsigned n = 0; n < shards.size(); ++n) {
    EXPECT_TRUE(fs::exists(fs::path(shards[n]) / "postlist.glass")) << shards[n];
    EXPECT_FALSE(fs::exists(fs::path(shards[n]) / "spelling.glass")) << shards[n];
    EXPECT_FALSE(fs::exists(fs::path(shards[n]) / "synonym.glass")) << shards[n];
    EXPECT_EQ(Xapian::Database(shards[n]).get_metadata(schema::kMetaDocids), schema::interleaved_docids_value(n, 2));
  }
  EXPECT_GT(spelling_frequency(schema::spelling_db_path(db_), "alpha"), 0u);
  EXPECT_TRUE(errors.empty());
}

TEST_F(WriterTest, SecondWriterIsToldTheDatabaseIsLocked) {
  Writer first(db_);
  try {
    Writer second(db_);
    FAIL() << "second writer opened a locked database";
  } catch (const DatabaseLocked& e) {
    EXPECT_NE(std::string(e.what()).find(db_), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("pid"), std::string::npos) << e.what();
  }
}

TEST(Snapshot, OrderAndObservedTimeFromHeadersOrName) {
  fs::path dir = fs::temp_directory_path() / ("blogsearch-snap-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "My Feed");
  std::ofstream(dir / "My Feed" / "20250902T085253Z.xml") << "x";
  std::ofstream(dir / "My Feed" / "a.xml") << "x";
  std::ofstream(dir / "My Feed" / "a.headers.json") << R"({"fetchedAt": "2024-01-01T00:00:00.5Z"})";
  std::vector<std::string> errors;
  auto snaps = collect_snapshots({dir.string(), (dir / "missing").string()}, "", errors);
  ASSERT_EQ(errors.size(), 1u);
  ASSERT_EQ(snaps.size(), 2u);
  EXPECT_EQ(snaps[0].feed_id, "my-feed");
  EXPECT_EQ(snaps[0].observed, 1704067200);
  EXPECT_EQ(snaps[1].observed, 1756803173);
  fs::remove_all(dir);
}

// A file with no time in its name or headers is observed at its mtime, to
// the second (it was taken a second early).
TEST(Snapshot, ObservedTimeFromTheFilesMtime) {
  fs::path dir = fs::temp_directory_path() / ("blogsearch-mtime-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "feed");
  const fs::path file = dir / "feed" / "latest.xml";
  std::ofstream(file) << "x";
  for (long nanos : {0L, 999999999L}) {
    const struct timespec times[2] = {{1788438896, nanos}, {1788438896, nanos}};  // 2026-09-03T12:34:56Z
    ASSERT_EQ(::utimensat(AT_FDCWD, file.c_str(), times, 0), 0);
    std::vector<std::string> errors;
    auto snaps = collect_snapshots({file.string()}, "", errors);
    ASSERT_EQ(snaps.size(), 1u);
    EXPECT_EQ(snaps[0].observed, 1788438896) << nanos << " ns past the second";
  }
  fs::remove_all(dir);
}

}  // namespace

// A creation killed before its XAPIANDB stub (found by e2e_crash_safety:
// the next add wrote a plain glass database beside the half-made
// generation, which rebuild then refused) is created again.
TEST_F(WriterTest, ACreationCutShortIsCreatedAgain) {
  fs::create_directories(db_);
  const std::string half = new_generation(db_, 2);  // as far as a kill at that point gets
  std::ofstream(fs::path(db_) / "SHARD-0") << "auto " << fs::path(half).filename().string() << "/shard-0\n";
  std::ofstream(fs::path(db_) / "SPELLINGDB.tmp") << "auto";
  ASSERT_FALSE(has_generations(db_));
  const std::string path = snapshot("2026-09-02T01-00-00Z", rss({{"urn:a", "", "Alpha", "<p>First words.</p>"}}));
  EXPECT_EQ(ingest({path}).posts_added, 1);
  EXPECT_TRUE(has_generations(db_));
  const Layout layout = read_layout(db_);
  EXPECT_EQ(layout.kind, Layout::Kind::kSharded);
  EXPECT_FALSE(fs::exists(half)) << "the half-made generation is removed";
  EXPECT_FALSE(fs::exists(fs::path(db_) / "iamglass")) << "no plain glass database beside the generations";
  EXPECT_EQ(Xapian::Database(db_).get_doccount(), 1u);
}

// A directory holding anything else is not made into a database.
TEST_F(WriterTest, ADirectoryOfOtherFilesIsRefused) {
  fs::create_directories(db_);
  std::ofstream(fs::path(db_) / "notes.txt") << "mine";
  try {
    Writer w(db_);
    FAIL() << "a directory of other files was opened as a database";
  } catch (const DatabaseError& e) {
    EXPECT_NE(std::string(e.what()).find("notes.txt"), std::string::npos) << e.what();
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(db_), fs::directory_iterator()), 1) << "nothing written beside notes.txt";
}

// Writers creating one database at once make one database between them.
TEST_F(WriterTest, WritersCreatingOneDatabaseAtOnceMakeOne) {
  for (int round = 0; round < 5; ++round) {
    fs::remove_all(db_);
    std::vector<std::thread> creators;
    std::atomic<int> errors{0};
    for (int i = 0; i < 4; ++i)
      creators.emplace_back([&] {
        try {
          create_database_layout(db_, 2);
        } catch (const std::exception&) {
          ++errors;
        }
      });
    for (auto& t : creators) t.join();
    EXPECT_EQ(errors.load(), 0);
    int generations = 0;
    for (const auto& entry : fs::directory_iterator(db_))
      generations += entry.path().filename().string().rfind("gen-", 0) == 0;
    EXPECT_EQ(generations, 1) << "round " << round;
    EXPECT_EQ(read_layout(db_).kind, Layout::Kind::kSharded);
  }
}
