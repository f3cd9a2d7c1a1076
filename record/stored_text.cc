// stored_text.cc: the kSlotText codec (stored_text.h).
#include "record/stored_text.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>

namespace blogsearch {
namespace {

constexpr char kMarker[] = {'\0', 'Z'};
constexpr std::size_t kHeaderBytes = 6;
// Over blog-history's texts, level 1 takes 70% of level 6's time for 5%
// more bytes (both about half the text): ingest time matters more.
constexpr int kLevel = 1;

std::string stored_plain(std::string_view text) {
  if (text.empty() || text[0] != '\0') return std::string(text);
  return std::string("\0P", 2).append(text);
}

}  // namespace

std::string encode_stored_text(std::string_view text) {
  if (text.size() < kMinCompressedBytes || text.size() > 0xFFFFFFFFu) return stored_plain(text);
  uLongf bound = compressBound(static_cast<uLong>(text.size()));
  std::string out(kHeaderBytes + bound, '\0');
  out[0] = kMarker[0];
  out[1] = kMarker[1];
  const auto n = static_cast<std::uint32_t>(text.size());
  for (int i = 0; i < 4; ++i) out[2 + i] = static_cast<char>((n >> (24 - 8 * i)) & 0xFF);
  if (compress2(reinterpret_cast<Bytef*>(&out[kHeaderBytes]), &bound,
                reinterpret_cast<const Bytef*>(text.data()), static_cast<uLong>(text.size()), kLevel) != Z_OK ||
      kHeaderBytes + bound >= text.size())
    return stored_plain(text);
  out.resize(kHeaderBytes + bound);
  return out;
}

std::string decode_stored_text(std::string_view value) {
  if (value.size() >= 2 && value[0] == '\0' && value[1] == 'P') return std::string(value.substr(2));
  if (value.size() < kHeaderBytes || value[0] != kMarker[0] || value[1] != kMarker[1]) return std::string(value);
  std::uint32_t n = 0;
  for (int i = 0; i < 4; ++i) n = (n << 8) | static_cast<unsigned char>(value[2 + i]);
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

}  // namespace blogsearch
