// stored_text.cc: the kSlotText codec (stored_text.h).
#include "record/stored_text.h"

#include <zlib.h>

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
  // A zlib stream inflates at most about 1032:1; a length past that is damage.
  if (n / 1032 > value.size()) return {};
  std::string out(n, '\0');
  uLongf got = n;
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &got,
                 reinterpret_cast<const Bytef*>(value.data() + kHeaderBytes),
                 static_cast<uLong>(value.size() - kHeaderBytes)) != Z_OK ||
      got != n)
    return {};
  return out;
}

}  // namespace blogsearch
