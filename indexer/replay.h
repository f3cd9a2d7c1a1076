// replay.h: THE rules of a post's history, as one pure function.
//
// The database is a function of the set of snapshots ingested: whatever
// order and batching they come in, a post's versions, first and last seen
// times, in_feed, feeds and text are computed here from the set of its
// appearances alone, which the writer keeps in the post's history
// (record/post_history.h) and merges with each run's new ones.
//
// The rules:
//   - Appearances are put in time order, then feed id, then content hash:
//     a total order, so the result cannot depend on the order they came in.
//     An appearance equal to another (feed, time and content) counts once.
//   - A version is a run of appearances with equal content (what the index
//     shows: title, text, summary, link, dates, authors, categories; not the
//     raw HTML). Content that returns (A, B, A) is a new version, number 3,
//     whose content is version 1's: the index showed something else between.
//   - A version's first and last seen are the times of its run's first and
//     last appearance; its snapshot is the archive file of the first.
//   - The current version is the last; last_change is when it was first seen.
//   - The text searched is the current version's; when that is empty (the
//     feed stopped sending text) it is the last non-empty text before it,
//     and no_text says so.
//   - feeds: every feed with an appearance (sorted); feed: the feed of the
//     last appearance.
//   - in_feed: some feed carrying the post has it in its newest snapshot:
//     an appearance in feed F at or after F's newest complete snapshot
//     (a feed with no complete snapshot: any appearance).
//   - A published or updated date more than a day after the post's first
//     seen time is not believed: first seen stands in for it (a 9999 date
//     would rank first by recency for ever). Versions compare the dates as
//     written.
//
// Contents are renumbered in order of first appearance and unused ones
// dropped, so equal sets of appearances give equal histories. Never throws
// except std::bad_alloc (and what `snapshot_path` throws).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "indexer/post.h"
#include "record/post_history.h"

namespace blogsearch {

// The archive file of the snapshot of `feed` observed at `time` ("" when
// unknown): only asked for the first appearance of each version.
using SnapshotPathFn = std::function<std::string(const std::string& feed, Time time)>;

struct ReplayResult {
  PostHistory history;        // appearances sorted, versions and last_change filled
  std::uint32_t current = 0;  // content index of the current version
  std::string text;           // the text to search
  bool no_text = false;       // the current version has none (text is an earlier one's)
  Time first_seen = 0, last_seen = 0;
  std::optional<Time> published, updated;  // as shown (see above)
  std::vector<std::string> feeds;          // sorted
  std::string feed;                        // of the last appearance
  bool in_feed = false;
};

// `history` holds the post's contents and appearances (versions in it are
// ignored and recomputed); `newest` maps feed id -> observed time of its
// newest complete snapshot (a feed missing from it has none). A history
// without appearances gives an empty result (no versions).
ReplayResult replay(PostHistory history, const std::map<std::string, Time>& newest,
                    const SnapshotPathFn& snapshot_path);

// How far past its first seen time a date is still believed.
inline constexpr Time kFutureDateSlack = 24 * 60 * 60;

}  // namespace blogsearch
