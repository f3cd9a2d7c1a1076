// archive_test.cc: what archive_snapshot writes, reuses and cleans up.
#include "indexer/archive.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "indexer/add_archive.h"
#include "indexer/snapshot.h"

namespace blogsearch {
namespace {
namespace fs = std::filesystem;

struct ScratchDir {
  fs::path path;
  ScratchDir() {
    char tmpl[] = "/tmp/archive_test.XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

FetchResponse response(Time at, const std::string& body) {
  FetchResponse r;
  r.feed_id = "blog";
  r.status = 200;
  r.fetched_at = at;
  r.body = body;
  r.final_url = "https://example.org/feed";
  return r;
}

long files_named(const fs::path& dir, const std::string& suffix) {
  long n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) ++n;
  }
  return n;
}

TEST(Archive, SameBodyAfterAKilledRunIsNotArchivedAgain) {
  ScratchDir dir;
  auto fetched = [&](Time t, const std::string& body) {
    return archive_snapshot(dir.path.string(), response(t, body), nlohmann::json::object(),
                            SameAsNewest::kThatSnapshot);
  };
  ArchivedFile first = fetched(1000, "<rss>a</rss>");
  EXPECT_FALSE(first.existed);
  // A run killed before indexing: the next one fetches the same body later.
  ArchivedFile again = fetched(5000, "<rss>a</rss>");
  EXPECT_TRUE(again.existed);
  EXPECT_EQ(again.path, first.path);
  EXPECT_EQ(files_named(dir.path / "blog", ".xml"), 1);
  // A changed body is a new snapshot; returning to the old one is too.
  ArchivedFile changed = fetched(9000, "<rss>b</rss>");
  EXPECT_FALSE(changed.existed);
  ArchivedFile back = fetched(12000, "<rss>a</rss>");
  EXPECT_FALSE(back.existed);
  EXPECT_EQ(files_named(dir.path / "blog", ".xml"), 3);
  EXPECT_EQ(files_named(dir.path / "blog", ".headers.json"), 3);
}

// add and import-git archive every snapshot they ingest, also one whose
// body the one before it had: a snapshot added later between the two makes
// the second a return to that body, and rebuild must find it. The same time
// and body again is still the same file.
TEST(Archive, AddedSnapshotsWithTheSameBodyAreEachKept) {
  ScratchDir dir;
  ArchivedFile first = archive_snapshot(dir.path.string(), response(1000, "<rss>a</rss>"));
  ArchivedFile later = archive_snapshot(dir.path.string(), response(5000, "<rss>a</rss>"));
  EXPECT_FALSE(later.existed);
  EXPECT_NE(later.path, first.path);
  EXPECT_EQ(files_named(dir.path / "blog", ".xml"), 2);
  ArchivedFile rerun = archive_snapshot(dir.path.string(), response(5000, "<rss>a</rss>"));
  EXPECT_TRUE(rerun.existed);
  EXPECT_EQ(rerun.path, later.path);
  EXPECT_EQ(files_named(dir.path / "blog", ".xml"), 2);
}

// `add --link` hard-links what it is given into the archive (same file
// system): no second copy of the bytes; through a symbolic link, the file
// it names. Without --link the archive holds copies, which a file
// rewritten in place later leaves as they were.
TEST(Archive, AddLinksTheFileGivenIntoTheArchive) {
  ScratchDir dir;
  const fs::path given = dir.path / "given";
  fs::create_directories(given);
  const std::string body = "<rss><channel><title>T</title></channel></rss>";
  std::ofstream(given / "2026-09-02T010000Z.xml") << body;
  std::ofstream(given / "2026-09-02T020000Z.xml.target") << body + " ";
  fs::create_symlink(given / "2026-09-02T020000Z.xml.target", given / "2026-09-02T020000Z.xml");
  std::vector<Snapshot> snaps(2);
  snaps[0].path = (given / "2026-09-02T010000Z.xml").string();
  snaps[0].observed = 3600 * 24;
  snaps[1].path = (given / "2026-09-02T020000Z.xml").string();
  snaps[1].observed = 3600 * 25;
  for (Snapshot& s : snaps) s.feed_id = "blog";
  std::vector<Snapshot> copied_snaps = snaps;
  ArchiveCopy copies;
  std::vector<std::size_t> settled;
  copy_into_archive((dir.path / "copies").string(), copied_snaps, 1 << 20, copies, false, [&](std::size_t i) {
    settled.push_back(i);
    return true;
  });
  ASSERT_EQ(copies.copied, 2);
  EXPECT_EQ(settled, (std::vector<std::size_t>{0, 1})) << "each snapshot settled once, in order";
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_FALSE(fs::equivalent(copied_snaps[i].path, snaps[i].path)) << "linked without --link";
  std::vector<Snapshot> linked_snaps = snaps;
  ArchiveCopy copy;
  copy_into_archive((dir.path / "archive").string(), linked_snaps, 1 << 20, copy, true);
  ASSERT_EQ(copy.copied, 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const fs::path archived = linked_snaps[i].path;
    EXPECT_EQ(archived.parent_path(), fs::absolute(dir.path / "archive" / "blog"));
    EXPECT_FALSE(fs::is_symlink(archived)) << archived;
    EXPECT_TRUE(fs::equivalent(archived, i == 0 ? given / "2026-09-02T010000Z.xml"
                                                : given / "2026-09-02T020000Z.xml.target"))
        << archived << " is a copy, not a link";
    std::ifstream in(archived);
    const std::string read((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(read, i == 0 ? body : body + " ");
  }
  // A file rewritten in place (same inode, as `curl -o` does) leaves the
  // copies as they were.
  std::ofstream(given / "2026-09-02T020000Z.xml.target", std::ios::trunc) << "<rss>rewritten</rss>";
  std::ifstream copied(copied_snaps[1].path);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(copied)), std::istreambuf_iterator<char>()), body + " ");
  // Removing the file given leaves the archived one whole.
  fs::remove(given / "2026-09-02T010000Z.xml");
  EXPECT_EQ(fs::file_size(linked_snaps[0].path), body.size());
  EXPECT_EQ(files_named(dir.path / "archive" / "blog", ".tmp"), 0);
}

// `add` archives on a thread of its own while the writer's readers wait
// for each snapshot (ArchiveGate): a reader waits until its snapshot is
// settled, gets the archiving's failure for a snapshot it never settled,
// and never waits once the gate is stopped.
TEST(Archive, GateLetsReadersThroughOnceTheirSnapshotIsArchived) {
  ArchiveGate gate(3);
  std::atomic<int> through{0};
  std::thread reader([&] {
    gate.wait(1);
    through = 1;
  });
  gate.settled(0);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(through.load(), 0) << "snapshot 1 is not archived yet";
  gate.settled(1);
  reader.join();
  EXPECT_EQ(through.load(), 1);
  gate.fail(std::make_exception_ptr(ArchiveError("archive/blog/x.xml.tmp: cannot write: No space left on device")));
  gate.wait(0);  // settled before the failure: still readable
  EXPECT_THROW(gate.wait(2), ArchiveError);
  ArchiveGate stopped(2);
  stopped.stop();
  stopped.wait(1);  // returns at once
  EXPECT_TRUE(stopped.stopped());
}

TEST(Archive, TemporariesOfAKilledRunAreRemoved) {
  ScratchDir dir;
  fs::create_directories(dir.path / "blog");
  std::ofstream(dir.path / "blog" / "1970-01-01T000000Z.xml.tmp") << "half a body";
  std::ofstream(dir.path / "blog" / "1970-01-01T000000Z.headers.json.tmp") << "{";
  archive_snapshot(dir.path.string(), response(1000, "<rss>a</rss>"));
  EXPECT_EQ(files_named(dir.path / "blog", ".tmp"), 0);
  EXPECT_EQ(files_named(dir.path / "blog", ".xml"), 1);
}

// Issue 15 point 13: fetch clears a feed's folder even when it writes
// nothing there (the feed did not change).
TEST(Archive, StaleTemporariesOfAFeedAreRemovedWithoutAWrite) {
  ScratchDir dir;
  archive_snapshot(dir.path.string(), response(1000, "<rss>a</rss>"));
  std::ofstream(dir.path / "blog" / "1970-01-01T000100Z.xml.tmp") << "half a body";
  std::ofstream(dir.path / "blog" / "1970-01-01T000100Z.headers.json.tmp") << "{";
  // The one listing of the folder also names the bodies after a time.
  const auto left = tidy_feed_folder(dir.path.string(), "blog", 0);
  EXPECT_EQ(files_named(dir.path / "blog", ".tmp"), 0);
  EXPECT_EQ(files_named(dir.path / "blog", ".xml"), 1);
  EXPECT_EQ(files_named(dir.path / "blog", ".headers.json"), 1);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(fs::path(left[0]).filename(), "1970-01-01T001640Z.xml");  // 1,000 s
  // A name is a time cut to the second: it is listed for a time up to a
  // second after it (the caller reads the snapshot's own time), not later.
  EXPECT_EQ(tidy_feed_folder(dir.path.string(), "blog", 1001).size(), 1u);
  EXPECT_TRUE(tidy_feed_folder(dir.path.string(), "blog", 1002).empty());
  EXPECT_TRUE(tidy_feed_folder(dir.path.string(), "no-such-feed", 0).empty());  // nothing to list: no error
  EXPECT_FALSE(fs::exists(dir.path / "no-such-feed"));
}

// A failed `add` takes its bad files out of the archive, and the feed
// folders it made for them once they are empty (archive/site/ for
// site/page.html): never a folder that was there before, or that holds a
// good file.
TEST(Archive, AFailedAddLeavesNoEmptyFeedFolderBehind) {
  ScratchDir dir;
  const fs::path archive = dir.path / "archive";
  archive_snapshot(archive.string(), response(1000, "<rss>a</rss>"));  // archive/blog/ was there
  std::ofstream(dir.path / "page.html") << "<html><body>a page</body></html>";
  std::ofstream(dir.path / "good.xml") << "<rss>good</rss>";
  auto snapshot = [&](const char* file, const char* feed, Time at) {
    Snapshot s;
    s.path = (dir.path / file).string();
    s.feed_id = feed;
    s.observed = at;
    return s;
  };
  std::vector<Snapshot> snaps = {snapshot("page.html", "site", 2000), snapshot("page.html", "blog", 3000),
                                 snapshot("page.html", "mixed", 4000), snapshot("good.xml", "mixed", 5000)};
  ArchiveCopy copy;
  copy_into_archive(archive.string(), snaps, 1 << 20, copy);
  ASSERT_EQ(copy.copied, 4);
  EXPECT_EQ(copy.created_folders.size(), 2u) << "site and mixed";
  EXPECT_EQ(remove_not_ingested(copy, {snaps[0].path, snaps[1].path, snaps[2].path}), 3);
  EXPECT_FALSE(fs::exists(archive / "site")) << "the folder made for the bad file alone is left empty";
  EXPECT_EQ(files_named(archive / "blog", ".xml"), 1) << "the folder there before lost its snapshot";
  EXPECT_EQ(files_named(archive / "mixed", ".xml"), 1) << "the folder holding a good file went";
  EXPECT_EQ(copy.copied, 1);
}

TEST(Archive, PathsAreAbsoluteWhateverTheArchiveOptionSays) {
  ScratchDir dir;
  fs::path cwd = fs::current_path();
  fs::current_path(dir.path);
  ArchivedFile f = archive_snapshot("relative/archive", response(1000, "<rss>a</rss>"));
  std::vector<std::string> errors;
  std::vector<Snapshot> snaps = collect_snapshots({"relative/archive"}, "", errors);
  fs::current_path(cwd);
  EXPECT_TRUE(fs::path(f.path).is_absolute()) << f.path;
  EXPECT_TRUE(fs::exists(f.path)) << f.path;
  ASSERT_EQ(snaps.size(), 1u);
  EXPECT_EQ(snaps[0].path, f.path);
  EXPECT_EQ(snaps[0].feed_id, "blog");
}

TEST(Snapshot, CharsetOfAContentType) {
  EXPECT_EQ(charset_of("application/rss+xml; charset=gb2312"), "gb2312");
  EXPECT_EQ(charset_of("text/xml;Charset=\"Shift_JIS\" ; q=1"), "Shift_JIS");
  EXPECT_EQ(charset_of("text/xml; format=flowed"), "");
  EXPECT_EQ(charset_of("application/atom+xml"), "");
  EXPECT_EQ(charset_of(""), "");
}

TEST(Snapshot, ParseOptionsComeFromTheFetch) {
  Snapshot snap;
  snap.observed = 1234;
  snap.content_type = "text/xml; charset=big5";
  snap.url = "http://example.org/rss";
  EXPECT_EQ(parse_options_for(snap).base_url, "http://example.org/rss");
  snap.final_url = "https://example.org/rss.xml";
  ParseOptions bounds;
  bounds.max_items = 7;
  ParseOptions o = parse_options_for(snap, bounds);
  EXPECT_EQ(o.base_url, "https://example.org/rss.xml");
  EXPECT_EQ(o.http_charset, "big5");
  EXPECT_EQ(o.observed, 1234);
  EXPECT_EQ(o.max_items, 7u);
}

TEST(Snapshot, FeedIdsFitTheDatabase) {
  EXPECT_EQ(feed_id_problem("pytorch"), "");
  EXPECT_NE(feed_id_problem("Not A Slug").find("must be a slug"), std::string::npos);
  EXPECT_NE(feed_id_problem("").find("must be a slug"), std::string::npos);
  EXPECT_NE(feed_id_problem(std::string(249, 'a')).find("249 bytes, longer than the 100"), std::string::npos);
  // Long folder names become ids that fit, and two of them stay two.
  std::string a = feed_slug(std::string(300, 'x') + "-one"), b = feed_slug(std::string(300, 'x') + "-two");
  EXPECT_EQ(a.size(), 100u);
  EXPECT_NE(a, b);
  EXPECT_EQ(feed_id_problem(a), "");
  EXPECT_EQ(feed_slug("Simon Willison's Weblog"), "simon-willison-s-weblog");
}

TEST(Snapshot, ReadFileRefusesWhatIsOverTheLimit) {
  ScratchDir dir;
  fs::path f = dir.path / "big.xml";
  std::ofstream(f) << std::string(1000, 'x');
  EXPECT_EQ(read_file(f.string(), 1000).size(), 1000u);
  try {
    read_file(f.string(), 999);
    FAIL() << "a file over the limit was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("--max-body"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace blogsearch
