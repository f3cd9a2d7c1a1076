// encoding.cc: choosing a feed's encoding and decoding it to UTF-8.
#include "indexer/encoding.h"

#include <iconv.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace blogsearch {
namespace {

using Kind = Encoding::Kind;

// Where the standard's decoder is a superset of an older charset, iconv is
// asked for that superset: GBK is read by gb18030's decoder so that GBK
// characters in a "gb2312" feed decode, Shift_JIS is windows-31j, Big5 is
// Big5-HKSCS and EUC-KR is windows-949. windows-1252 and x-user-defined are
// decoded here by table, the first because it is by far the commonest legacy
// encoding of feeds and a table is faster than iconv.
const Encoding kUtf8{"UTF-8", "UTF-8", Kind::kUtf8};
const Encoding kUtf16Le{"UTF-16LE", "UTF-16LE", Kind::kUtf16Le};
const Encoding kUtf16Be{"UTF-16BE", "UTF-16BE", Kind::kUtf16Be};
const Encoding kUtf32Le{"UTF-32LE", "UTF-32LE", Kind::kUtf32Le};
const Encoding kUtf32Be{"UTF-32BE", "UTF-32BE", Kind::kUtf32Be};
const Encoding kIbm866{"IBM866", "IBM866", Kind::kAscii};
const Encoding kIso8859_2{"ISO-8859-2", "ISO-8859-2", Kind::kAscii};
const Encoding kIso8859_3{"ISO-8859-3", "ISO-8859-3", Kind::kAscii};
const Encoding kIso8859_4{"ISO-8859-4", "ISO-8859-4", Kind::kAscii};
const Encoding kIso8859_5{"ISO-8859-5", "ISO-8859-5", Kind::kAscii};
const Encoding kIso8859_6{"ISO-8859-6", "ISO-8859-6", Kind::kAscii};
const Encoding kIso8859_7{"ISO-8859-7", "ISO-8859-7", Kind::kAscii};
const Encoding kIso8859_8{"ISO-8859-8", "ISO-8859-8", Kind::kAscii};
const Encoding kIso8859_8I{"ISO-8859-8-I", "ISO-8859-8", Kind::kAscii};
const Encoding kIso8859_10{"ISO-8859-10", "ISO-8859-10", Kind::kAscii};
const Encoding kIso8859_13{"ISO-8859-13", "ISO-8859-13", Kind::kAscii};
const Encoding kIso8859_14{"ISO-8859-14", "ISO-8859-14", Kind::kAscii};
const Encoding kIso8859_15{"ISO-8859-15", "ISO-8859-15", Kind::kAscii};
const Encoding kIso8859_16{"ISO-8859-16", "ISO-8859-16", Kind::kAscii};
const Encoding kKoi8R{"KOI8-R", "KOI8-R", Kind::kAscii};
// The standard's KOI8-U table has KOI8-RU's Ў and ў at 0xAE and 0xBE.
const Encoding kKoi8U{"KOI8-U", "KOI8-RU", Kind::kAscii};
const Encoding kMacintosh{"macintosh", "MACINTOSH", Kind::kAscii};
const Encoding kWindows874{"windows-874", "WINDOWS-874", Kind::kAscii};
const Encoding kWindows1250{"windows-1250", "WINDOWS-1250", Kind::kAscii};
const Encoding kWindows1251{"windows-1251", "WINDOWS-1251", Kind::kAscii};
const Encoding kWindows1252{"windows-1252", "", Kind::kAscii};
const Encoding kWindows1253{"windows-1253", "WINDOWS-1253", Kind::kAscii};
const Encoding kWindows1254{"windows-1254", "WINDOWS-1254", Kind::kAscii};
const Encoding kWindows1255{"windows-1255", "WINDOWS-1255", Kind::kAscii};
const Encoding kWindows1256{"windows-1256", "WINDOWS-1256", Kind::kAscii};
const Encoding kWindows1257{"windows-1257", "WINDOWS-1257", Kind::kAscii};
const Encoding kWindows1258{"windows-1258", "WINDOWS-1258", Kind::kAscii};
const Encoding kMacCyrillic{"x-mac-cyrillic", "MAC-CYRILLIC", Kind::kAscii};
const Encoding kGbk{"GBK", "GB18030", Kind::kAscii};
const Encoding kGb18030{"gb18030", "GB18030", Kind::kAscii};
const Encoding kBig5{"Big5", "BIG5-HKSCS", Kind::kAscii};
const Encoding kEucJp{"EUC-JP", "EUC-JP", Kind::kAscii};
const Encoding kIso2022Jp{"ISO-2022-JP", "ISO-2022-JP", Kind::kSevenBit};
const Encoding kShiftJis{"Shift_JIS", "WINDOWS-31J", Kind::kAscii};
const Encoding kEucKr{"EUC-KR", "CP949", Kind::kAscii};
// The standard maps these labels to its "replacement" encoding, which turns a
// whole HTML page into one U+FFFD so that no script hides in it; a feed's text
// is only indexed, so it is decoded where iconv can (it has no HZ).
const Encoding kIso2022Kr{"ISO-2022-KR", "ISO-2022-KR", Kind::kSevenBit};
const Encoding kIso2022Cn{"ISO-2022-CN", "ISO-2022-CN-EXT", Kind::kSevenBit};
const Encoding kHz{"HZ-GB-2312", "HZ", Kind::kSevenBit};
const Encoding kUserDefined{"x-user-defined", "", Kind::kAscii};

struct Label {
  const char* label;
  const Encoding* encoding;
};

// The WHATWG Encoding Standard's label table, plus the UTF-32 labels.
const Label kLabels[] = {
    {"unicode-1-1-utf-8", &kUtf8}, {"unicode11utf8", &kUtf8}, {"unicode20utf8", &kUtf8},
    {"utf-8", &kUtf8}, {"utf8", &kUtf8}, {"x-unicode20utf8", &kUtf8},
    {"866", &kIbm866}, {"cp866", &kIbm866}, {"csibm866", &kIbm866}, {"ibm866", &kIbm866},
    {"csisolatin2", &kIso8859_2}, {"iso-8859-2", &kIso8859_2}, {"iso-ir-101", &kIso8859_2},
    {"iso8859-2", &kIso8859_2}, {"iso88592", &kIso8859_2}, {"iso_8859-2", &kIso8859_2},
    {"iso_8859-2:1987", &kIso8859_2}, {"l2", &kIso8859_2}, {"latin2", &kIso8859_2},
    {"csisolatin3", &kIso8859_3}, {"iso-8859-3", &kIso8859_3}, {"iso-ir-109", &kIso8859_3},
    {"iso8859-3", &kIso8859_3}, {"iso88593", &kIso8859_3}, {"iso_8859-3", &kIso8859_3},
    {"iso_8859-3:1988", &kIso8859_3}, {"l3", &kIso8859_3}, {"latin3", &kIso8859_3},
    {"csisolatin4", &kIso8859_4}, {"iso-8859-4", &kIso8859_4}, {"iso-ir-110", &kIso8859_4},
    {"iso8859-4", &kIso8859_4}, {"iso88594", &kIso8859_4}, {"iso_8859-4", &kIso8859_4},
    {"iso_8859-4:1988", &kIso8859_4}, {"l4", &kIso8859_4}, {"latin4", &kIso8859_4},
    {"csisolatincyrillic", &kIso8859_5}, {"cyrillic", &kIso8859_5}, {"iso-8859-5", &kIso8859_5},
    {"iso-ir-144", &kIso8859_5}, {"iso8859-5", &kIso8859_5}, {"iso88595", &kIso8859_5},
    {"iso_8859-5", &kIso8859_5}, {"iso_8859-5:1988", &kIso8859_5},
    {"arabic", &kIso8859_6}, {"asmo-708", &kIso8859_6}, {"csiso88596e", &kIso8859_6},
    {"csiso88596i", &kIso8859_6}, {"csisolatinarabic", &kIso8859_6}, {"ecma-114", &kIso8859_6},
    {"iso-8859-6", &kIso8859_6}, {"iso-8859-6-e", &kIso8859_6}, {"iso-8859-6-i", &kIso8859_6},
    {"iso-ir-127", &kIso8859_6}, {"iso8859-6", &kIso8859_6}, {"iso88596", &kIso8859_6},
    {"iso_8859-6", &kIso8859_6}, {"iso_8859-6:1987", &kIso8859_6},
    {"csisolatingreek", &kIso8859_7}, {"ecma-118", &kIso8859_7}, {"elot_928", &kIso8859_7},
    {"greek", &kIso8859_7}, {"greek8", &kIso8859_7}, {"iso-8859-7", &kIso8859_7},
    {"iso-ir-126", &kIso8859_7}, {"iso8859-7", &kIso8859_7}, {"iso88597", &kIso8859_7},
    {"iso_8859-7", &kIso8859_7}, {"iso_8859-7:1987", &kIso8859_7}, {"sun_eu_greek", &kIso8859_7},
    {"csiso88598e", &kIso8859_8}, {"csisolatinhebrew", &kIso8859_8}, {"hebrew", &kIso8859_8},
    {"iso-8859-8", &kIso8859_8}, {"iso-8859-8-e", &kIso8859_8}, {"iso-ir-138", &kIso8859_8},
    {"iso8859-8", &kIso8859_8}, {"iso88598", &kIso8859_8}, {"iso_8859-8", &kIso8859_8},
    {"iso_8859-8:1988", &kIso8859_8}, {"visual", &kIso8859_8},
    {"csiso88598i", &kIso8859_8I}, {"iso-8859-8-i", &kIso8859_8I}, {"logical", &kIso8859_8I},
    {"csisolatin6", &kIso8859_10}, {"iso-8859-10", &kIso8859_10}, {"iso-ir-157", &kIso8859_10},
    {"iso8859-10", &kIso8859_10}, {"iso885910", &kIso8859_10}, {"l6", &kIso8859_10},
    {"latin6", &kIso8859_10},
    {"iso-8859-13", &kIso8859_13}, {"iso8859-13", &kIso8859_13}, {"iso885913", &kIso8859_13},
    {"iso-8859-14", &kIso8859_14}, {"iso8859-14", &kIso8859_14}, {"iso885914", &kIso8859_14},
    {"csisolatin9", &kIso8859_15}, {"iso-8859-15", &kIso8859_15}, {"iso8859-15", &kIso8859_15},
    {"iso885915", &kIso8859_15}, {"iso_8859-15", &kIso8859_15}, {"l9", &kIso8859_15},
    {"iso-8859-16", &kIso8859_16},
    {"cskoi8r", &kKoi8R}, {"koi", &kKoi8R}, {"koi8", &kKoi8R}, {"koi8-r", &kKoi8R},
    {"koi8_r", &kKoi8R},
    {"koi8-ru", &kKoi8U}, {"koi8-u", &kKoi8U},
    {"csmacintosh", &kMacintosh}, {"mac", &kMacintosh}, {"macintosh", &kMacintosh},
    {"x-mac-roman", &kMacintosh},
    {"dos-874", &kWindows874}, {"iso-8859-11", &kWindows874}, {"iso8859-11", &kWindows874},
    {"iso885911", &kWindows874}, {"tis-620", &kWindows874}, {"windows-874", &kWindows874},
    {"cp1250", &kWindows1250}, {"windows-1250", &kWindows1250}, {"x-cp1250", &kWindows1250},
    {"cp1251", &kWindows1251}, {"windows-1251", &kWindows1251}, {"x-cp1251", &kWindows1251},
    {"ansi_x3.4-1968", &kWindows1252}, {"ascii", &kWindows1252}, {"cp1252", &kWindows1252},
    {"cp819", &kWindows1252}, {"csisolatin1", &kWindows1252}, {"ibm819", &kWindows1252},
    {"iso-8859-1", &kWindows1252}, {"iso-ir-100", &kWindows1252}, {"iso8859-1", &kWindows1252},
    {"iso88591", &kWindows1252}, {"iso_8859-1", &kWindows1252}, {"iso_8859-1:1987", &kWindows1252},
    {"l1", &kWindows1252}, {"latin1", &kWindows1252}, {"us-ascii", &kWindows1252},
    {"windows-1252", &kWindows1252}, {"x-cp1252", &kWindows1252},
    {"cp1253", &kWindows1253}, {"windows-1253", &kWindows1253}, {"x-cp1253", &kWindows1253},
    {"cp1254", &kWindows1254}, {"csisolatin5", &kWindows1254}, {"iso-8859-9", &kWindows1254},
    {"iso-ir-148", &kWindows1254}, {"iso8859-9", &kWindows1254}, {"iso88599", &kWindows1254},
    {"iso_8859-9", &kWindows1254}, {"iso_8859-9:1989", &kWindows1254}, {"l5", &kWindows1254},
    {"latin5", &kWindows1254}, {"windows-1254", &kWindows1254}, {"x-cp1254", &kWindows1254},
    {"cp1255", &kWindows1255}, {"windows-1255", &kWindows1255}, {"x-cp1255", &kWindows1255},
    {"cp1256", &kWindows1256}, {"windows-1256", &kWindows1256}, {"x-cp1256", &kWindows1256},
    {"cp1257", &kWindows1257}, {"windows-1257", &kWindows1257}, {"x-cp1257", &kWindows1257},
    {"cp1258", &kWindows1258}, {"windows-1258", &kWindows1258}, {"x-cp1258", &kWindows1258},
    {"x-mac-cyrillic", &kMacCyrillic}, {"x-mac-ukrainian", &kMacCyrillic},
    {"chinese", &kGbk}, {"csgb2312", &kGbk}, {"csiso58gb231280", &kGbk}, {"gb2312", &kGbk},
    {"gb_2312", &kGbk}, {"gb_2312-80", &kGbk}, {"gbk", &kGbk}, {"iso-ir-58", &kGbk},
    {"x-gbk", &kGbk},
    {"gb18030", &kGb18030},
    {"big5", &kBig5}, {"big5-hkscs", &kBig5}, {"cn-big5", &kBig5}, {"csbig5", &kBig5},
    {"x-x-big5", &kBig5},
    {"cseucpkdfmtjapanese", &kEucJp}, {"euc-jp", &kEucJp}, {"x-euc-jp", &kEucJp},
    {"csiso2022jp", &kIso2022Jp}, {"iso-2022-jp", &kIso2022Jp},
    {"csshiftjis", &kShiftJis}, {"ms932", &kShiftJis}, {"ms_kanji", &kShiftJis},
    {"shift-jis", &kShiftJis}, {"shift_jis", &kShiftJis}, {"sjis", &kShiftJis},
    {"windows-31j", &kShiftJis}, {"x-sjis", &kShiftJis},
    {"cseuckr", &kEucKr}, {"csksc56011987", &kEucKr}, {"euc-kr", &kEucKr},
    {"iso-ir-149", &kEucKr}, {"korean", &kEucKr}, {"ks_c_5601-1987", &kEucKr},
    {"ks_c_5601-1989", &kEucKr}, {"ksc5601", &kEucKr}, {"ksc_5601", &kEucKr},
    {"windows-949", &kEucKr},
    {"csiso2022kr", &kIso2022Kr}, {"iso-2022-kr", &kIso2022Kr}, {"hz-gb-2312", &kHz},
    {"iso-2022-cn", &kIso2022Cn}, {"iso-2022-cn-ext", &kIso2022Cn},
    {"unicodefffe", &kUtf16Be}, {"utf-16be", &kUtf16Be},
    {"csunicode", &kUtf16Le}, {"iso-10646-ucs-2", &kUtf16Le}, {"ucs-2", &kUtf16Le},
    {"unicode", &kUtf16Le}, {"unicodefeff", &kUtf16Le}, {"utf-16", &kUtf16Le},
    {"utf-16le", &kUtf16Le},
    {"x-user-defined", &kUserDefined},
    {"utf-32", &kUtf32Le}, {"utf-32le", &kUtf32Le}, {"utf-32be", &kUtf32Be},
    {"ucs-4", &kUtf32Le}, {"iso-10646-ucs-4", &kUtf32Le},
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
char lower_ascii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool wide(const Encoding* e) { return e->kind != Kind::kUtf8 && e->kind != Kind::kAscii && e->kind != Kind::kSevenBit; }

// UTF-16 and UTF-32 of either byte order count as one family each: the
// label "utf-16" says nothing about byte order, which the mark decides.
int family(const Encoding* e) {
  switch (e->kind) {
    case Kind::kUtf16Le:
    case Kind::kUtf16Be:
      return 16;
    case Kind::kUtf32Le:
    case Kind::kUtf32Be:
      return 32;
    default:
      return e == &kUtf8 ? 8 : 0;
  }
}

std::size_t unit_size(const Encoding* e) { return family(e) == 16 ? 2 : family(e) == 32 ? 4 : 1; }

// ---- UTF-8 ------------------------------------------------------------------

enum class Byte { kOk, kInvalidUtf8, kForbidden };

// Classifies the sequence at p: valid UTF-8 (its length in `len`), a byte
// that is not UTF-8, or a character XML 1.0 forbids (C0 controls but tab,
// newline and return; U+FFFE and U+FFFF).
Byte classify(const unsigned char* p, const unsigned char* end, std::size_t& len) {
  unsigned char c = p[0];
  len = 1;
  if (c < 0x80) {
    return (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') ? Byte::kOk : Byte::kForbidden;
  }
  std::size_t n;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;  // no UTF-16 surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return Byte::kInvalidUtf8;
  }
  if (static_cast<std::size_t>(end - p) < n) return Byte::kInvalidUtf8;
  if (p[1] < lo || p[1] > hi) return Byte::kInvalidUtf8;
  for (std::size_t i = 2; i < n; ++i) {
    if (p[i] < 0x80 || p[i] > 0xBF) return Byte::kInvalidUtf8;
  }
  len = n;
  if (n == 3 && c == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF)) return Byte::kForbidden;
  return Byte::kOk;
}

// Whether the eight bytes at p are all in 0x20..0x7F. A byte below 0x20
// borrows in the subtraction and sets a high bit; any false alarm only
// sends those bytes down the slow path.
bool all_printable_ascii(const unsigned char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return (((w - 0x2020202020202020u) | w) & 0x8080808080808080u) == 0;
}

// Offset of the first byte classify() objects to, or size. This scan is all
// that a well-formed UTF-8 feed pays for its encoding.
std::size_t first_problem(std::string_view b) {
  const auto* p = reinterpret_cast<const unsigned char*>(b.data());
  const auto* end = p + b.size();
  const auto* start = p;
  while (p < end) {
    // Plain printable ASCII is nearly all of a feed; skip it quickly, eight
    // bytes at a time where it can.
    if (end - p >= 8 && all_printable_ascii(p)) {
      p += 8;
      continue;
    }
    if (*p >= 0x20 && *p < 0x80) {
      ++p;
      continue;
    }
    std::size_t len;
    if (classify(p, end, len) != Byte::kOk) return static_cast<std::size_t>(p - start);
    p += len;
  }
  return b.size();
}

// Whether b is UTF-8 from `from` on, forbidden characters allowed.
bool valid_utf8_from(std::string_view b, std::size_t from) {
  const auto* p = reinterpret_cast<const unsigned char*>(b.data()) + from;
  const auto* end = reinterpret_cast<const unsigned char*>(b.data()) + b.size();
  while (p < end) {
    std::size_t len;
    if (classify(p, end, len) == Byte::kInvalidUtf8) return false;
    p += len;
  }
  return true;
}

bool has_non_ascii(std::string_view b) {
  for (char c : b) {
    if (static_cast<unsigned char>(c) >= 0x80) return true;
  }
  return false;
}

// The UTF-8 form of each windows-1252 byte 0x80..0xFF, taken from iconv;
// the five bytes windows-1252 leaves undefined become U+FFFD.
const std::array<std::string, 128>& windows1252_table() {
  static const std::array<std::string, 128> table = [] {
    std::array<std::string, 128> t;
    iconv_t cd = iconv_open("UTF-8", "WINDOWS-1252");
    for (int i = 0; i < 128; ++i) {
      char in = static_cast<char>(0x80 + i);
      char out[8];
      char* inp = &in;
      char* outp = out;
      std::size_t inleft = 1, outleft = sizeof out;
      if (cd != reinterpret_cast<iconv_t>(-1) &&
          iconv(cd, &inp, &inleft, &outp, &outleft) != static_cast<std::size_t>(-1)) {
        t[i].assign(out, outp);
      } else {
        t[i] = "\xEF\xBF\xBD";
      }
      if (cd != reinterpret_cast<iconv_t>(-1)) iconv(cd, nullptr, nullptr, nullptr, nullptr);
    }
    if (cd != reinterpret_cast<iconv_t>(-1)) iconv_close(cd);
    return t;
  }();
  return table;
}

struct Repair {
  std::string text;
  std::size_t windows1252 = 0;  // bytes re-read as windows-1252
  std::size_t removed = 0;      // forbidden characters dropped
};

// Copies b from `from` on, re-reading each byte that is not UTF-8 as
// windows-1252 (the usual mislabelling; the UTF-8 around it stays UTF-8) and
// dropping forbidden characters, which libxml2 would otherwise stop at.
Repair repair_utf8(std::string_view b, std::size_t from) {
  const auto& table = windows1252_table();
  Repair r;
  r.text.reserve(b.size() + b.size() / 16);
  r.text.append(b.data(), from);
  const auto* p = reinterpret_cast<const unsigned char*>(b.data()) + from;
  const auto* end = reinterpret_cast<const unsigned char*>(b.data()) + b.size();
  while (p < end) {
    std::size_t len;
    switch (classify(p, end, len)) {
      case Byte::kOk:
        r.text.append(reinterpret_cast<const char*>(p), len);
        break;
      case Byte::kInvalidUtf8:
        r.text += table[*p - 0x80];
        ++r.windows1252;
        break;
      case Byte::kForbidden:
        ++r.removed;
        break;
    }
    p += len;
  }
  return r;
}

// ---- legacy decoders --------------------------------------------------------

const char kReplacement[] = "\xEF\xBF\xBD";

void decode_windows1252(std::string_view b, std::string& out) {
  const auto& table = windows1252_table();
  out.reserve(b.size() + b.size() / 8);
  for (char c : b) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x80) {
      out += c;
    } else {
      out += table[u - 0x80];
    }
  }
}

// x-user-defined puts bytes 0x80..0xFF at U+F780..U+F7FF.
void decode_user_defined(std::string_view b, std::string& out) {
  for (char c : b) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x80) {
      out += c;
    } else {
      unsigned cp = 0xF780 + (u - 0x80);
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
}

// Decodes with iconv. glibc's iconv stops at the first sequence it cannot
// decode; that sequence becomes U+FFFD and decoding resumes one code unit
// later, so one bad byte costs one character, not the rest of the document
// (the standard's decoders do the same). False when iconv has no decoder.
bool decode_iconv(std::string_view b, const Encoding* e, std::string& out, std::size_t& replaced) {
  iconv_t cd = iconv_open("UTF-8", e->iconv);
  if (cd == reinterpret_cast<iconv_t>(-1)) return false;
  const std::size_t unit = unit_size(e);
  out.resize(b.size() + b.size() / 2 + 64);
  std::size_t used = 0;
  char* in = const_cast<char*>(b.data());
  std::size_t inleft = b.size();
  while (inleft > 0) {
    char* outp = &out[used];
    std::size_t outleft = out.size() - used;
    std::size_t r = iconv(cd, &in, &inleft, &outp, &outleft);
    int err = errno;
    used = static_cast<std::size_t>(outp - out.data());
    if (r != static_cast<std::size_t>(-1)) break;
    if (err == E2BIG) {
      out.resize(out.size() * 2);
      continue;
    }
    if (out.size() - used < sizeof kReplacement) out.resize(out.size() * 2);
    std::memcpy(&out[used], kReplacement, 3);
    used += 3;
    ++replaced;
    // EINVAL: the input ends inside a sequence; there is nothing to resume.
    std::size_t skip = err == EINVAL ? inleft : std::min(unit, inleft);
    in += skip;
    inleft -= skip;
  }
  // What a stateful encoding still holds (ISO-2022-JP's shift back to ASCII).
  for (;;) {
    char* outp = &out[used];
    std::size_t outleft = out.size() - used;
    std::size_t r = iconv(cd, nullptr, nullptr, &outp, &outleft);
    used = static_cast<std::size_t>(outp - out.data());
    if (r == static_cast<std::size_t>(-1) && errno == E2BIG) {
      out.resize(out.size() * 2);
      continue;
    }
    break;
  }
  iconv_close(cd);
  out.resize(used);
  return true;
}

// ---- choosing ---------------------------------------------------------------

// A byte order mark at the start of b: its encoding, and b advanced past it
// (and past a second copy, which some publishing tools add to a file that
// already had one).
const Encoding* strip_bom(std::string_view& b) {
  auto starts = [&](const char* m, std::size_t n) { return b.size() >= n && std::memcmp(b.data(), m, n) == 0; };
  struct Mark {
    const char* bytes;
    std::size_t size;
    const Encoding* encoding;
  };
  // UTF-32LE before UTF-16LE: FF FE 00 00 is also UTF-16LE's mark and a NUL,
  // which XML does not allow.
  static const Mark kMarks[] = {{"\xFF\xFE\0\0", 4, &kUtf32Le},
                                {"\0\0\xFE\xFF", 4, &kUtf32Be},
                                {"\xEF\xBB\xBF", 3, &kUtf8},
                                {"\xFE\xFF", 2, &kUtf16Be},
                                {"\xFF\xFE", 2, &kUtf16Le}};
  for (const Mark& m : kMarks) {
    if (!starts(m.bytes, m.size)) continue;
    while (starts(m.bytes, m.size)) b.remove_prefix(m.size);
    return m.encoding;
  }
  return nullptr;
}

// Without a mark, a document starting with an ASCII character ('<' or a
// blank) padded by NULs is UTF-16 or UTF-32 (XML 1.0 appendix F); no
// ASCII-compatible encoding has NULs there.
const Encoding* sniff_wide(std::string_view b) {
  if (b.size() < 4) return nullptr;
  auto u = [&](std::size_t i) { return static_cast<unsigned char>(b[i]); };
  auto ascii = [&](std::size_t i) { return u(i) != 0 && u(i) < 0x80; };
  if (u(0) == 0 && u(1) == 0 && u(2) == 0 && ascii(3)) return &kUtf32Be;
  if (ascii(0) && u(1) == 0 && u(2) == 0 && u(3) == 0) return &kUtf32Le;
  if (u(0) == 0 && ascii(1) && u(2) == 0 && ascii(3)) return &kUtf16Be;
  if (ascii(0) && u(1) == 0 && ascii(2) && u(3) == 0) return &kUtf16Le;
  return nullptr;
}

std::string normalise_label(std::string_view label) {
  while (!label.empty() && (is_space(label.front()) || label.front() == '"' || label.front() == '\'')) {
    label.remove_prefix(1);
  }
  while (!label.empty() && (is_space(label.back()) || label.back() == '"' || label.back() == '\'')) {
    label.remove_suffix(1);
  }
  std::string s(label);
  for (char& c : s) c = lower_ascii(c);
  return s;
}

struct Candidate {
  std::string label;
  const char* source;  // "HTTP charset", "XML declaration"
  const Encoding* encoding;
};

std::string says(const Candidate& c) { return std::string("the ") + c.source + " says \"" + c.label + "\""; }

}  // namespace

const Encoding* encoding_for_label(std::string_view label) {
  std::string key = normalise_label(label);
  if (key.empty()) return nullptr;
  for (const Label& l : kLabels) {
    if (key == l.label) return l.encoding;
  }
  return nullptr;
}

std::string declared_encoding(std::string_view b) {
  // Junk (blank lines, a PHP warning) before the declaration is common, and
  // recovery later drops it; its encoding still holds for what follows.
  std::size_t start = b.substr(0, 4096).find("<?xml");
  if (start == std::string_view::npos || start + 5 >= b.size() || !is_space(b[start + 5])) return {};
  std::string_view decl = b.substr(start, 512);
  decl = decl.substr(0, decl.find("?>"));
  std::size_t at = decl.find("encoding");
  if (at == std::string_view::npos) return {};
  at += 8;
  while (at < decl.size() && is_space(decl[at])) ++at;
  if (at >= decl.size() || decl[at] != '=') return {};
  ++at;
  while (at < decl.size() && is_space(decl[at])) ++at;
  if (at >= decl.size() || (decl[at] != '"' && decl[at] != '\'')) return {};
  std::size_t close = decl.find(decl[at], at + 1);
  if (close == std::string_view::npos) return {};
  return std::string(decl.substr(at + 1, close - at - 1));
}

Utf8Text decode_to_utf8(std::string_view bytes, std::string_view http_charset, const std::string& name,
                        std::string& storage, std::vector<std::string>& warnings) {
  std::string_view b = bytes;
  const Encoding* chosen = strip_bom(b);
  const char* decided_by = chosen ? "byte order mark says" : nullptr;
  if (chosen == nullptr && (chosen = sniff_wide(b)) != nullptr) decided_by = "NUL bytes say";

  std::string declared = declared_encoding(b);
  Candidate candidates[2] = {{normalise_label(http_charset), "HTTP charset", nullptr},
                             {normalise_label(declared), "XML declaration", nullptr}};
  for (Candidate& c : candidates) {
    if (!c.label.empty()) c.encoding = encoding_for_label(c.label);
  }

  // Scanned once; for a UTF-8 feed this is the only pass before libxml2's.
  std::size_t bad = std::string_view::npos;
  auto first_bad = [&] {
    if (bad == std::string_view::npos) bad = first_problem(b);
    return bad;
  };
  auto is_utf8 = [&] { return first_bad() == b.size() || valid_utf8_from(b, first_bad()); };

  if (chosen != nullptr) {
    for (const Candidate& c : candidates) {
      if (c.encoding != nullptr && family(c.encoding) != family(chosen)) {
        warnings.push_back(name + ": the " + decided_by + " " + chosen->name + "; the " + c.source +
                           "'s \"" + c.label + "\" ignored");
      }
    }
  } else {
    for (std::size_t i = 0; i < 2 && chosen == nullptr; ++i) {
      const Candidate& c = candidates[i];
      if (c.label.empty()) continue;
      if (c.encoding == nullptr) {
        warnings.push_back(name + ": " + says(c) + ", an encoding not known; ignored");
        continue;
      }
      if (wide(c.encoding)) {
        // Had the bytes been UTF-16 or UTF-32, the mark or the NULs would
        // show it; this is the common "utf-16" label on a UTF-8 file.
        warnings.push_back(name + ": " + says(c) + " but the bytes are not " + c.encoding->name +
                           "; ignored");
        continue;
      }
      if (c.encoding == &kUtf8) {
        const Candidate* next = i == 0 ? &candidates[1] : nullptr;
        if (next != nullptr && next->encoding != nullptr && next->encoding != &kUtf8 && !wide(next->encoding) &&
            !is_utf8()) {
          warnings.push_back(name + ": " + says(c) + " but the bytes are not UTF-8; read as " +
                             next->encoding->name + " as the " + next->source + " says");
          continue;
        }
        chosen = &kUtf8;
        break;
      }
      if (is_utf8() && has_non_ascii(b)) {
        warnings.push_back(name + ": " + says(c) + " but the bytes are UTF-8; read as UTF-8");
        chosen = &kUtf8;
        break;
      }
      chosen = c.encoding;
    }
  }
  if (chosen == nullptr) chosen = &kUtf8;

  Utf8Text out;
  out.encoding = chosen;
  std::string_view label = candidates[1].label;
  out.declaration_agrees = label.empty() || label == "utf-8";

  // ASCII means the same in every ASCII-compatible encoding: no copy.
  bool as_utf8 = chosen == &kUtf8 || (chosen->kind == Kind::kAscii && !has_non_ascii(b));
  if (!as_utf8) {
    std::string decoded;
    std::size_t replaced = 0;
    bool ok = true;
    if (chosen == &kWindows1252) {
      decode_windows1252(b, decoded);
    } else if (chosen == &kUserDefined) {
      decode_user_defined(b, decoded);
    } else {
      ok = decode_iconv(b, chosen, decoded, replaced);
    }
    if (ok) {
      if (replaced > 0) {
        warnings.push_back(name + ": " + std::to_string(replaced) + " byte sequence(s) not valid " + chosen->name +
                           " replaced by U+FFFD");
      }
      storage = std::move(decoded);
      b = storage;
      bad = std::string_view::npos;
      // A mark the encoding carried inside (or a second one) is not text.
      while (b.substr(0, 3) == "\xEF\xBB\xBF") b.remove_prefix(3);
      out.declaration_agrees = false;
    } else {
      warnings.push_back(name + ": no decoder for " + std::string(chosen->name) + "; read as UTF-8");
      out.encoding = &kUtf8;
    }
  }

  if (first_bad() < b.size()) {
    Repair r = repair_utf8(b, first_bad());
    if (r.windows1252 > 0) {
      warnings.push_back(name + ": not valid UTF-8; " + std::to_string(r.windows1252) +
                         " byte(s) read as Windows-1252");
    }
    if (r.removed > 0) {
      warnings.push_back(name + ": " + std::to_string(r.removed) + " character(s) not allowed in XML removed");
    }
    storage = std::move(r.text);
    b = storage;
  }
  out.text = b;
  return out;
}

}  // namespace blogsearch
