// Tests for html_text.h: a table of {html, expected text} cases, then the
// inputs that are about robustness rather than rendering (deep nesting, huge
// text, random garbage).

#include "indexer/html_text.h"

#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>

namespace blogsearch {
namespace {

struct Case {
  const char* name;
  std::string html;
  std::string text;
};

const Case kHtmlCases[] = {
    {"empty", "", ""},
    {"plain", "plain text", "plain text"},
    {"whitespace collapsed and trimmed", "  lots \n\t of   space  ", "lots of space"},
    {"paragraphs do not join", "<p>end</p><p>Start</p>", "end Start"},
    {"divs do not join", "<div>one</div><div>two</div>three", "one two three"},
    {"inline does not split", "<b>Py</b>Torch", "PyTorch"},
    {"nested inline", "<em>Deep<strong>Speed</strong></em>Ulysses", "DeepSpeedUlysses"},
    {"br separates", "a<br>b<br/>c<BR>d", "a b c d"},
    {"headings", "<h1>Title</h1>Body<h6>Small</h6>", "Title Body Small"},
    {"uppercase tags", "<P>One</P><P>Two</P>", "One Two"},
    {"named entities", "Fish &amp; Chips &#8211; tasty&nbsp;food", "Fish & Chips \u2013 tasty food"},
    {"hex entity", "a&#x2014;b", "a\u2014b"},
    {"entity without semicolon", "&amp AT&T", "& AT&T"},
    {"unknown entity kept", "&bogus; stays", "&bogus; stays"},
    {"escaped script is text", "&lt;script&gt;alert(1)&lt;/script&gt;",
     "<script>alert(1)</script>"},
    {"bare less-than is text", "a < b and c > d", "a < b and c > d"},
    {"script dropped", "<p>before</p><script>var secret = 1;</script><p>after</p>",
     "before after"},
    {"script holding tags dropped", "<script>document.write('<p>no</p>')</script>yes", "yes"},
    {"style dropped", "<style>.x{color:red}</style>Visible", "Visible"},
    {"noscript dropped", "<noscript>enable javascript</noscript>shown", "shown"},
    {"template dropped", "<template><p>hidden</p></template>shown", "shown"},
    {"iframe fallback dropped", "<iframe src=\"v\">fallback</iframe>x", "x"},
    {"pre code kept",
     "<pre><code class=\"language-python\">model = torch.compile(model)\n"
     "hl.register_tunable(\"block\", 64)</code></pre>",
     "model = torch.compile(model) hl.register_tunable(\"block\", 64)"},
    {"inline code kept", "Use <code>torch.compile</code>, then", "Use torch.compile, then"},
    {"image alt kept", "<p>See<img src=\"x.png\" alt=\"loss curve\">below</p>",
     "See loss curve below"},
    {"image without alt separates", "a<img src=\"x.png\">b", "a b"},
    {"figure and caption",
     "<figure><img alt=\"chart\"><figcaption>Fig. 1</figcaption></figure>text",
     "chart Fig. 1 text"},
    {"nested lists",
     "<ul><li>one<ul><li>two</li><li>three</li></ul></li><li>four</li></ul><ol><li>five</ol>",
     "one two three four five"},
    {"table cells",
     "<table><tr><th>Model</th><th>Speedup</th></tr><tr><td>ResNet</td><td>1.3x</td></tr>"
     "</table>",
     "Model Speedup ResNet 1.3x"},
    {"definition list", "<dl><dt>term</dt><dd>definition</dd></dl>", "term definition"},
    {"blockquote", "said<blockquote>quoted</blockquote>then", "said quoted then"},
    {"hr", "above<hr>below", "above below"},
    {"sectioning", "<article><header>Head</header><section>Mid</section><footer>Foot</footer>"
                   "</article>",
     "Head Mid Foot"},
    {"inline styles ignored", "<span style=\"font-weight: 400;\">styled</span> text",
     "styled text"},
    {"links keep their text", "see <a href=\"https://pytorch.org\">the docs</a>.",
     "see the docs."},
    {"wbr does not split", "super<wbr>califragilistic", "supercalifragilistic"},
    {"comment removed without a break", "keep<!-- drop me -->this", "keepthis"},
    {"unterminated comment", "a<!-- never closed", "a"},
    {"cdata-ish junk is a bogus comment", "<![CDATA[inside]]>after", "after"},
    {"processing instruction junk", "<?php echo 1; ?>after", "after"},
    {"unclosed tags", "<div><p>unclosed <b>bold <i>both", "unclosed bold both"},
    {"unterminated attribute", "a<div class=\"x", "a"},
    {"full document", "<!DOCTYPE html><html><head><title>T</title><style>s</style></head>"
                      "<body>B</body></html>",
     "T B"},
    {"svg text separate", "<svg><text>label</text></svg>after", "label after"},
    {"only markup", "<div><span></span></div>", ""},
    {"whitespace-only blocks", "<p> </p><p>\n</p><p>&nbsp;</p>", ""},
    {"no-break space and CR", "a\u00a0\u00a0b\r\nc<p>d&nbsp;e</p>", "a b c d e"},
    {"unicode spaces", "a\u2009b\u3000c\u202fd", "a b c d"},
    {"non-ASCII kept", "<p>M\u00fcller \u2013 Gr\u00f6\u00dfe</p>", "M\u00fcller \u2013 Gr\u00f6\u00dfe"},
    {"invalid UTF-8 in markup", "<p>caf\xC3</p><p>\xFF" "end</p>", "caf\uFFFD \uFFFDend"},
    {"invalid UTF-8 in plain text", "caf\xC3 ok \xFF", "caf\uFFFD ok \uFFFD"},
    {"control characters in plain text are spaces", "a\x01" "b\x7f" "c", "a b c"},
    // Gumbo reports them as U+FFFD, which the term generator also splits on.
    {"control characters in markup", "<p>a\x01" "b</p>", "a\uFFFDb"},
};

TEST(HtmlText, Cases) {
  for (const Case& c : kHtmlCases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(html_to_text(c.html), c.text);
  }
}

const Case kPlainCases[] = {
    {"empty", "", ""},
    {"only spaces", " \t\r\n ", ""},
    {"inner runs", "a  b\t\tc\r\n\r\nd", "a b c d"},
    {"no-break spaces", "\u00a0a\u00a0\u00a0b\u00a0", "a b"},
    {"markup is not interpreted", "<b>x</b> &amp;", "<b>x</b> &amp;"},
    {"invalid UTF-8 replaced", "a\xE2\x82 b", "a\uFFFD\uFFFD b"},
    {"overlong and surrogate rejected", "\xC0\xAF" "x\xED\xA0\x80",
     "\uFFFD\uFFFDx\uFFFD\uFFFD\uFFFD"},
    {"four-byte kept", "emoji \xF0\x9F\x94\xA5 ok", "emoji \xF0\x9F\x94\xA5 ok"},
};

// html_to_text reads simple markup straight off its tokens and hands the
// rest to Gumbo: both ways must give the same text, for what the fast path
// takes and for each thing that makes it give up.
TEST(HtmlText, FastPathGivesGumbosText) {
  const char* cases[] = {
      "<p>Hello <em>world</em>, <a href=\"https://x/?a=1&amp;b=2\" title='t'>link</a>.</p><p>Two</p>",
      "<ul><li>one<ul><li>nested</li></ul></li><li>two</li></ul>",
      "<dl><dt>term</dt><dd>def</dd></dl><h2>Head</h2><pre><code>x = 1\n</code></pre>",
      "caf&eacute; &amp; cr&egrave;me &#233; &#x41; &nbsp;x &quot;q&quot; AT&T & more",
      "<figure><img src=a.png alt=\"A &amp; B\"><figcaption>cap</figcaption></figure>",
      "<img alt='first' alt='second'>word<br/>next<hr>after<wbr>joined",
      "<p>a</p></p>b", "text</p><p>para</p>", "<div>a</p>b</div>",
      "<p>a<div>b</div>c</p>", "<p>a<ul><li>x</li></ul></p>", "<li>a<li>b</li></li>",
      "<ul><li>a<span><li>b</li></span></li></ul>", "<a href=x>1<a href=y>2</a></a>",
      "<h1>a<h2>b</h2></h1>", "<b><i>x</b></i>", "<p>unclosed", "<div/>x", "</br>x",
      "<table><tr><td>cell</td></tr></table>", "<script>var x = '<p>';</script>after",
      "<svg><title>t</title></svg>z", "<!-- c -->x<!-->y<!--->z", "a<!-- -- --!> -->b",
      "<P CLASS=x>Upper</P>", "<p class=a\"b>q</p>", "<p a=\"1\"b=\"2\">no space</p>",
      "<p>\x01ctrl</p>", "<p>\xc2\x85nel</p>", "<p>bad \xff byte</p>", "<p>\xef\xb7\x90</p>",
      "&#0; &#128; &#xD800; &#x10FFFF; &notin; &ampx; &amp", "<p>a\r\nb\rc</p>",
      "<my-element>x</my-element>", "< p>x", "<3 love", "<!DOCTYPE html><p>x</p>",
      "<b><b><b><b>deep</b></b></b></b>", "<p>x</p >", "<img alt=\"&foo;\">", "<p title=\"a>b\">c</p>",
  };
  for (const char* html : cases) EXPECT_EQ(html_to_text(html), html_to_text_by_gumbo(html)) << html;
}

TEST(HtmlText, CollapseWhitespace) {
  for (const Case& c : kPlainCases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(collapse_whitespace(c.html), c.text);
  }
}

std::string repeat(std::string_view piece, int n) {
  std::string s;
  s.reserve(piece.size() * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) s += piece;
  return s;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Gumbo alone takes ~20 s on this (quadratic in depth); the guard must keep
// it fast and keep every word separate.
TEST(HtmlText, DeeplyNestedDivs) {
  const int n = 100000;
  const auto t0 = std::chrono::steady_clock::now();
  const std::string text = html_to_text(repeat("<div>w", n) + repeat("</div>", n));
  EXPECT_LT(seconds_since(t0), 5.0);
  std::string expected = repeat("w ", n);
  expected.pop_back();
  EXPECT_EQ(text, expected);
}

// A million nested inline elements overflow Gumbo's own recursion unguarded.
TEST(HtmlText, MillionNestedSpansDoNotCrash) {
  const int n = 1000000;
  EXPECT_EQ(html_to_text(repeat("<span>x", n)), repeat("x", n));
}

// Skip-class elements past the depth limit must still hide their content.
TEST(HtmlText, DeeplyNestedNoscriptStaysHidden) {
  EXPECT_EQ(html_to_text("start" + repeat("<noscript>x", 5000) + "<p>"), "start");
  EXPECT_EQ(html_to_text(repeat("<div>", 1000) + "a<script>hidden</script>b"), "ab");
}

TEST(HtmlText, HugeTextNode) {
  const int n = 2000000;  // 10 MB of text in one node
  const std::string text = html_to_text("<p>" + repeat("word ", n) + "</p>");
  EXPECT_EQ(text.size(), 5u * n - 1);
  EXPECT_EQ(text.substr(0, 10), "word word ");
}

bool valid_utf8(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += len;
  }
  return true;
}

// Random soup of tags, entities, quotes and bytes: the output must always
// be valid UTF-8 with single spaces between words and none at the ends.
TEST(HtmlText, RandomGarbageGivesCleanText) {
  static const char* const kPieces[] = {
      "<",      ">",        "</",      "/>",      "<div>",  "</div>", "<p",      "<script>",
      "</script", "<style>", "<!--",    "-->",     "<![CDATA[", "]]>",  "&",       "&amp;",
      "&#",     ";",        "\"",      "'",       "=",      " ",      "\n",      "\xC2\xA0",
      "text",   "\xFF",     "\xE2\x80", "<b>",    "<table><td>", "<img alt=", "<svg>", "<math>",
      "<template>", "<select><option>", "<textarea>", "<plaintext>", "\0", "<a href=x>"};
  std::mt19937 rng(20260902);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kPieces) - 1);
  std::uniform_int_distribution<int> length(0, 200);
  for (int round = 0; round < 3000; ++round) {
    std::string html;
    for (int k = length(rng); k > 0; --k) {
      const char* piece = kPieces[pick(rng)];
      html += *piece ? std::string(piece) : std::string(1, '\0');
    }
    const std::string text = html_to_text(html);
    SCOPED_TRACE(html);
    ASSERT_TRUE(valid_utf8(text));
    ASSERT_EQ(text.find("  "), std::string::npos);
    if (!text.empty()) {
      ASSERT_NE(text.front(), ' ');
      ASSERT_NE(text.back(), ' ');
    }
  }
}

}  // namespace
}  // namespace blogsearch
