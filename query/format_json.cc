#include "query/format.h"

#include <algorithm>

namespace blogsearch {

namespace {

// Stored times are RFC 3339 strings; a missing one is null, not "".
nlohmann::json time_or_null(const std::string& t) {
  return t.empty() ? nlohmann::json(nullptr) : nlohmann::json(t);
}

std::string plain_snippet(const std::vector<SnippetPart>& parts) {
  std::string out;
  for (const auto& p : parts) out += p.text;
  return out;
}

}  // namespace

nlohmann::json post_to_json(const PostRecord& p, const JsonOptions& options) {
  nlohmann::json j = {
      {"docid", p.docid},
      {"id", p.id},
      {"link", p.link},
      {"title", p.title},
      {"authors", p.authors},
      {"categories", p.categories},
      {"feed", {{"id", p.feed_id}, {"title", p.feed_title}, {"url", p.feed_url}}},
      {"feeds", p.feeds},
      {"published", time_or_null(p.published)},
      {"updated", time_or_null(p.updated)},
      {"first_seen", time_or_null(p.first_seen)},
      {"last_seen", time_or_null(p.last_seen)},
      {"last_change", time_or_null(p.last_change)},
      {"versions", p.versions},
      {"in_feed", p.in_feed},
      {"no_text", p.no_text},
      {"summary", p.summary},
      {"content_hash", p.content_hash},
  };
  if (options.with_paths) j["snapshot"] = p.snapshot;
  if (options.with_text) j["text"] = p.text;
  return j;
}

nlohmann::json history_to_json(const PostHistory& h, std::size_t max_versions, bool with_paths) {
  nlohmann::json versions = nlohmann::json::array();
  const std::size_t skip = h.versions.size() - std::min(h.versions.size(), max_versions);
  for (auto it = h.versions.begin() + static_cast<std::ptrdiff_t>(skip); it != h.versions.end(); ++it) {
    const Version& v = *it;
    nlohmann::json j = {{"number", v.number},
                        {"first_seen", format_time(v.first_seen)},
                        {"last_seen", format_time(v.last_seen)},
                        {"changed", v.changed},
                        {"no_text", v.no_text},
                        {"feed", v.feed}};
    if (with_paths) j["snapshot"] = v.snapshot;
    versions.push_back(std::move(j));
  }
  return versions;
}

nlohmann::json result_to_json(const SearchResult& r, const JsonOptions& options) {
  nlohmann::json results = nlohmann::json::array();
  for (const auto& hit : r.hits) {
    nlohmann::json j = post_to_json(*hit.post, options);
    // A post seen in thousands of snapshots has many versions: a search
    // shows them only when asked (--history, &history=1).
    if (options.with_history && hit.history)
      j["history"] = history_to_json(*hit.history, kAllVersions, options.with_paths);
    j["rank"] = hit.rank;
    j["percent"] = hit.percent;
    j["weight"] = hit.weight;
    j["snippet"] = plain_snippet(hit.snippet);
    nlohmann::json parts = nlohmann::json::array();
    for (const auto& p : hit.snippet) parts.push_back({{"text", p.text}, {"match", p.match}});
    j["snippet_parts"] = std::move(parts);
    results.push_back(std::move(j));
  }
  nlohmann::json facets = nlohmann::json::object();
  for (const auto& f : r.facets) {
    nlohmann::json values = nlohmann::json::array();
    for (const auto& v : f.values)
      values.push_back({{"value", v.value}, {"label", v.label}, {"count", v.count}});
    facets[std::string(facet_name(f.kind))] = std::move(values);
  }
  nlohmann::json unknown = nlohmann::json::array();
  for (const auto& u : r.unknown_filters)
    unknown.push_back({{"field", u.field}, {"value", u.value}, {"suggestions", u.suggestions}});
  return {
      {"query", r.query},
      {"parsed_query", r.parsed_query},
      {"sort", r.sort},
      {"reverse", r.reverse},
      {"total",
       {{"estimated", r.total.estimated},
        {"lower_bound", r.total.lower},
        {"upper_bound", r.total.upper},
        {"exact", r.total.exact()}}},
      {"offset", r.offset},
      {"limit", r.limit},
      {"results", std::move(results)},
      {"facets", std::move(facets)},
      // Past SearchRequest::facet_bound matches the counts are estimates.
      {"facet_counts",
       {{"estimated", r.facet_counting.estimated},
        {"sample_stride", r.facet_counting.stride},
        {"sampled", r.facet_counting.sampled}}},
      {"suggestion", r.suggestion.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.suggestion)},
      {"any_word", r.any_word},
      {"searched_as_words",
       r.searched_as_words.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.searched_as_words)},
      {"unknown_filters", std::move(unknown)},
      {"elapsed_ms", r.elapsed_ms},
      {"partial", r.partial},
  };
}

nlohmann::json diff_to_json(const TextDiff& diff) {
  nlohmann::json parts = nlohmann::json::array();
  for (const auto& p : diff.parts) {
    const char* op = p.op == DiffPart::Op::kSame ? "same" : p.op == DiffPart::Op::kRemoved ? "removed" : "added";
    parts.push_back({{"op", op}, {"text", p.lead + p.text}});
  }
  return {{"parts", std::move(parts)},
          {"words_removed", diff.words_removed},
          {"words_added", diff.words_added},
          {"coarse", diff.coarse},
          {"cut", diff.cut}};
}

std::string dump_json(const nlohmann::json& value, bool pretty) {
  return value.dump(pretty ? 2 : -1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace blogsearch
