// revision_tables.cc: one FacetTable and one PublishedKeys per revision.
#include "query/revision_tables.h"

#include "query/facets.h"
#include "query/sort_keys.h"

namespace blogsearch {

namespace {

// "uuid:revision" <-> its two parts.
bool split(const std::string& key, std::string* uuid, Xapian::rev* number) {
  const std::size_t colon = key.rfind(':');
  if (key.empty() || colon == std::string::npos || colon + 1 >= key.size()) return false;
  *uuid = key.substr(0, colon);
  *number = static_cast<Xapian::rev>(std::stoull(key.substr(colon + 1)));
  return !uuid->empty();
}

}  // namespace

std::string revision_key(const std::vector<Xapian::Database>& shards) {
  try {
    std::string uuids;
    Xapian::rev sum = 0;
    for (const Xapian::Database& shard : shards) {
      const std::string uuid = shard.get_uuid();
      if (uuid.empty()) return "";
      if (!uuids.empty()) uuids += ',';
      uuids += uuid;
      sum += shard.get_revision();
    }
    return uuids.empty() ? "" : uuids + ":" + std::to_string(sum);
  } catch (const Xapian::Error&) {
    return "";  // a backend that cannot say: nothing is shared
  }
}

bool RevisionTables::at(const std::string& uuid, Xapian::rev number) {
  if (any_ && uuid == uuid_ && number == revision_) return true;
  // Another database (a rebuild's new generation has another uuid) or a
  // newer revision replaces what is kept; an older one of the same is not.
  if (any_ && uuid == uuid_ && number < revision_) return false;
  uuid_ = uuid;
  revision_ = number;
  any_ = true;
  keys_.reset();
  facets_.reset();
  return true;
}

std::shared_ptr<const PublishedKeys> RevisionTables::keys(
    const std::string& revision, const std::function<std::shared_ptr<const PublishedKeys>()>& make) {
  std::string uuid;
  Xapian::rev number = 0;
  if (!split(revision, &uuid, &number)) return make();
  std::lock_guard<std::mutex> hold(lock_);
  if (!at(uuid, number)) return make();
  if (!keys_) {
    keys_ = make();
    ++made_;
  }
  return keys_;
}

std::shared_ptr<const FacetTable> RevisionTables::facets(
    const std::string& revision, const std::function<std::shared_ptr<const FacetTable>()>& make) {
  std::string uuid;
  Xapian::rev number = 0;
  if (!split(revision, &uuid, &number)) return make();
  std::lock_guard<std::mutex> hold(lock_);
  if (!at(uuid, number)) return make();
  if (!facets_) {
    facets_ = make();
    ++made_;
  }
  return facets_;
}

long RevisionTables::made() const {
  std::lock_guard<std::mutex> hold(lock_);
  return made_;
}

}  // namespace blogsearch
