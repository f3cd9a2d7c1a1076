// stored_text.cc: the kSlotText codec (stored_text.h).
#include "record/stored_text.h"

#include <lz4.h>
#include <zlib.h>

#include <algorithm>
#include <cstdint>

namespace blogsearch {
namespace {

constexpr char kLz4Marker[] = {'\0', 'L'};
constexpr char kZlibMarker[] = {'\0', 'Z'};  // written before LZ4
constexpr std::size_t kHeaderBytes = 6;
// LZ4 cannot expand a block more than this (a damaged length is refused
// before anything is allocated for it).
constexpr std::size_t kMaxLz4Ratio = 255;

std::string stored_plain(std::string_view text) {
  if (text.empty() || text[0] != '\0') return std::string(text);
  return std::string("\0P", 2).append(text);
}

std::uint32_t stated_length(std::string_view value) {
  std::uint32_t n = 0;
  for (int i = 0; i < 4; ++i) n = (n << 8) | static_cast<unsigned char>(value[2 + i]);
  return n;
}

std::string decode_lz4(std::string_view value) {
  const std::uint32_t n = stated_length(value);
  const std::size_t in = value.size() - kHeaderBytes;
  if (n > in * kMaxLz4Ratio + 16 || in > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE)) return {};
  std::string out(n, '\0');
  const int got = LZ4_decompress_safe(value.data() + kHeaderBytes, out.data(), static_cast<int>(in), static_cast<int>(n));
  if (got < 0 || static_cast<std::uint32_t>(got) != n) return {};
  return out;
}

std::string decode_zlib(std::string_view value) {
  const std::uint32_t n = stated_length(value);
  // Inflated a piece at a time: memory follows what the stream gives, not
  // what a damaged header claims, and stops at the length it states.
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return {};
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(value.data() + kHeaderBytes));
  z.avail_in = static_cast<uInt>(value.size() - kHeaderBytes);
  std::string out;
  int rc = Z_OK;
  while (rc == Z_OK && out.size() < n) {
    const std::size_t have = out.size();
    out.resize(have + std::min<std::size_t>(n - have, 1u << 16));
    z.next_out = reinterpret_cast<Bytef*>(&out[have]);
    z.avail_out = static_cast<uInt>(out.size() - have);
    rc = inflate(&z, Z_NO_FLUSH);
    out.resize(out.size() - z.avail_out);
  }
  // The stream must end exactly at the stated length.
  if (rc == Z_OK && out.size() == n) rc = inflate(&z, Z_FINISH) == Z_STREAM_END ? Z_STREAM_END : Z_DATA_ERROR;
  inflateEnd(&z);
  if (rc != Z_STREAM_END || out.size() != n) return {};
  return out;
}

}  // namespace

std::string encode_stored_text(std::string_view text) {
  if (text.size() < kMinCompressedBytes || text.size() > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE))
    return stored_plain(text);
  const int bound = LZ4_compressBound(static_cast<int>(text.size()));
  std::string out(kHeaderBytes + static_cast<std::size_t>(bound), '\0');
  out[0] = kLz4Marker[0];
  out[1] = kLz4Marker[1];
  const auto n = static_cast<std::uint32_t>(text.size());
  for (int i = 0; i < 4; ++i) out[2 + i] = static_cast<char>((n >> (24 - 8 * i)) & 0xFF);
  const int size = LZ4_compress_default(text.data(), &out[kHeaderBytes], static_cast<int>(text.size()), bound);
  if (size <= 0 || kHeaderBytes + static_cast<std::size_t>(size) >= text.size()) return stored_plain(text);
  out.resize(kHeaderBytes + static_cast<std::size_t>(size));
  return out;
}

std::string decode_stored_text(std::string_view value) {
  if (value.size() >= 2 && value[0] == '\0' && value[1] == 'P') return std::string(value.substr(2));
  if (value.size() < kHeaderBytes || value[0] != '\0') return std::string(value);
  if (value[1] == kLz4Marker[1]) return decode_lz4(value);
  if (value[1] == kZlibMarker[1]) return decode_zlib(value);
  return std::string(value);
}

}  // namespace blogsearch
