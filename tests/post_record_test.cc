// The codecs of stored data (record/): the post record (schema::kSlotRecord) read back into a
// PostRecord, every field of its layout, data of another shape read safely; the history (document
// data) and the feed metadata, encoded and decoded.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <string>

#include "record/feed_meta.h"
#include "record/post_history.h"
#include "record/post_record.h"
#include "record/stored_text.h"

namespace blogsearch {
namespace {

TEST(PostRecord, ReadsEveryField) {
  const std::string data =
      R"({"authors":["Ada","Grace \"G\" H"],"categories":["Compilers"],"content_hash":"00ff",)"
      R"("feed":{"id":"pytorch","title":"PyTorch Blog","url":"https://pytorch.org/feed"},)"
      R"("feeds":["pytorch","mirror"],"first_seen":"2026-09-01T10:00:00Z",)"
      R"("last_change":"2026-09-02T10:00:00Z","no_text":true,)"
      R"("id":"urn:1","in_feed":true,"last_seen":"2026-09-03T10:00:00Z","link":"https://x/1",)"
      R"("published":"2026-08-31T09:00:00Z","snapshot":"pytorch/b.xml","summary":"Sum \u00e9 \u2026",)"
      R"("title":"T\u00fctle","updated":null,"versions":2,"extra":{"nested":[1,{"a":[]}]}})";
  PostRecord p = parse_post_record(data, 7);
  EXPECT_EQ(p.docid, 7u);
  EXPECT_EQ(p.id, "urn:1");
  EXPECT_EQ(p.link, "https://x/1");
  EXPECT_EQ(p.title, "Tütle");
  EXPECT_EQ(p.authors, (std::vector<std::string>{"Ada", "Grace \"G\" H"}));
  EXPECT_EQ(p.categories, (std::vector<std::string>{"Compilers"}));
  EXPECT_EQ(p.feed_id, "pytorch");
  EXPECT_EQ(p.feed_title, "PyTorch Blog");
  EXPECT_EQ(p.feed_url, "https://pytorch.org/feed");
  EXPECT_EQ(p.feeds, (std::vector<std::string>{"pytorch", "mirror"}));
  EXPECT_EQ(p.published, "2026-08-31T09:00:00Z");
  EXPECT_EQ(p.updated, "");
  EXPECT_EQ(p.first_seen, "2026-09-01T10:00:00Z");
  EXPECT_EQ(p.last_seen, "2026-09-03T10:00:00Z");
  EXPECT_EQ(p.versions, 2);
  EXPECT_TRUE(p.in_feed);
  EXPECT_EQ(p.summary, "Sum é …");
  EXPECT_EQ(p.content_hash, "00ff");
  EXPECT_EQ(p.snapshot, "pytorch/b.xml");
  EXPECT_EQ(p.last_change, "2026-09-02T10:00:00Z");
  EXPECT_TRUE(p.no_text);
  EXPECT_TRUE(p.text.empty());  // the text is in a value slot, not the data
}

TEST(PostRecord, WrongTypesAreSkipped) {
  PostRecord p = parse_post_record(
      R"({"id":1,"title":"ok","authors":"Ada","categories":[1,"C",null],"versions":"2",)"
      R"("in_feed":"yes","feed":"old-feed-id","history":["x",{"content_hash":5}]})",
      1);
  EXPECT_EQ(p.id, "");
  EXPECT_EQ(p.title, "ok");
  EXPECT_TRUE(p.authors.empty());
  EXPECT_EQ(p.categories, (std::vector<std::string>{"C"}));
  EXPECT_EQ(p.versions, 0);
  EXPECT_FALSE(p.in_feed);
  EXPECT_EQ(p.feed_id, "old-feed-id");  // the first layout stored just the id
}

TEST(PostRecord, BadDataGivesAnEmptyRecord) {
  for (const std::string& data : {std::string(""), std::string("not json"), std::string("{\"id\":\"x\""),
                                  std::string("[\"id\"]"), std::string("{\"id\":\"x\"} trailing"),
                                  std::string(100000, '[') + std::string(100000, ']'),
                                  "{\"a\":" + std::string(50000, '{')}) {
    PostRecord p = parse_post_record(data, 3);
    EXPECT_EQ(p.docid, 3u);
    EXPECT_EQ(p.id, "") << data.substr(0, 20);
    EXPECT_EQ(p.title, "");
  }
}

TEST(PostRecord, EncodeThenDecodeGivesItBack) {
  PostRecord p;
  p.id = "urn:1";
  p.link = "https://x/1";
  p.title = "T\u00fctle \"q\"";
  p.authors = {"Ada", "Grace"};
  p.categories = {"C"};
  p.feed_id = "f";
  p.feed_title = "F";
  p.feed_url = "https://x/feed";
  p.feeds = {"f", "g"};
  p.published = "2026-08-31T09:00:00Z";
  p.first_seen = "2026-09-01T10:00:00Z";
  p.last_seen = "2026-09-03T10:00:00Z";
  p.last_change = "2026-09-02T10:00:00Z";
  p.versions = 3;
  p.in_feed = true;
  p.no_text = true;
  p.summary = "s";
  p.content_hash = "00ff";
  p.snapshot = "/archive/f/a.xml";
  const std::string data = encode_post_record(p);
  EXPECT_EQ(data.find("history"), std::string::npos);  // results do not carry it
  PostRecord q = parse_post_record(data, 9);
  EXPECT_EQ(q.docid, 9u);
  EXPECT_EQ(encode_post_record(q), data);
  EXPECT_EQ(q.updated, "");  // null, not ""
  EXPECT_NE(data.find("\"updated\":null"), std::string::npos);
}

TEST(PostHistory, EncodeThenDecodeGivesItBack) {
  PostHistory h;
  VersionContent a;
  a.title = "A";
  a.text = "text \u00e9";
  a.published = -86400;  // before 1970
  a.authors = {"Ada"};
  a.category_terms = {"ml"};
  VersionContent b = a;
  b.text.clear();
  h.contents = {a, b};
  h.versions = {{1, 100, 200, 0, {}, false, "f", "/a/f/1.xml"}, {2, 300, 300, 1, {"text"}, true, "g", ""}};
  h.appearances = {{"f", {100, 200}, {0, 0}}, {"g", {300}, {1}}};
  h.last_change = 300;
  const std::string data = encode_post_history(h);
  PostHistory d = decode_post_history(data);
  EXPECT_TRUE(d.ok);
  EXPECT_EQ(encode_post_history(d), data);
  ASSERT_EQ(d.versions.size(), 2u);
  EXPECT_EQ(d.content_of(d.versions[1]).text, "");
  EXPECT_TRUE(d.versions[1].no_text);
  EXPECT_EQ(d.versions[1].changed, std::vector<std::string>{"text"});
  EXPECT_EQ(d.contents[0].published, std::optional<std::int64_t>(-86400));
  EXPECT_EQ(d.appearances[0].times, (std::vector<std::int64_t>{100, 200}));
  EXPECT_EQ(format_time(300), "1970-01-01T00:05:00Z");
}

TEST(PostHistory, LaterTextsAreStoredAsDeltasAndComeBackWhole) {
  PostHistory h;
  VersionContent a;
  a.text = std::string(200, 'x') + " caf\u00e9 " + std::string(200, 'y');
  a.summary = a.text.substr(0, 100);
  VersionContent b = a;
  b.text = std::string(200, 'x') + " caf\u00ea " + std::string(200, 'y');  // é -> ê: a character's last byte differs
  VersionContent c = b;
  c.text = "short";  // nothing in common: stored whole
  c.summary = "";
  h.contents = {a, b, c};
  h.versions = {{1, 1, 1, 0, {}, false, "f", ""}, {2, 2, 2, 1, {"text"}, false, "f", ""}, {3, 3, 3, 2, {"text"}, false, "f", ""}};
  h.appearances = {{"f", {1, 2, 3}, {0, 1, 2}}};
  const std::string data = encode_post_history(h);
  EXPECT_NE(data.find("\"text_delta\""), std::string::npos);
  EXPECT_NE(data.find("\"summary_delta\""), std::string::npos);
  const std::string run(200, 'y');  // in the first text only: the second is a delta
  EXPECT_NE(data.find(run), std::string::npos);
  EXPECT_EQ(data.find(run), data.rfind(run));
  PostHistory d = decode_post_history(data);
  ASSERT_EQ(d.contents.size(), 3u);
  EXPECT_EQ(d.contents[1].text, b.text);
  EXPECT_EQ(d.contents[1].summary, b.summary);
  EXPECT_EQ(d.contents[2].text, "short");
  EXPECT_EQ(d.contents[2].summary, "");
  EXPECT_EQ(encode_post_history(d), data);
  // A delta that reaches past the text before it, or comes first, reads as empty.
  PostHistory bad = decode_post_history(
      R"({"contents":[{"text_delta":[0,0,"a"]},{"text":"abc"},{"text_delta":[2,2,"z"]},{"text_delta":[1,0,"z"]}]})");
  ASSERT_EQ(bad.contents.size(), 4u);
  EXPECT_EQ(bad.contents[0].text, "");
  EXPECT_EQ(bad.contents[2].text, "");
  EXPECT_EQ(bad.contents[3].text, "");  // the one before is empty
}

TEST(PostHistory, TheSearchableTextIsStoredOnceAndReadBackFromItsSlot) {
  PostHistory h;
  VersionContent a;
  a.text = std::string(300, 'a') + " first";
  VersionContent b = a;
  b.text = std::string(300, 'a') + " second, the text kSlotText holds";
  VersionContent c = b;
  c.title = "retitled";  // the same text again: stored once too
  VersionContent d = a;
  d.title = "a revert after an edit";
  h.contents = {a, b, c, d};
  h.versions = {{1, 1, 1, 0, {}, false, "f", ""}, {2, 2, 2, 1, {"text"}, false, "f", ""},
                {3, 3, 3, 2, {"title"}, false, "f", ""}, {4, 4, 4, 3, {"title", "text"}, false, "f", ""}};
  h.appearances = {{"f", {1, 2, 3, 4}, {0, 1, 2, 3}}};
  const std::string searchable = b.text;
  const std::string data = encode_post_history(h, searchable);
  EXPECT_EQ(data.find("the text kSlotText holds"), std::string::npos);
  EXPECT_NE(data.find("\"text_stored\":true"), std::string::npos);
  EXPECT_LT(data.size(), encode_post_history(h).size());
  for (const std::string& value : {encode_stored_text(searchable), searchable}) {
    PostHistory back = decode_post_history(data, value);
    ASSERT_EQ(back.contents.size(), 4u);
    EXPECT_EQ(back.contents[0].text, a.text);
    EXPECT_EQ(back.contents[1].text, b.text);
    EXPECT_EQ(back.contents[2].text, b.text);
    EXPECT_EQ(back.contents[3].text, a.text);  // a delta against the content before, which came from the slot
    EXPECT_EQ(encode_post_history(back, searchable), data);
  }
  // Data written before: the texts are in it, the slot is not needed.
  const PostHistory old = decode_post_history(encode_post_history(h));
  EXPECT_EQ(old.contents[2].text, b.text);
  // Without its slot the text is empty, nothing else is lost.
  const PostHistory lost = decode_post_history(data);
  EXPECT_EQ(lost.contents[1].text, "");
  EXPECT_EQ(lost.contents[2].title, "retitled");
  EXPECT_EQ(lost.contents[0].text, a.text);
}

TEST(PostHistory, OnlyTheTextsAskedForAreRebuilt) {
  // Five versions, each text a delta against the one before, the fourth
  // the searchable text (from the slot) and the fifth a return to the third.
  PostHistory h;
  const std::string base(300, 'w');
  for (int i = 0; i < 5; ++i) {
    VersionContent c;
    c.title = "t" + std::to_string(i);
    c.text = base + " edit " + std::to_string(i == 4 ? 2 : i) + " " + base;
    c.summary = "summary " + std::to_string(i) + " " + base;
    h.contents.push_back(c);
    h.versions.push_back({i + 1, i, i, static_cast<std::uint32_t>(i), {}, false, "f", ""});
  }
  const std::string searchable = h.contents[3].text;
  const std::string data = encode_post_history(h, searchable);
  const PostHistory all = decode_post_history(data, searchable);
  for (int i = 0; i < 5; ++i) ASSERT_EQ(all.contents[i].text, h.contents[i].text);

  auto texts_of = [&](const HistoryTexts& texts) {
    const PostHistory d = decode_post_history(data, searchable, texts);
    EXPECT_EQ(d.versions.size(), 5u);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < d.contents.size(); ++i) {
      EXPECT_EQ(d.contents[i].title, h.contents[i].title);  // every other field is there
      const bool has = !d.contents[i].text.empty();
      EXPECT_EQ(has, !d.contents[i].summary.empty());
      if (has) {
        EXPECT_EQ(d.contents[i].text, h.contents[i].text);
        EXPECT_EQ(d.contents[i].summary, h.contents[i].summary);
      }
      out.push_back(has ? d.contents[i].title : "-");
    }
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(texts_of({}), (V{"t0", "t1", "t2", "t3", "t4"}));
  EXPECT_EQ(texts_of(HistoryTexts::none()), (V{"-", "-", "-", "-", "-"}));
  EXPECT_EQ(texts_of(HistoryTexts::of({3})), (V{"-", "-", "t2", "-", "-"}));
  EXPECT_EQ(texts_of(HistoryTexts::of({5, 1})), (V{"t0", "-", "-", "-", "t4"}));  // past the slot's text
  EXPECT_EQ(texts_of(HistoryTexts::of({-2, -1})), (V{"-", "-", "-", "t3", "t4"}));
  EXPECT_EQ(texts_of(HistoryTexts::of({0, 6, -6, 1000})), (V{"-", "-", "-", "-", "-"}));
}

TEST(PostHistory, BadDataIsAnEmptyHistoryOrSkipsWhatIsBroken) {
  EXPECT_FALSE(decode_post_history("").ok);
  EXPECT_FALSE(decode_post_history("[1]").ok);
  // A version naming a content that is not there, and appearances whose
  // arrays differ in length, are left out.
  PostHistory h = decode_post_history(
      R"({"contents":[{"title":"x"}],"versions":[{"content":3},{"content":0,"number":1}],)"
      R"("appearances":[{"feed":"f","times":[1,2],"contents":[0]},{"feed":"g","times":[5],"contents":[0]}]})");
  EXPECT_TRUE(h.ok);
  ASSERT_EQ(h.versions.size(), 1u);
  EXPECT_EQ(h.content_of(h.versions[0]).title, "x");
  ASSERT_EQ(h.appearances.size(), 1u);
  EXPECT_EQ(h.appearances[0].feed, "g");
}

// Each field of another type than written reads as empty, whatever
// comes first in the object (the writer puts "appearances" before the
// contents they name).
TEST(PostHistory, FieldsOfAnotherTypeReadAsEmpty) {
  PostHistory h = decode_post_history(
      R"({"appearances":[{"feed":"f","times":[1,"x"],"contents":[0,0]},{"feed":"h","times":[3,4],"contents":[1,0]},)"
      R"({"feed":"i","times":5,"contents":[0]},7],)"
      R"("contents":[5,{"title":7,"text":"t","authors":["a",1,["b"]],"published":"no","updated":2,"summary_delta":3}],)"
      R"("versions":[{"content":-1},{"content":1.5},{"content":"1"},)"
      R"({"content":1,"number":2,"no_text":1,"changed":["text",{}],"feed":["f"]},7],"last_change":2.5})");
  EXPECT_TRUE(h.ok);
  ASSERT_EQ(h.contents.size(), 2u);  // a content that is no object is an empty one
  EXPECT_EQ(h.contents[0], VersionContent());
  EXPECT_EQ(h.contents[1].title, "");
  EXPECT_EQ(h.contents[1].text, "t");
  EXPECT_EQ(h.contents[1].summary, "");  // a delta that is no array
  EXPECT_EQ(h.contents[1].authors, std::vector<std::string>{"a"});
  EXPECT_FALSE(h.contents[1].published);
  EXPECT_EQ(h.contents[1].updated, std::optional<std::int64_t>(2));
  ASSERT_EQ(h.versions.size(), 1u);
  EXPECT_EQ(h.versions[0].content, 1u);
  EXPECT_EQ(h.versions[0].number, 2);
  EXPECT_FALSE(h.versions[0].no_text);
  EXPECT_EQ(h.versions[0].changed, std::vector<std::string>{"text"});
  EXPECT_EQ(h.versions[0].feed, "");
  ASSERT_EQ(h.appearances.size(), 1u);
  EXPECT_EQ(h.appearances[0].feed, "h");
  EXPECT_EQ(h.appearances[0].times, (std::vector<std::int64_t>{3, 7}));
  EXPECT_EQ(h.appearances[0].contents, (std::vector<std::uint32_t>{1, 0}));
  EXPECT_EQ(h.last_change, 0);
  // Not JSON, or more after the object: no history.
  EXPECT_FALSE(decode_post_history(R"({"contents":[]} x)").ok);
  EXPECT_FALSE(decode_post_history(R"({"contents":[{"title":"x"})").ok);
  EXPECT_TRUE(decode_post_history(R"({"contents":[]})").ok);
}

TEST(FeedMeta, EncodeThenDecodeKeepsUnknownKeys) {
  FeedMeta f = decode_feed_meta(R"({"title":"T","url":"u","someone_elses":{"x":1},"fetch":{"etag":"e",)"
                                R"("last_error":null,"consecutive_failures":2}})",
                                "feed-id");
  EXPECT_EQ(f.id, "feed-id");
  EXPECT_EQ(f.title, "T");
  ASSERT_TRUE(f.fetch);
  EXPECT_EQ(f.fetch->etag, "e");
  EXPECT_EQ(f.fetch->last_error, "");
  EXPECT_EQ(f.fetch->consecutive_failures, 2);
  EXPECT_FALSE(f.newest_complete);
  f.newest_complete = 5;
  f.latest_body = "abcd";
  const std::string data = encode_feed_meta(f);
  EXPECT_NE(data.find("someone_elses"), std::string::npos);
  FeedMeta g = decode_feed_meta(data, "other");
  EXPECT_EQ(g.id, "feed-id");
  EXPECT_EQ(g.newest_complete, std::optional<std::int64_t>(5));
  EXPECT_EQ(g.latest_body, "abcd");
  EXPECT_EQ(encode_feed_meta(g), data);
  EXPECT_EQ(decode_feed_meta("garbage", "x").id, "x");
}

// The plain text (schema::kSlotText): long texts compressed, every text read
// back as it was, damaged values read as nothing.
TEST(StoredText, LongTextIsCompressedAndReadBack) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "The quick brown fox jumps over the lazy dog " + std::to_string(i) + ". ";
  const std::string stored = encode_stored_text(text);
  EXPECT_LT(stored.size(), text.size() / 2);
  EXPECT_EQ(stored.substr(0, 2), std::string("\0L", 2));
  EXPECT_EQ(decode_stored_text(stored), text);
}

// Databases written before LZ4 hold zlib streams: they still read.
TEST(StoredText, ZlibValuesOfOlderDatabasesStillRead) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "Ein zlib-Strom von früher " + std::to_string(i) + ". ";
  uLongf bound = compressBound(static_cast<uLong>(text.size()));
  std::string stored(6 + bound, '\0');
  stored[1] = 'Z';
  const auto n = static_cast<std::uint32_t>(text.size());
  for (int i = 0; i < 4; ++i) stored[2 + i] = static_cast<char>((n >> (24 - 8 * i)) & 0xFF);
  ASSERT_EQ(compress2(reinterpret_cast<Bytef*>(&stored[6]), &bound, reinterpret_cast<const Bytef*>(text.data()),
                      static_cast<uLong>(text.size()), 1),
            Z_OK);
  stored.resize(6 + bound);
  EXPECT_EQ(decode_stored_text(stored), text);
  EXPECT_EQ(decode_stored_text(stored.substr(0, stored.size() - 4)), "");
}

TEST(StoredText, ShortAndIncompressibleTextsAreKeptAsTheyAre) {
  EXPECT_EQ(encode_stored_text("Alpha words."), "Alpha words.");
  EXPECT_EQ(decode_stored_text("Alpha words."), "Alpha words.");
  EXPECT_EQ(encode_stored_text(""), "");
  std::string noise;
  std::uint32_t x = 12345;
  for (int i = 0; i < 1000; ++i) noise += static_cast<char>('!' + (x = x * 1103515245 + 12345) % 90);
  const std::string stored = encode_stored_text(noise);
  EXPECT_LE(stored.size(), noise.size());
  EXPECT_EQ(decode_stored_text(stored), noise);
}

TEST(StoredText, TextStartingWithNulIsNotMistakenForCompressed) {
  const std::string text("\0Z\0\0\0\5hello", 10);
  const std::string stored = encode_stored_text(text);
  EXPECT_EQ(decode_stored_text(stored), text);
  const std::string longer = std::string("\0P", 2) + std::string(300, '\x01');
  EXPECT_EQ(decode_stored_text(encode_stored_text(longer)), longer);
}

TEST(StoredText, DamagedValuesReadAsNothing) {
  std::string text;
  for (int i = 0; i < 500; ++i) text += "word" + std::to_string(i % 37) + ' ';
  std::string stored = encode_stored_text(text);
  ASSERT_EQ(stored.substr(0, 2), std::string("\0L", 2));
  std::string truncated = stored.substr(0, stored.size() / 2);
  EXPECT_EQ(decode_stored_text(truncated), "");
  std::string huge = stored;
  huge[2] = '\x7f';  // a length far past what the block can expand to: refused before allocating
  EXPECT_EQ(decode_stored_text(huge), "");
  std::string shorter = stored;
  shorter[5] = static_cast<char>(static_cast<unsigned char>(shorter[5]) - 1);  // one byte less than the block holds
  EXPECT_EQ(decode_stored_text(shorter), "");
  // An LZ4 block has no checksum: a changed byte reads as nothing or as a
  // text of the stated length, never past it.
  for (std::size_t at = 6; at < stored.size(); at += 7) {
    std::string flipped = stored;
    flipped[at] ^= 0x55;
    const std::string got = decode_stored_text(flipped);
    EXPECT_TRUE(got.empty() || got.size() == text.size()) << "byte " << at;
  }
}

}  // namespace
}  // namespace blogsearch
