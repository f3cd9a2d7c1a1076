// replay.cc: appearances -> versions, times, feeds, in_feed and text.
#include "indexer/replay.h"

#include <algorithm>
#include <tuple>

#include "indexer/document_builder.h"

namespace blogsearch {
namespace {

struct Seen {
  Time time;
  const std::string* feed;
  const std::string* hash;  // content hash, for the order of equal times and feeds
  std::uint32_t content;
};
}  // namespace

ReplayResult replay(PostHistory history, const std::map<std::string, Time>& newest,
                    const SnapshotPathFn& snapshot_path) {
  ReplayResult r;
  std::vector<std::string> hashes;
  hashes.reserve(history.contents.size());
  for (const auto& c : history.contents) hashes.push_back(content_hash(c));

  std::vector<Seen> seen;
  for (const auto& a : history.appearances)
    for (std::size_t i = 0; i < a.times.size() && i < a.contents.size(); ++i)
      if (a.contents[i] < history.contents.size())
        seen.push_back({a.times[i], &a.feed, &hashes[a.contents[i]], a.contents[i]});
  auto key = [](const Seen& s) { return std::tie(s.time, *s.feed, *s.hash); };
  std::sort(seen.begin(), seen.end(), [&](const Seen& x, const Seen& y) { return key(x) < key(y); });
  seen.erase(std::unique(seen.begin(), seen.end(), [&](const Seen& x, const Seen& y) { return key(x) == key(y); }),
             seen.end());

  PostHistory& out = r.history;
  out.ok = true;
  if (seen.empty()) return r;

  // Contents renumbered in order of first appearance.
  std::vector<std::int64_t> renumber(history.contents.size(), -1);
  for (const Seen& s : seen) {
    if (renumber[s.content] >= 0) continue;
    renumber[s.content] = static_cast<std::int64_t>(out.contents.size());
    out.contents.push_back(std::move(history.contents[s.content]));
  }

  // Appearances, per feed, in time order.
  std::map<std::string, FeedAppearances> per_feed;
  for (const Seen& s : seen) {
    FeedAppearances& f = per_feed[*s.feed];
    f.feed = *s.feed;
    f.times.push_back(s.time);
    f.contents.push_back(static_cast<std::uint32_t>(renumber[s.content]));
  }

  // Versions: runs of equal content.
  for (const Seen& s : seen) {
    const auto content = static_cast<std::uint32_t>(renumber[s.content]);
    if (out.versions.empty() || out.versions.back().content != content) {
      Version v;
      v.number = static_cast<int>(out.versions.size()) + 1;
      v.first_seen = s.time;
      v.content = content;
      if (!out.versions.empty()) v.changed = changed_fields(out.contents[out.versions.back().content], out.contents[content]);
      v.no_text = out.contents[content].text.empty();
      v.feed = *s.feed;
      v.snapshot = snapshot_path ? snapshot_path(*s.feed, s.time) : std::string();
      out.versions.push_back(std::move(v));
    }
    out.versions.back().last_seen = s.time;
  }
  out.last_change = out.versions.back().first_seen;

  r.current = out.versions.back().content;
  r.first_seen = seen.front().time;
  r.last_seen = seen.back().time;
  r.feed = *seen.back().feed;
  const VersionContent& current = out.contents[r.current];
  r.no_text = current.text.empty();
  r.text = current.text;
  for (auto v = out.versions.rbegin(); r.text.empty() && v != out.versions.rend(); ++v)
    r.text = out.contents[v->content].text;

  for (const auto& [feed, f] : per_feed) {
    r.feeds.push_back(feed);
    auto it = newest.find(feed);
    const Time since = it == newest.end() ? 0 : it->second;
    if (!f.times.empty() && f.times.back() >= since) r.in_feed = true;
  }
  for (auto& [feed, f] : per_feed) out.appearances.push_back(std::move(f));

  auto believable = [&](std::optional<Time> t) {
    return t && *t > r.first_seen + kFutureDateSlack ? std::optional<Time>(r.first_seen) : t;
  };
  r.published = believable(current.published);
  r.updated = believable(current.updated);
  return r;
}

}  // namespace blogsearch
