// language.h: which language a post is stemmed as (issue 16).
//
// The feed's declaration wins when it names a language Xapian stems
// (schema::kLanguages); otherwise a vote of common short words ("the",
// "und", "les", "los"...) over the title and the start of the text picks
// English, German, French or Spanish, and English when the vote is not
// clear. Pure functions; nothing here throws except std::bad_alloc.
#pragma once

#include <string>
#include <string_view>

namespace blogsearch {

// The schema::kLanguages code to stem a post as.
std::string post_language(std::string_view declared, std::string_view title, std::string_view text);

// The vote alone: "en", "de", "fr" or "es".
std::string detect_language(std::string_view title, std::string_view text);

}  // namespace blogsearch
