// The replay rules (indexer/replay.h) on hand-made histories: versions,
// times, feeds, in_feed and text, and that the order appearances come in
// never matters.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "indexer/replay.h"

namespace blogsearch {
namespace {

VersionContent content(const std::string& title, const std::string& text) {
  VersionContent c;
  c.title = title;
  c.text = text;
  c.link = "https://blog.example.org/post";
  c.authors = {"Ada"};
  return c;
}

// Builds a history from (feed, time, content) triples, in the order given.
struct Seen {
  std::string feed;
  Time time;
  VersionContent content;
};

PostHistory history_of(const std::vector<Seen>& seen) {
  PostHistory h;
  for (const auto& s : seen) {
    std::uint32_t c = 0;
    while (c < h.contents.size() && h.contents[c] != s.content) ++c;
    if (c == h.contents.size()) h.contents.push_back(s.content);
    auto a = std::find_if(h.appearances.begin(), h.appearances.end(),
                          [&](const FeedAppearances& f) { return f.feed == s.feed; });
    if (a == h.appearances.end()) {
      h.appearances.push_back({s.feed, {}, {}});
      a = h.appearances.end() - 1;
    }
    a->times.push_back(s.time);
    a->contents.push_back(c);
  }
  return h;
}

std::string path_of(const std::string& feed, Time t) { return feed + "/" + std::to_string(t) + ".xml"; }

ReplayResult run(const std::vector<Seen>& seen, const std::map<std::string, Time>& newest = {}) {
  return replay(history_of(seen), newest, path_of);
}

const VersionContent kA = content("Title", "first text");
const VersionContent kB = content("Title", "second text");
const VersionContent kC = content("Other title", "second text");

TEST(Replay, OneAppearanceIsOneVersion) {
  ReplayResult r = run({{"f", 100, kA}}, {{"f", 100}});
  ASSERT_EQ(r.history.versions.size(), 1u);
  const Version& v = r.history.versions[0];
  EXPECT_EQ(v.number, 1);
  EXPECT_EQ(v.first_seen, 100);
  EXPECT_EQ(v.last_seen, 100);
  EXPECT_TRUE(v.changed.empty());
  EXPECT_EQ(v.snapshot, "f/100.xml");
  EXPECT_EQ(r.first_seen, 100);
  EXPECT_EQ(r.last_seen, 100);
  EXPECT_EQ(r.history.last_change, 100);
  EXPECT_EQ(r.text, "first text");
  EXPECT_TRUE(r.in_feed);
  EXPECT_EQ(r.feeds, std::vector<std::string>{"f"});
}

TEST(Replay, AnEditIsANewVersionNamingWhatChanged) {
  ReplayResult r = run({{"f", 100, kA}, {"f", 200, kA}, {"f", 300, kB}, {"f", 400, kC}}, {{"f", 400}});
  ASSERT_EQ(r.history.versions.size(), 3u);
  EXPECT_EQ(r.history.versions[0].last_seen, 200);
  EXPECT_EQ(r.history.versions[1].first_seen, 300);
  EXPECT_EQ(r.history.versions[1].changed, std::vector<std::string>{"text"});
  EXPECT_EQ(r.history.versions[2].changed, std::vector<std::string>{"title"});
  EXPECT_EQ(r.history.last_change, 400);
  EXPECT_EQ(r.history.content_of(r.history.versions.back()).title, "Other title");
  EXPECT_EQ(r.text, "second text");
}

// A revert is a change of what the index shows: version 3, whose content
// is version 1's (stored once).
TEST(Replay, ARevertIsANewVersionWithTheFirstContent) {
  ReplayResult r = run({{"f", 100, kA}, {"f", 200, kB}, {"f", 300, kA}}, {{"f", 300}});
  ASSERT_EQ(r.history.versions.size(), 3u);
  EXPECT_EQ(r.history.versions[2].content, r.history.versions[0].content);
  EXPECT_EQ(r.history.contents.size(), 2u);
  EXPECT_EQ(r.text, "first text");
  EXPECT_EQ(r.history.last_change, 300);
}

// Issue 15 point 6: each version starts when it was first observed, not
// when the one before was last seen.
TEST(Replay, AVersionStartsWhenItWasFirstObserved) {
  ReplayResult r = run({{"f", 100, kA}, {"f", 200, kA}, {"f", 900, kB}});
  ASSERT_EQ(r.history.versions.size(), 2u);
  EXPECT_EQ(r.history.versions[1].first_seen, 900);
  EXPECT_EQ(r.history.versions[0].last_seen, 200);
}

// Issue 15 point 3: an older snapshot arriving after a newer one still
// makes its version, in its place in time.
TEST(Replay, AnOlderSnapshotFindsItsPlace) {
  ReplayResult late = run({{"f", 300, kB}, {"f", 100, kA}});
  ReplayResult in_order = run({{"f", 100, kA}, {"f", 300, kB}});
  ASSERT_EQ(late.history.versions.size(), 2u);
  EXPECT_EQ(encode_post_history(late.history), encode_post_history(in_order.history));
  EXPECT_EQ(late.text, "second text");
  EXPECT_EQ(late.first_seen, 100);
}

// An older snapshot in the middle of a run splits it.
TEST(Replay, AnOlderSnapshotSplitsARun) {
  ReplayResult r = run({{"f", 100, kA}, {"f", 300, kA}, {"f", 200, kB}});
  ASSERT_EQ(r.history.versions.size(), 3u);
  EXPECT_EQ(r.history.versions[0].last_seen, 100);
  EXPECT_EQ(r.history.versions[1].first_seen, 200);
  EXPECT_EQ(r.history.versions[2].first_seen, 300);
  EXPECT_EQ(r.history.versions[2].snapshot, "f/300.xml");
}

// in_feed: in the newest complete snapshot of some feed carrying it.
TEST(Replay, DroppingOutOfTheFeed) {
  EXPECT_FALSE(run({{"f", 100, kA}}, {{"f", 200}}).in_feed);
  EXPECT_TRUE(run({{"f", 100, kA}, {"f", 200, kA}}, {{"f", 200}}).in_feed);
  // Back in a later snapshot.
  EXPECT_TRUE(run({{"f", 100, kA}, {"f", 300, kA}}, {{"f", 300}}).in_feed);
  // A body cut short after the newest complete one still counts.
  EXPECT_TRUE(run({{"f", 300, kA}}, {{"f", 200}}).in_feed);
  // A feed with no complete snapshot: every appearance counts.
  EXPECT_TRUE(run({{"f", 100, kA}}, {}).in_feed);
}

// Issue 15 points 4 and 5: two feeds, also seen in the same second.
TEST(Replay, TwoFeeds) {
  ReplayResult r = run({{"b", 100, kA}, {"a", 100, kA}, {"a", 200, kB}}, {{"a", 300}, {"b", 100}});
  EXPECT_EQ(r.feeds, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(r.in_feed);  // b's newest snapshot has it, a's does not
  ASSERT_EQ(r.history.versions.size(), 2u);
  EXPECT_EQ(r.history.versions[0].feed, "a");  // same second: feed order
  EXPECT_EQ(r.feed, "a");
  EXPECT_EQ(r.history.appearances.size(), 2u);
  EXPECT_FALSE(run({{"b", 100, kA}, {"a", 100, kA}}, {{"a", 300}, {"b", 300}}).in_feed);
}

// Two feeds with different content in the same second: the order of the
// result is by feed, then content, whatever order they came in.
TEST(Replay, SameSecondDifferentContentIsOrdered) {
  ReplayResult one = run({{"a", 100, kA}, {"b", 100, kB}});
  ReplayResult two = run({{"b", 100, kB}, {"a", 100, kA}});
  EXPECT_EQ(encode_post_history(one.history), encode_post_history(two.history));
  EXPECT_EQ(one.history.versions.size(), 2u);
}

// Issue 15 point 8: an empty text keeps the last non-empty one searchable.
TEST(Replay, NoTextKeepsTheLastText) {
  ReplayResult r = run({{"f", 100, kA}, {"f", 200, kB}, {"f", 300, content("Title", "")}});
  ASSERT_EQ(r.history.versions.size(), 3u);
  EXPECT_TRUE(r.history.versions[2].no_text);
  EXPECT_FALSE(r.history.versions[1].no_text);
  EXPECT_TRUE(r.no_text);
  EXPECT_EQ(r.text, "second text");
  // Text again: no_text is over.
  ReplayResult back = run({{"f", 100, kA}, {"f", 300, content("Title", "")}, {"f", 400, kB}});
  EXPECT_FALSE(back.no_text);
  EXPECT_EQ(back.text, "second text");
}

TEST(Replay, ADuplicateAppearanceCountsOnce) {
  ReplayResult r = run({{"f", 100, kA}, {"f", 100, kA}, {"f", 200, kA}});
  EXPECT_EQ(r.history.appearances[0].times, (std::vector<std::int64_t>{100, 200}));
}

// A date more than a day after the first seen time stands for first seen;
// versions see it as written.
TEST(Replay, FutureDatesAreSettledAgainstFirstSeen) {
  VersionContent future = kA;
  future.published = 100 + kFutureDateSlack + 1;
  ReplayResult r = run({{"f", 100, future}});
  EXPECT_EQ(r.published, std::optional<Time>(100));
  EXPECT_EQ(r.history.content_of(r.history.versions[0]).published, future.published);
  // An older snapshot arriving later moves first seen, and so the date.
  ReplayResult later = run({{"f", 100, future}, {"f", 50, future}});
  EXPECT_EQ(later.published, std::optional<Time>(50));
  VersionContent near = kA;
  near.published = 100 + kFutureDateSlack;
  EXPECT_EQ(run({{"f", 100, near}}).published, near.published);
}

TEST(Replay, NoAppearancesNoVersions) {
  ReplayResult r = replay(PostHistory(), {}, path_of);
  EXPECT_TRUE(r.history.versions.empty());
}

// The rule itself: any order of the same appearances, the same result.
TEST(Replay, OrderDoesNotMatter) {
  std::mt19937 rng(15);
  const std::vector<VersionContent> pool = {kA, kB, kC, content("T", "")};
  for (int round = 0; round < 200; ++round) {
    std::vector<Seen> seen;
    const int n = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i)
      seen.push_back({rng() % 2 ? "a" : "b", static_cast<Time>(100 * (1 + rng() % 6)), pool[rng() % pool.size()]});
    const std::map<std::string, Time> newest = {{"a", 400}, {"b", 600}};
    ReplayResult first = run(seen, newest);
    for (int k = 0; k < 5; ++k) {
      std::shuffle(seen.begin(), seen.end(), rng);
      ReplayResult again = run(seen, newest);
      ASSERT_EQ(encode_post_history(again.history), encode_post_history(first.history)) << "round " << round;
      EXPECT_EQ(again.text, first.text);
      EXPECT_EQ(again.in_feed, first.in_feed);
      EXPECT_EQ(again.feeds, first.feeds);
      EXPECT_EQ(again.feed, first.feed);
    }
  }
}

}  // namespace
}  // namespace blogsearch
