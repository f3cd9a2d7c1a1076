// Versions of a post as `blogsearch show` and `blogsearch diff` present them
// (query/version_diff.h and the renderings in format.h), over a history made
// by hand: the range errors, which fields two versions differ in, the word
// diffs, versions without text, and the text and JSON outputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

#include "query/format.h"
#include "query/version_diff.h"

namespace blogsearch {
namespace {

VersionContent content(std::string title, std::string text) {
  VersionContent c;
  c.title = std::move(title);
  c.text = std::move(text);
  c.summary = c.text;
  c.link = "https://example.org/p";
  c.published = 1780308000;  // 2026-06-01T10:00:00Z
  return c;
}

// Versions 1 (first), 2 (title and text edited), 3 (no text sent), 4 (text
// back, one word more), as the replay would record them.
PostHistory history() {
  PostHistory h;
  h.contents = {content("Quokkas at dawn", "The quokka naps.\nVisitors feed it."),
                content("Quokkas at dusk", "The quokka naps.\nVisitors must not feed it."),
                content("Quokkas at dusk", ""),
                content("Quokkas at dusk", "The quokka naps.\nVisitors must not feed it. Ever.")};
  h.contents[2].summary = "";
  for (std::uint32_t i = 0; i < 4; ++i) {
    Version v;
    v.number = static_cast<int>(i) + 1;
    v.first_seen = 1780308000 + 86400 * i;
    v.last_seen = v.first_seen + 3600;
    v.content = i;
    if (i > 0) v.changed = changed_fields(h.contents[i - 1], h.contents[i]);
    v.no_text = i == 2;
    v.feed = "zoo";
    v.snapshot = "/archive/zoo/" + std::to_string(i) + ".xml";
    h.versions.push_back(v);
  }
  return h;
}

TEST(VersionDiff, RangeErrors) {
  const PostHistory h = history();
  for (long n : {1, 2, 4}) EXPECT_EQ(version_range_error(h, n), "") << n;
  EXPECT_EQ(version_range_error(h, 5), "post has 4 versions (1 to 4); there is no version 5");
  EXPECT_EQ(version_range_error(h, 0), "post has 4 versions (1 to 4); there is no version 0");
  EXPECT_EQ(version_range_error(h, -3), "post has 4 versions (1 to 4); there is no version -3");
  PostHistory one = h;
  one.versions.resize(1);
  EXPECT_EQ(version_range_error(one, 2), "post has 1 version (1); there is no version 2");
  EXPECT_NE(version_range_error(PostHistory{}, 1), "");
  EXPECT_THROW(diff_versions(h, 1, 5), std::out_of_range);
  EXPECT_THROW(diff_versions(h, 0, 2), std::out_of_range);
}

TEST(VersionDiff, FieldsAndWords) {
  const PostHistory h = history();
  const VersionDiff d = diff_versions(h, 1, 2);
  EXPECT_EQ(d.from, 1);
  EXPECT_EQ(d.to, 2);
  EXPECT_EQ(d.changed, (std::vector<std::string>{"title", "text", "summary"}));
  EXPECT_EQ(diff_markup(d.title, false), "Quokkas at [-dawn-]{+dusk+}");
  EXPECT_EQ(d.text.words_removed, 0u);
  EXPECT_EQ(d.text.words_added, 2u);
  // The text's line break stays in the block rendering.
  EXPECT_EQ(diff_block(d.text, false), "The quokka naps.\nVisitors {+must not+} feed it.");
  EXPECT_EQ(diff_block(d.text, true), "The quokka naps.\nVisitors \x1b[32mmust not\x1b[0m feed it.");
  // Not only neighbours: 1 against 4, and backwards.
  EXPECT_EQ(diff_block(diff_versions(h, 1, 4).text, false), "The quokka naps.\nVisitors {+must not+} feed it. {+Ever.+}");
  EXPECT_EQ(diff_block(diff_versions(h, 4, 2).text, false), "The quokka naps.\nVisitors must not feed it. [-Ever.-]");
  // A version against itself changes nothing.
  const VersionDiff same = diff_versions(h, 2, 2);
  EXPECT_TRUE(same.changed.empty());
  EXPECT_FALSE(same.text.changed());
  EXPECT_FALSE(same.title.changed());
}

TEST(VersionDiff, AVersionWithoutTextIsNotAnEdit) {
  const PostHistory h = history();
  const VersionDiff d = diff_versions(h, 2, 3);
  EXPECT_FALSE(d.from_no_text);
  EXPECT_TRUE(d.to_no_text);
  EXPECT_TRUE(d.text.parts.empty());  // not "every word removed"
  std::ostringstream out;
  write_version_diff(out, PostRecord{}, d, false);
  EXPECT_NE(out.str().find("(no text sent in version 3: the texts are not compared)"), std::string::npos) << out.str();
  const nlohmann::json j = version_diff_to_json(PostRecord{}, d);
  EXPECT_TRUE(j["text"].is_null());
  EXPECT_TRUE(j["to_no_text"].get<bool>());
}

TEST(VersionDiff, VersionsList) {
  std::ostringstream out;
  write_versions(out, history());
  EXPECT_EQ(out.str(),
            "\nVersions (4):\n"
            "  1  2026-06-01T10:00:00Z – 2026-06-01T11:00:00Z  first version\n"
            "  2  2026-06-02T10:00:00Z – 2026-06-02T11:00:00Z  title, text, summary\n"
            "  3  2026-06-03T10:00:00Z – 2026-06-03T11:00:00Z  text, summary; no text sent\n"
            "  4  2026-06-04T10:00:00Z – 2026-06-04T11:00:00Z  text, summary\n");
  const nlohmann::json j = history_to_json(history());
  ASSERT_EQ(j.size(), 4u);
  EXPECT_EQ(j[2]["no_text"], true);
  EXPECT_EQ(j[1]["changed"], nlohmann::json({"title", "text", "summary"}));
  EXPECT_EQ(j[3]["snapshot"], "/archive/zoo/3.xml");
}

// `show` lists the newest versions of a long history, and says how many
// older ones it leaves out (--all lists them).
TEST(VersionDiff, VersionsListOfALongHistoryIsCapped) {
  PostHistory h = history();
  while (h.versions.size() < 25) {
    Version v = h.versions.back();
    v.number++;
    v.first_seen = v.last_seen = v.first_seen + 86400;
    h.versions.push_back(v);
  }
  std::ostringstream capped, all;
  write_versions(capped, h, 20);
  write_versions(all, h);
  const std::string s = capped.str();
  EXPECT_EQ(s.rfind("\nVersions (25):\n  (5 older versions not listed: --all lists every version, --version N prints one)\n"
                    "   6  ",
                    0),
            0u)
      << s;
  EXPECT_NE(s.find("\n  25  "), std::string::npos) << s;
  EXPECT_EQ(s.find("first version"), std::string::npos) << s;
  EXPECT_EQ(std::count(s.begin(), s.end(), '\n'), 2 + 1 + 20);
  EXPECT_NE(all.str().find("   1  2026-06-01T10:00:00Z"), std::string::npos);
  EXPECT_EQ(all.str().find("not listed"), std::string::npos);
  const nlohmann::json j = history_to_json(h, 20);
  ASSERT_EQ(j.size(), 20u);
  EXPECT_EQ(j[0]["number"], 6);
  EXPECT_EQ(j[19]["number"], 25);
  EXPECT_EQ(history_to_json(h).size(), 25u);
  EXPECT_EQ(history_to_json(history(), 20).size(), 4u);
}

TEST(VersionDiff, OneVersion) {
  const PostHistory h = history();
  std::ostringstream out;
  write_version_text(out, h, 1);
  const std::string s = out.str();
  EXPECT_EQ(s.rfind("Quokkas at dawn\n\n", 0), 0u) << s;
  EXPECT_NE(s.find("version:      1 of 4\n"), std::string::npos) << s;
  EXPECT_NE(s.find("published:    2026-06-01T10:00:00Z\n"), std::string::npos) << s;
  EXPECT_NE(s.find("\nThe quokka naps.\nVisitors feed it.\n"), std::string::npos) << s;
  std::ostringstream none;
  write_version_text(none, h, 3);
  EXPECT_NE(none.str().find("(no text sent in this version)"), std::string::npos);
  const nlohmann::json j = version_to_json(h, 2);
  EXPECT_EQ(j["title"], "Quokkas at dusk");
  EXPECT_EQ(j["text"], "The quokka naps.\nVisitors must not feed it.");
  EXPECT_EQ(j["published"], "2026-06-01T10:00:00Z");
  EXPECT_TRUE(j["updated"].is_null());
}

// Unchanged text far from the changes is left out, its line breaks kept
// near them; a text without changes is shown whole.
TEST(VersionDiff, Context) {
  std::string older, newer;
  for (int i = 1; i <= 30; ++i) older += "w" + std::to_string(i) + (i == 10 ? "\n" : " ");
  newer = older;
  older += "end.";
  newer += "finish.";
  const TextDiff d = diff_words("start " + older, "begin " + newer);
  EXPECT_EQ(diff_block(d, false, 3), "[-start-]{+begin+} w1 w2 w3 … w28 w29 w30 [-end.-]{+finish.+}");
  EXPECT_EQ(diff_block(d, false, 14), "[-start-]{+begin+} w1 w2 w3 w4 w5 w6 w7 w8 w9 w10\nw11 w12 w13 w14 … w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 [-end.-]{+finish.+}");
  // Cutting one word out would not shorten anything.
  EXPECT_EQ(diff_block(d, false, 15), "[-start-]{+begin+} w1 w2 w3 w4 w5 w6 w7 w8 w9 w10\nw11 w12 w13 w14 w15 w16 w17 w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 w28 w29 w30 [-end.-]{+finish.+}");
  EXPECT_EQ(diff_block(d, false, 0), "[-start-]{+begin+} … [-end.-]{+finish.+}");
  EXPECT_EQ(diff_block(d, false), diff_block(d, false, 1000));
  const TextDiff head_only = diff_words(older + " x", older + " y");
  EXPECT_EQ(diff_block(head_only, false, 2), "… w30 end. [-x-]{+y+}");
  const TextDiff none = diff_words(older, older);
  EXPECT_EQ(diff_block(none, false, 2), older);
}

// A hostile title or text cannot drive the terminal through a diff.
TEST(VersionDiff, ControlCharactersAreDropped) {
  PostHistory h = history();
  h.contents[1].text = "The quokka naps.\n\x1b[2JVisitors must not feed it.";
  const std::string block = diff_block(diff_versions(h, 1, 2).text, true);
  EXPECT_EQ(block.find("\x1b[2J"), std::string::npos) << block;
}

}  // namespace
}  // namespace blogsearch
