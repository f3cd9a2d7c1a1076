// Links compared as people type them (query/link_key.h), issue 15 point 11.
#include <gtest/gtest.h>

#include "query/link_key.h"

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

}  // namespace
}  // namespace blogsearch
