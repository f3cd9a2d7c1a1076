// stored_text.h: the post's plain text as kept in schema::kSlotText, encoded
// by the writer and decoded by every reader, side by side in stored_text.cc.
//
// Glass compresses document data but stores values as they are, and the
// plain text was a fifth of the database (issue 17). Every search decodes
// the text of each result it shows (for its snippet), so the codec is LZ4,
// which decodes several times faster than zlib: with zlib, inflating ten
// results' texts was a quarter of a search's instructions. A text of at
// least kMinCompressedBytes is stored LZ4-compressed when that makes it
// smaller:
//   "\0L" + its length in bytes (4 bytes, big-endian) + one LZ4 block.
// Databases written before hold "\0Z" + length + a zlib stream, which still
// decodes. Shorter or incompressible texts are stored as they are, except
// one that starts with NUL (never seen from a feed, but possible in a JSON
// Feed), which is stored as "\0P" + the text: the forms cannot be
// confused, and a database written before compression (all plain) reads
// the same.
//
// encode_stored_text() throws only std::bad_alloc. decode_stored_text()
// throws only std::bad_alloc: a damaged compressed value decodes to "" when
// the damage shows (a wrong length, a cut or malformed block; an LZ4 block
// carries no checksum, so a changed literal byte reads as another text of
// the stated length, as a changed plain value would).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace blogsearch {

inline constexpr std::size_t kMinCompressedBytes = 256;

std::string encode_stored_text(std::string_view text);
std::string decode_stored_text(std::string_view value);

}  // namespace blogsearch
