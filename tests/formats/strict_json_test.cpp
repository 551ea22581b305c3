// Tests of the strict JSON reader (formats/strict_json.h) that the checkpoint index,
// config.json and graph files go through: what nlohmann-json alone would accept and it rejects
// (a NUL byte, a key twice in one object), and the one-line reasons it gives.
#include <gtest/gtest.h>

#include <string>

#include "formats/strict_json.h"

namespace {

using halogen::parse_strict_json;
using halogen::StrictJsonError;
using Kind = halogen::StrictJsonError::Kind;

// The error parse_strict_json raises for `text`; fails the test when it raises none.
StrictJsonError error_of(const std::string &text) {
    try {
        parse_strict_json(text);
    } catch (const StrictJsonError &e) {
        return e;
    }
    ADD_FAILURE() << "no error for " << text;
    return StrictJsonError(Kind::Syntax, "none");
}

TEST(StrictJson, ReadsWhatNlohmannReads) {
    const nlohmann::json v = parse_strict_json(R"({"a": {"b": [1, 2]}, "c": "d", "e": {"b": 3}})");
    EXPECT_EQ(v["a"]["b"][1], 2);
    EXPECT_EQ(v["c"], "d");
    EXPECT_EQ(v["e"]["b"], 3);   // the same key in two objects is two keys
}

TEST(StrictJson, RejectsANulByteWhereNlohmannWouldStop) {
    // nlohmann-json alone parses the text before the NUL and drops the rest.
    EXPECT_EQ(nlohmann::json::parse(std::string("{}\0{\"x\": 1}", 11)), nlohmann::json::object());
    const StrictJsonError e = error_of(std::string("{}\0{\"x\": 1}", 11));
    EXPECT_EQ(e.kind, Kind::NulByte);
    EXPECT_STREQ(e.what(), "not valid JSON (NUL byte at 2)");
}

TEST(StrictJson, RejectsAKeyTwiceInOneObjectAtAnyDepth) {
    for (const std::string text : {R"({"a": 1, "a": 2})", R"({"x": {"a": 1, "a": 1}})", R"([{"a": 1, "\u0061": 2}])"}) {
        const StrictJsonError e = error_of(text);
        EXPECT_EQ(e.kind, Kind::RepeatedKey) << text;
        EXPECT_EQ(e.key, "a") << text;
        EXPECT_STREQ(e.what(), "key 'a' appears twice") << text;
    }
}

TEST(StrictJson, ShowsAnUnprintableKeyAsQuestionMarks) {
    const StrictJsonError e = error_of("{\"k\\n\": 1, \"k\\n\": 2}");
    EXPECT_EQ(e.key, "k\n");
    EXPECT_STREQ(e.what(), "key 'k?' appears twice");
}

TEST(StrictJson, GivesNlohmannsReasonWithoutItsTag) {
    const StrictJsonError e = error_of("{\"a\":");
    EXPECT_EQ(e.kind, Kind::Syntax);
    EXPECT_EQ(e.reason.find("[json.exception"), std::string::npos) << e.reason;
    EXPECT_NE(e.reason.find("parse error"), std::string::npos) << e.reason;
    EXPECT_EQ(std::string(e.what()), "not valid JSON: " + e.reason);
}

}  // namespace
