// encoding_test.cc: choosing a feed's encoding (indexer/encoding.h), through
// parse_feed. The matrix (declared label x actual bytes x BOM x HTTP charset)
// is tests/e2e/encoding.d/matrix.tsv, shared with the e2e comparison against
// feedparser; the cases named in issue 14 and the warnings are spelled out here.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "indexer/encoding.h"
#include "indexer/feed_parser.h"

namespace blogsearch {
namespace {

// ---- building the matrix's documents (the same way matrix_compare.py does) ----

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\\') {
      out += '\\';
      ++i;
    } else if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] == 'x') {
      out += static_cast<char>(std::stoi(s.substr(i + 2, 2), nullptr, 16));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<char32_t> code_points(const std::string& utf8) {
  std::vector<char32_t> cps;
  for (std::size_t i = 0; i < utf8.size();) {
    auto c = static_cast<unsigned char>(utf8[i]);
    int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    char32_t cp = n == 1 ? c : c & (0x3F >> (n - 1));
    for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    cps.push_back(cp);
    i += n;
  }
  return cps;
}

void put(std::string& out, std::uint32_t unit, int bytes, bool big_endian) {
  for (int k = 0; k < bytes; ++k) {
    int shift = big_endian ? 8 * (bytes - 1 - k) : 8 * k;
    out += static_cast<char>((unit >> shift) & 0xFF);
  }
}

// UTF-8 -> "utf-16-le", "utf-16-be", "utf-32-le" or "utf-32-be".
std::string to_wide(const std::string& utf8, const std::string& layout) {
  bool be = layout.substr(layout.size() - 2) == "be";
  bool utf32 = layout.find("32") != std::string::npos;
  std::string out;
  for (char32_t cp : code_points(utf8)) {
    if (utf32) {
      put(out, cp, 4, be);
    } else if (cp >= 0x10000) {
      put(out, 0xD800 + ((cp - 0x10000) >> 10), 2, be);
      put(out, 0xDC00 + ((cp - 0x10000) & 0x3FF), 2, be);
    } else {
      put(out, cp, 2, be);
    }
  }
  return out;
}

std::string bom_bytes(const std::string& bom) {
  if (bom == "utf8") return "\xEF\xBB\xBF";
  if (bom == "utf8x2") return "\xEF\xBB\xBF\xEF\xBB\xBF";
  if (bom == "utf16le") return "\xFF\xFE";
  if (bom == "utf16lex2") return "\xFF\xFE\xFF\xFE";
  if (bom == "utf16be") return "\xFE\xFF";
  if (bom == "utf32le") return std::string("\xFF\xFE\0\0", 4);
  if (bom == "utf32be") return std::string("\0\0\xFE\xFF", 4);
  return "";
}

struct MatrixRow {
  std::string name, layout, bom, declared, http, title, want, determined;
};

std::string build_document(const MatrixRow& r) {
  std::string decl;
  if (r.declared == "-") {
    decl = "<?xml version=\"1.0\"?>\n";
  } else if (r.declared != "noxml") {
    decl = "<?xml version=\"1.0\" encoding=\"" + r.declared + "\"?>\n";
  }
  std::string text = decl +
                     "<rss version=\"2.0\"><channel><title>Matrix</title><link>http://example.org/</link>"
                     "<item><title>" +
                     r.title + "</title><description>" + r.title +
                     "</description><guid>http://example.org/1</guid></item></channel></rss>\n";
  return bom_bytes(r.bom) + (r.layout == "bytes" ? text : to_wide(text, r.layout));
}

std::vector<MatrixRow> read_matrix(const std::string& path) {
  std::vector<MatrixRow> rows;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, '\t')) f.push_back(field);
    if (f.size() != 8) {
      ADD_FAILURE() << path << ": not 8 fields: " << line;
      continue;
    }
    rows.push_back({f[0], f[1], f[2], f[3], f[4] == "-" ? "" : f[4], unescape(f[5]), unescape(f[6]), f[7]});
  }
  return rows;
}

TEST(EncodingMatrix, EveryRowReadsTheExpectedText) {
  const std::string path = std::string(BLOGSEARCH_SOURCE_DIR) + "/tests/e2e/encoding.d/matrix.tsv";
  std::vector<MatrixRow> rows = read_matrix(path);
  ASSERT_GE(rows.size(), 60u) << path;
  int right = 0;
  for (const MatrixRow& r : rows) {
    SCOPED_TRACE(r.name);
    ParseOptions options;
    options.http_charset = r.http;
    ParsedFeed feed;
    try {
      feed = parse_feed(build_document(r), "matrix.xml", options);
    } catch (const FeedError& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    if (feed.posts.size() != 1) {
      ADD_FAILURE() << feed.posts.size() << " posts";
      continue;
    }
    EXPECT_EQ(feed.posts[0].title, r.want);
    EXPECT_EQ(feed.posts[0].summary, r.want);
    EXPECT_EQ(feed.title, "Matrix");  // the text after the title is read too
    right += feed.posts[0].title == r.want && feed.posts[0].summary == r.want;
  }
  std::cout << "encoding matrix: " << right << "/" << rows.size() << " rows right\n";
}

// ---- labels --------------------------------------------------------------------

struct LabelCase {
  const char* label;
  const char* name;  // nullptr: unknown
};

TEST(Encoding, LabelsFollowTheWhatwgTable) {
  const LabelCase cases[] = {
      {"utf-8", "UTF-8"},         {"UTF8", "UTF-8"},          {" Utf-8 ", "UTF-8"},
      {"\"utf-8\"", "UTF-8"},     {"unicode-1-1-utf-8", "UTF-8"},
      {"iso-8859-1", "windows-1252"}, {"latin1", "windows-1252"}, {"ISO_8859-1:1987", "windows-1252"},
      {"us-ascii", "windows-1252"},   {"ascii", "windows-1252"},  {"cp819", "windows-1252"},
      {"gb2312", "GBK"},          {"chinese", "GBK"},         {"x-gbk", "GBK"},
      {"csgb2312", "GBK"},        {"gb18030", "gb18030"},     {"Shift_JIS", "Shift_JIS"},
      {"sjis", "Shift_JIS"},      {"ms932", "Shift_JIS"},     {"windows-31j", "Shift_JIS"},
      {"big5", "Big5"},           {"big5-hkscs", "Big5"},     {"cn-big5", "Big5"},
      {"x-x-big5", "Big5"},       {"euc-kr", "EUC-KR"},       {"windows-949", "EUC-KR"},
      {"iso-8859-9", "windows-1254"}, {"tis-620", "windows-874"}, {"iso-8859-11", "windows-874"},
      {"koi8-ru", "KOI8-U"},      {"koi", "KOI8-R"},          {"x-mac-roman", "macintosh"},
      {"logical", "ISO-8859-8-I"}, {"visual", "ISO-8859-8"},  {"utf-16", "UTF-16LE"},
      {"ucs-2", "UTF-16LE"},      {"unicodefffe", "UTF-16BE"}, {"utf-32", "UTF-32LE"},
      {"utf-32be", "UTF-32BE"},   {"bogus", nullptr},         {"", nullptr},
      {"utf-7", nullptr},         {"iso-8859-12", nullptr},
  };
  for (const auto& c : cases) {
    const Encoding* e = encoding_for_label(c.label);
    if (c.name == nullptr) {
      EXPECT_EQ(e, nullptr) << c.label;
    } else {
      ASSERT_NE(e, nullptr) << c.label;
      EXPECT_STREQ(e->name, c.name) << c.label;
    }
  }
}

struct DeclCase {
  const char* doc;
  const char* want;
};

TEST(Encoding, DeclaredEncodingFound) {
  const DeclCase cases[] = {
      {"<?xml version=\"1.0\" encoding=\"GB2312\"?><rss/>", "GB2312"},
      {"<?xml version='1.0' encoding = 'koi8-r' ?><rss/>", "koi8-r"},
      {"\n\n<?xml version=\"1.0\" encoding=\"windows-1251\"?><rss/>", "windows-1251"},
      {"<br />\n<b>Warning</b>: x<br />\n<?xml version=\"1.0\" encoding=\"iso-8859-2\"?>", "iso-8859-2"},
      {"<?xml version=\"1.0\"?><rss encoding=\"x\"/>", ""},
      {"<?xml-stylesheet href=\"a.xsl\"?><rss/>", ""},
      {"<rss/>", ""},
      {"<?xml version=\"1.0\" encoding=\"utf-8", ""},
  };
  for (const auto& c : cases) EXPECT_EQ(declared_encoding(c.doc), c.want) << c.doc;
}

// ---- the cases of issue 14, section 4, with their warnings -------------------

struct IssueCase {
  const char* what;
  std::string doc;
  const char* http;
  const char* want_title;
  const char* want_warning;  // a substring of one warning; "" for no warning at all
};

std::string rss(const std::string& prolog, const std::string& title) {
  return prolog + "<rss version=\"2.0\"><channel><title>t</title><item><title>" + title +
         "</title><description>after</description></item><item><title>second</title></item>"
         "</channel></rss>";
}

TEST(Encoding, IssueCases) {
  const std::string gb2312 = "<?xml version=\"1.0\" encoding=\"gb2312\"?>";
  const std::string latin1 = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>";
  const IssueCase cases[] = {
      // 朱镕基: 镕 (E9 46) is GBK, not GB2312; a strict decoder ended the document there.
      {"GBK char in gb2312 feed", rss(gb2312, "\xD6\xEC\xE9\x46\xBB\xF9"), "",
       "\xE6\x9C\xB1\xE9\x95\x95\xE5\x9F\xBA", ""},
      // ① is 87 40 in CP932, absent from JIS X 0208.
      {"CP932 char in Shift_JIS feed", rss("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>", "\x87\x40"), "",
       "\xE2\x91\xA0", ""},
      // 嘅 is 9D EF in Big5-HKSCS.
      {"HKSCS char in big5 feed", rss("<?xml version=\"1.0\" encoding=\"big5\"?>", "\x9D\xEF"), "",
       "\xE5\x98\x85", ""},
      {"UTF-8 declared ISO-8859-1", rss(latin1, "Caf\xC3\xA9"), "", "Caf\xC3\xA9",
       "the XML declaration says \"iso-8859-1\" but the bytes are UTF-8; read as UTF-8"},
      {"UTF-8 declared windows-1252",
       rss("<?xml version=\"1.0\" encoding=\"windows-1252\"?>", "\xE2\x80\x9Cq\xE2\x80\x9D"), "",
       "\xE2\x80\x9Cq\xE2\x80\x9D", "but the bytes are UTF-8"},
      {"UTF-8 BOM and a Latin-1 declaration", "\xEF\xBB\xBF" + rss(latin1, "Caf\xC3\xA9"), "", "Caf\xC3\xA9",
       "the byte order mark says UTF-8; the XML declaration's \"iso-8859-1\" ignored"},
      {"bogus label, UTF-8 bytes", rss("<?xml version=\"1.0\" encoding=\"bogus\"?>", "Caf\xC3\xA9"), "",
       "Caf\xC3\xA9", "the XML declaration says \"bogus\", an encoding not known; ignored"},
      {"bogus label, windows-1252 bytes", rss("<?xml version=\"1.0\" encoding=\"bogus\"?>", "Caf\xE9"), "",
       "Caf\xC3\xA9", "not valid UTF-8; 1 byte(s) read as Windows-1252"},
      {"doubled UTF-8 BOM", "\xEF\xBB\xBF\xEF\xBB\xBF" + rss("<?xml version=\"1.0\"?>", "x"), "", "x", ""},
      {"HTTP charset over the declaration", rss(latin1, "\xCF\xF0\xE8\xE2\xE5\xF2"), "windows-1251",
       "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82", ""},
      {"HTTP charset quoted", rss(latin1, "\xCF\xF0\xE8"), "\"windows-1251\"", "\xD0\x9F\xD1\x80\xD0\xB8", ""},
      {"HTTP charset wrong, BOM right", "\xEF\xBB\xBF" + rss(latin1, "Caf\xC3\xA9"), "iso-8859-1", "Caf\xC3\xA9",
       "the byte order mark says UTF-8; the HTTP charset's \"iso-8859-1\" ignored"},
      {"HTTP utf-8 on bytes that are not, declaration right", rss(latin1, "Caf\xE9"), "utf-8", "Caf\xC3\xA9",
       "the HTTP charset says \"utf-8\" but the bytes are not UTF-8; read as windows-1252 as the XML "
       "declaration says"},
      {"utf-16 label on UTF-8 bytes", rss("<?xml version=\"1.0\" encoding=\"utf-16\"?>", "Caf\xC3\xA9"), "",
       "Caf\xC3\xA9", "the XML declaration says \"utf-16\" but the bytes are not UTF-16LE; ignored"},
      {"undecodable GBK bytes go on", rss(gb2312, "\xFF\xFF" "ab"), "", "\xEF\xBF\xBD\xEF\xBF\xBD" "ab",
       "2 byte sequence(s) not valid GBK replaced by U+FFFD"},
      {"pure ASCII under a legacy label", rss(latin1, "plain &amp; simple"), "", "plain & simple", ""},
      {"windows-1252 curly quotes under latin1", rss(latin1, "\x93q\x94 \x80"), "",
       "\xE2\x80\x9Cq\xE2\x80\x9D \xE2\x82\xAC", ""},
      {"control characters after decoding removed", rss("<?xml version=\"1.0\" encoding=\"koi8-r\"?>", "\xF0\x01\xD2"),
       "", "\xD0\x9F\xD1\x80", "1 character(s) not allowed in XML removed"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.what);
    ParseOptions options;
    options.http_charset = c.http;
    ParsedFeed feed = parse_feed(c.doc, "issue.xml", options);
    ASSERT_EQ(feed.posts.size(), 2u);
    EXPECT_EQ(feed.posts[0].title, c.want_title);
    EXPECT_EQ(feed.posts[0].summary, "after");
    EXPECT_EQ(feed.posts[1].title, "second");
    std::string all;
    for (const auto& w : feed.warnings) all += w + "\n";
    if (std::string(c.want_warning).empty()) {
      EXPECT_TRUE(feed.warnings.empty()) << all;
    } else {
      EXPECT_NE(all.find(c.want_warning), std::string::npos) << all;
    }
    for (const auto& w : feed.warnings) EXPECT_EQ(w.rfind("issue.xml", 0), 0u) << w;
  }
}

std::string utf32(const std::u32string& s, bool big_endian, bool bom) {
  std::string out;
  if (bom) put(out, 0xFEFF, 4, big_endian);
  for (char32_t c : s) put(out, c, 4, big_endian);
  return out;
}

TEST(Encoding, Utf32WithAndWithoutBom) {
  const std::u32string doc =
      U"<?xml version=\"1.0\" encoding=\"UTF-32\"?><rss><channel><item><title>caf\u00e9 \U0001D11E"
      U"</title></item></channel></rss>";
  for (bool be : {false, true}) {
    for (bool bom : {true, false}) {
      SCOPED_TRACE(std::string(be ? "BE" : "LE") + (bom ? " with BOM" : " without BOM"));
      ParsedFeed feed = parse_feed(utf32(doc, be, bom), "utf32.xml");
      ASSERT_EQ(feed.posts.size(), 1u);
      EXPECT_EQ(feed.posts[0].title, "caf\xC3\xA9 \xF0\x9D\x84\x9E");
      EXPECT_TRUE(feed.warnings.empty());
    }
  }
}

TEST(Encoding, Utf16WithoutBomSniffed) {
  std::string le = to_wide("<rss><channel><item><title>\xE6\x97\xA5</title></item></channel></rss>", "utf-16-le");
  ParsedFeed feed = parse_feed(le, "utf16.xml");
  ASSERT_EQ(feed.posts.size(), 1u);
  EXPECT_EQ(feed.posts[0].title, "\xE6\x97\xA5");
}

// A lone surrogate is one bad code unit: replaced, and the document goes on.
TEST(Encoding, Utf16LoneSurrogateReplaced) {
  std::string doc = "\xFF\xFE" + to_wide("<rss><channel><item><title>a", "utf-16-le") + std::string("\x00\xD8", 2) +
                    to_wide("b</title></item><item><title>c</title></item></channel></rss>", "utf-16-le");
  ParsedFeed feed = parse_feed(doc, "surrogate.xml");
  ASSERT_EQ(feed.posts.size(), 2u);
  EXPECT_EQ(feed.posts[0].title, "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(feed.posts[1].title, "c");
}

struct ChoiceCase {
  std::string doc;
  const char* http;
  const char* want;  // the standard's name of the encoding read
  bool declaration_agrees;
};

TEST(Encoding, ChosenEncodingReported) {
  const ChoiceCase cases[] = {
      {"<?xml version=\"1.0\" encoding=\"utf-8\"?><rss/>", "", "UTF-8", true},
      {"<rss>caf\xC3\xA9</rss>", "", "UTF-8", true},
      {"<?xml version=\"1.0\" encoding=\"gb2312\"?><rss>\xD6\xD0</rss>", "", "GBK", false},
      {"<?xml version=\"1.0\" encoding=\"gb2312\"?><rss>\xD6\xD0</rss>", "big5", "Big5", false},
      {"<?xml version=\"1.0\" encoding=\"latin1\"?><rss>\xE9</rss>", "", "windows-1252", false},
      {"<?xml version=\"1.0\" encoding=\"latin1\"?><rss>\xC3\xA9</rss>", "", "UTF-8", false},
      {"<?xml version=\"1.0\" encoding=\"utf-8\"?><rss>\xC3\xA9</rss>", "koi8-r", "UTF-8", true},
      {"<?xml version=\"1.0\" encoding=\"koi8-r\"?><rss>\xF0</rss>", "utf-8", "KOI8-R", false},
      {"<?xml version=\"1.0\" encoding=\"bogus\"?><rss>\xE9</rss>", "", "UTF-8", false},
      {std::string("<\0r\0s\0s\0/\0>\0", 12), "", "UTF-16LE", false},
      {std::string("\0\0\xFE\xFF\0\0\0<", 8), "utf-8", "UTF-32BE", false},
      {"\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><rss/>", "", "UTF-8", false},
  };
  for (const auto& c : cases) {
    std::string storage;
    std::vector<std::string> warnings;
    Utf8Text t = decode_to_utf8(c.doc, c.http, "x.xml", storage, warnings);
    ASSERT_NE(t.encoding, nullptr);
    EXPECT_STREQ(t.encoding->name, c.want) << c.doc << " / " << c.http;
    EXPECT_EQ(t.declaration_agrees, c.declaration_agrees) << c.doc << " / " << c.http;
  }
}

// The common case is not copied: what libxml2 gets is the caller's bytes.
TEST(Encoding, ValidUtf8IsNotCopied) {
  const std::string docs[] = {
      rss("<?xml version=\"1.0\" encoding=\"utf-8\"?>", "Caf\xC3\xA9"),
      rss("", "Caf\xC3\xA9"),
      rss("<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>", "plain"),
  };
  for (const auto& doc : docs) {
    std::string storage;
    std::vector<std::string> warnings;
    Utf8Text t = decode_to_utf8(doc, "", "x.xml", storage, warnings);
    EXPECT_EQ(t.text.data(), doc.data()) << doc;
    EXPECT_EQ(t.text.size(), doc.size());
    EXPECT_TRUE(storage.empty());
  }
  std::string bom = "\xEF\xBB\xBF" + docs[0];
  std::string storage;
  std::vector<std::string> warnings;
  Utf8Text t = decode_to_utf8(bom, "", "x.xml", storage, warnings);
  EXPECT_EQ(t.text.data(), bom.data() + 3);
  EXPECT_TRUE(t.declaration_agrees);
}

}  // namespace
}  // namespace blogsearch
