// Links compared as people type them (record/link_key.h), issue 15 point 11.
#include <gtest/gtest.h>

#include "record/link_key.h"

namespace blogsearch {
namespace {

struct SameKey {
  const char* typed;
  const char* stored;
};

TEST(LinkKey, FormsOfOneLinkHaveOneKey) {
  const SameKey cases[] = {
      {"http://example.org/post/1", "https://example.org/post/1"},
      {"https://example.org/post/1/", "https://example.org/post/1"},
      {"https://example.org/post/1#comments", "https://example.org/post/1"},
      {"https://EXAMPLE.Org/post/1", "https://example.org/post/1"},
      {"https://www.example.org/post/1", "https://example.org/post/1"},
      {"https://example.org:443/post/1", "https://example.org/post/1"},
      {"http://example.org:80/post/1", "https://example.org/post/1"},
      {"https://user@example.org/post/1", "https://example.org/post/1"},
      {"  https://example.org/post/1  ", "https://example.org/post/1"},
      {"https://example.org/post/1?utm_source=rss&utm_medium=feed", "https://example.org/post/1"},
      {"https://example.org/?p=42&utm_campaign=x", "https://example.org/?p=42"},
      {"https://example.org/?fbclid=abc&p=42", "https://example.org/?p=42"},
      {"https://example.org/blog/日本語/", "https://example.org/blog/%E6%97%A5%E6%9C%AC%E8%AA%9E"},
      {"https://example.org/a%2fb", "https://example.org/a%2Fb"},
      {"https://example.org/~ada/%7euser%2D1", "https://example.org/%7Eada/~user-1"},  // unreserved escapes decoded
      {"https://example.org", "https://example.org/"},
      {"HTTPS://example.org./x", "https://example.org/x"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(link_key(c.typed), link_key(c.stored)) << c.typed;
    EXPECT_FALSE(link_key(c.typed).empty()) << c.typed;
  }
}

TEST(LinkKey, DifferentLinksKeepDifferentKeys) {
  const SameKey cases[] = {
      {"https://example.org/Post", "https://example.org/post"},  // paths are case-sensitive
      {"https://example.org/?p=42", "https://example.org/?p=43"},
      {"https://example.org/a/b", "https://example.org/a"},
      {"https://example.org:8080/x", "https://example.org/x"},
      {"https://example.net/x", "https://example.org/x"},
      {"ftp://example.org/x", "https://example.org/x"},
  };
  for (const auto& c : cases) EXPECT_NE(link_key(c.typed), link_key(c.stored)) << c.typed;
}

TEST(LinkKey, NotALink) {
  for (const char* s : {"", "post-42", "urn:uuid:1234", "example.org/post", "//example.org/x", "https://", "https:///x",
                        "tag:example.org,2026:1"})
    EXPECT_EQ(link_key(s), "") << s;
  EXPECT_EQ(link_key_host("https://WWW.Example.org:443/x"), "example.org");
  EXPECT_EQ(link_key_host("https://[::1]:8080/x"), "[::1]:8080");
}

// The copies of one post that blog-history holds under two links: two
// feeds of one blog (elixir-lang.org over http and https), one site at two
// addresses (ccc.de with and without /de/).
TEST(PastedLink, IsALinkAlone) {
  EXPECT_EQ(pasted_link("https://pytorch.org/blog/x/"), "https://pytorch.org/blog/x/");
  EXPECT_EQ(pasted_link("  HTTP://Example.org/a?b=c#d\n"), "HTTP://Example.org/a?b=c#d");
  EXPECT_EQ(pasted_link("jeffgeerling.com/blog/2025/big-gpus"), "https://jeffgeerling.com/blog/2025/big-gpus");
  EXPECT_EQ(pasted_link("www.example.org/"), "https://www.example.org/");
  for (const char* not_a_link : {"", "   ", "python", "node.js", "site:example.org", "example.org/a words",
                                 "a/b", "/blog/x", "\"https://example.org/x\"", "https://", "http:///x",
                                 ".example.org/x", "exa_mple.org/x", "ftp://example.org/x"}) {
    EXPECT_EQ(pasted_link(not_a_link), "") << not_a_link;
  }
}

TEST(DuplicateKey, CopiesOfOnePostShareIt) {
  const SameKey cases[] = {
      {"http://elixir-lang.org/blog/2026/02/26/eager-literal-intersections/",
       "https://elixir-lang.org/blog/2026/02/26/eager-literal-intersections/"},
      {"https://www.ccc.de/de/updates/2026/verhaltensscanner-berlin",
       "https://www.ccc.de/updates/2026/verhaltensscanner-berlin"},
      {"https://example.org/pt-br/post", "https://example.org/post/"},
      {"https://example.org/en_US/post?utm_source=rss", "http://www.example.org/post"},
      {"https://example.org/post#Part%201", "https://example.org/post#Part 1"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(duplicate_key(c.typed, "A Post"), duplicate_key(c.stored, " a  post")) << c.typed;
    EXPECT_FALSE(duplicate_key(c.typed, "A Post").empty()) << c.typed;
  }
}

// Posts of one page told apart by their fragments (ziglang.org's devlog)
// stay apart, as do paths whose first segment is not a language's, and
// posts of one link with two titles.
TEST(DuplicateKey, DifferentPostsKeepDifferentKeys) {
  const SameKey cases[] = {
      {"https://ziglang.org/devlog/2026/#2026-06-30", "https://ziglang.org/devlog/2026/#2026-06-26"},
      {"https://ziglang.org/devlog/2026/#2026-06-30", "https://ziglang.org/devlog/2026/"},
      {"https://example.org/news/post", "https://example.org/post"},
      {"https://example.org/de/a", "https://example.org/fr/b"},
      {"https://example.org/2026/post", "https://example.org/post"},
  };
  for (const auto& c : cases) EXPECT_NE(duplicate_key(c.typed, "Title"), duplicate_key(c.stored, "Title")) << c.typed;
  EXPECT_EQ(duplicate_key("urn:uuid:1234", "Title"), "");
  // A feed whose items all link to one page (a changelog) keeps its posts.
  EXPECT_NE(duplicate_key("https://example.org/changelog", "Version 1.2"),
            duplicate_key("https://example.org/changelog", "Version 1.3"));
  EXPECT_EQ(link_key("https://ziglang.org/devlog/2026/#2026-06-30"), link_key("https://ziglang.org/devlog/2026/"))
      << "show URL still finds a post without its fragment";
}

}  // namespace
}  // namespace blogsearch
