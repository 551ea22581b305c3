// UTF-8 handling against the Unicode standard's own example of U+FFFD substitution (maximal
// subparts, Table 3-8 and its neighbours) and GPT-2's byte-level alphabet against values GPT-2's
// published encoder shows (space is U+0120 'Ġ', newline U+010A 'Ċ').
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "tokenizer/byte_level.h"
#include "tokenizer/utf8.h"

namespace halogen {
namespace {

const std::string R = "\xEF\xBF\xBD";

TEST(Utf8Lossy, MaximalSubpartsAsTheUnicodeStandardShows) {
    // Table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 -> a, FFFD, FFFD, FFFD, b, FFFD, c, FFFD, FFFD, d
    EXPECT_EQ(utf8::lossy("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"), "a" + R + R + R + "b" + R + "c" + R + R + "d");
    // Surrogates, overlongs and bytes never used are one U+FFFD per byte.
    EXPECT_EQ(utf8::lossy("\xED\xA0\x80"), R + R + R);
    EXPECT_EQ(utf8::lossy("\xC0\xAF"), R + R);
    EXPECT_EQ(utf8::lossy("\xE0\x80\xAF"), R + R + R);
    EXPECT_EQ(utf8::lossy("\xF5\x80"), R + R);
    EXPECT_EQ(utf8::lossy("\xF4\x90\x80\x80"), R + R + R + R);
    // A truncated sequence is one U+FFFD, wherever it ends.
    EXPECT_EQ(utf8::lossy("\xE2\x82"), R);
    EXPECT_EQ(utf8::lossy("\xF0\x9F\x98"), R);
    EXPECT_EQ(utf8::lossy("x\xF0\x9F\x98y"), "x" + R + "y");
    // Valid text is unchanged.
    EXPECT_EQ(utf8::lossy("h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80"), "h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80");
}

TEST(Utf8Lossy, ValidPrefix) {
    EXPECT_EQ(utf8::valid_prefix("abcdefghijklmnop\xC3"), 16u);
    EXPECT_EQ(utf8::valid_prefix("abc\xE2\x82\xAC" "def\xFF"), 9u);
    EXPECT_TRUE(utf8::is_valid(""));
    EXPECT_FALSE(utf8::is_valid("\x80"));
}

TEST(ByteLevel, AlphabetMatchesGpt2) {
    EXPECT_EQ(byte_level::char_of(' '), "\xC4\xA0");    // U+0120
    EXPECT_EQ(byte_level::char_of('\n'), "\xC4\x8A");   // U+010A
    EXPECT_EQ(byte_level::char_of('\t'), "\xC4\x89");   // U+0109
    EXPECT_EQ(byte_level::char_of(0), "\xC4\x80");      // U+0100
    EXPECT_EQ(byte_level::char_of('A'), "A");
    EXPECT_EQ(byte_level::char_of(0xAD), "\xC5\x83");   // U+0143, the last of the 68 moved bytes
    EXPECT_EQ(byte_level::char_of(0xE9), "\xC3\xA9");   // U+00E9 stands for itself
    std::set<std::string> distinct;
    std::string all;
    for (int b = 0; b < 256; ++b) {
        distinct.insert(byte_level::char_of(static_cast<unsigned char>(b)));
        all += static_cast<char>(b);
    }
    EXPECT_EQ(distinct.size(), 256u);
    std::string back;
    ASSERT_TRUE(byte_level::decode(byte_level::encode(all), back));
    EXPECT_EQ(back, all);
    EXPECT_FALSE(byte_level::decode("a b", back));   // a plain space is not in the alphabet
}

}  // namespace
}  // namespace halogen
