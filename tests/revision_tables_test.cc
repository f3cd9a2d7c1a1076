// Tests of RevisionTables (query/revision_tables.h): the per-post tables
// of a revision, made once and shared by the searchers of a process.
#include <gtest/gtest.h>

#include <xapian.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <set>
#include <thread>
#include <unistd.h>
#include <vector>

#include "query/revision_tables.h"
#include "query/sort_keys.h"

namespace blogsearch {
namespace {

Xapian::Database empty_db() { return Xapian::WritableDatabase(std::string(), Xapian::DB_BACKEND_INMEMORY); }

struct Maker {
  Xapian::Database db = empty_db();
  int calls = 0;
  std::shared_ptr<const PublishedKeys> operator()() {
    ++calls;
    return std::make_shared<const PublishedKeys>(std::vector<Xapian::Database>{db});
  }
};

TEST(RevisionTables, OneTablePerRevision) {
  RevisionTables tables;
  Maker make;
  auto f = [&] { return make(); };
  auto a = tables.keys("db-1:5", f);
  auto b = tables.keys("db-1:5", f);
  EXPECT_EQ(a, b);
  EXPECT_EQ(make.calls, 1);
  auto newer = tables.keys("db-1:6", f);  // a commit
  EXPECT_NE(newer, a);
  EXPECT_EQ(make.calls, 2);
  EXPECT_EQ(tables.keys("db-1:6", f), newer);
  // A searcher still on the older revision gets tables of its own; the
  // newer stay kept for the others.
  auto older = tables.keys("db-1:5", f);
  EXPECT_NE(older, newer);
  EXPECT_EQ(tables.keys("db-1:6", f), newer);
  EXPECT_EQ(make.calls, 3);
  // Another database (a rebuild's generation), whatever its number.
  auto other = tables.keys("db-2:1", f);
  EXPECT_NE(other, newer);
  EXPECT_EQ(tables.keys("db-2:1", f), other);
  EXPECT_EQ(tables.made(), 3);  // 5, 6 and db-2's; the older 5 was not kept
  EXPECT_TRUE(a);  // what a searcher holds stays valid
}

TEST(RevisionTables, AnUnknownRevisionIsNeverShared) {
  RevisionTables tables;
  Maker make;
  auto f = [&] { return make(); };
  EXPECT_NE(tables.keys("", f), tables.keys("", f));
  EXPECT_EQ(make.calls, 2);
  EXPECT_EQ(tables.made(), 0);
}

TEST(RevisionTables, KeyNamesTheRevisionOfALocalDatabase) {
  const auto dir = std::filesystem::temp_directory_path() / ("revision_tables." + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  {
    Xapian::WritableDatabase w(dir.string(), Xapian::DB_CREATE_OR_OPEN | Xapian::DB_BACKEND_GLASS);
    w.add_document(Xapian::Document());
    w.commit();
  }
  Xapian::Database db(dir.string());
  const std::string first = revision_key({db});
  EXPECT_NE(first, "");
  EXPECT_EQ(revision_key({Xapian::Database(dir.string())}), first);
  {
    Xapian::WritableDatabase w(dir.string(), Xapian::DB_OPEN);
    w.add_document(Xapian::Document());
    w.commit();
  }
  EXPECT_NE(revision_key({Xapian::Database(dir.string())}), first);
  std::filesystem::remove_all(dir);
}

TEST(RevisionTables, KeyOfShardsChangesWithACommitToAnyOfThem) {
  const auto dir = std::filesystem::temp_directory_path() / ("revision_tables_shards." + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string a = (dir / "shard-0").string(), b = (dir / "shard-1").string();
  auto commit = [](const std::string& path) {
    Xapian::WritableDatabase w(path, Xapian::DB_CREATE_OR_OPEN | Xapian::DB_BACKEND_GLASS);
    w.add_document(Xapian::Document());
    w.commit();
  };
  commit(a);
  commit(b);
  const std::string both = revision_key({Xapian::Database(a), Xapian::Database(b)});
  EXPECT_NE(both, "");
  EXPECT_NE(both, revision_key({Xapian::Database(a)}));
  commit(b);
  const std::string later = revision_key({Xapian::Database(a), Xapian::Database(b)});
  EXPECT_NE(later, both);
  // The same shards, a newer revision: what was kept for `both` is replaced,
  // and a searcher still at `both` gets a table of its own.
  RevisionTables tables;
  Maker make;
  auto f = [&] { return make(); };
  const auto newer = tables.keys(later, f);
  EXPECT_NE(tables.keys(both, f), newer);
  EXPECT_EQ(tables.keys(later, f), newer);
  EXPECT_EQ(make.calls, 2);
  std::filesystem::remove_all(dir);
}

TEST(RevisionTables, ThreadsAskingAtOnceGetOneTable) {
  RevisionTables tables;
  std::atomic<int> calls{0};
  std::vector<std::shared_ptr<const PublishedKeys>> got(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      // Each maker makes its own handle, as each searcher has one.
      got[t] = tables.keys("db-1:1", [&] {
        ++calls;
        return std::make_shared<const PublishedKeys>(std::vector<Xapian::Database>{empty_db()});
      });
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(std::set<std::shared_ptr<const PublishedKeys>>(got.begin(), got.end()).size(), 1u);
}

}  // namespace
}  // namespace blogsearch
