// database_error.h: how the indexer's database work fails.
//
// Thrown by the writer (writer.h), the spelling writer, rebuild, update and
// stats; the mains turn them into messages and exit codes. Plain types:
// nothing here throws.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace blogsearch {

// The database cannot be opened, created or written (path in the message).
class DatabaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The database is locked by another writer (exit 4 in the mains).
class DatabaseLocked : public DatabaseError {
 public:
  using DatabaseError::DatabaseError;
};
// Xapian found the database corrupt: it can only be rebuilt from the
// archive (the message says how). `detail` is Xapian's own message.
class DatabaseDamaged : public DatabaseError {
 public:
  DatabaseDamaged(const std::string& message, std::string xapian_message)
      : DatabaseError(message), detail(std::move(xapian_message)) {}
  std::string detail;
};

}  // namespace blogsearch
