// The BPE model's merges resolved by two threads (a large vocabulary's load) give the model one
// thread gives: the same ids for every pre-token of a vocabulary whose encodings are checked
// against an independent implementation (tests/fixtures/tokenizer/) and of a large random one;
// and a bad merge is reported as the first in rank order, whichever half it is in.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "frontend/errors.h"
#include "tests/support/expect_error.h"
#include "tokenizer/bpe.h"
#include "tokenizer/hf_tokenizer_json.h"
#include "tokenizer/random_tokenizer.h"

namespace {

using namespace halogen;

constexpr size_t kSequential = SIZE_MAX;

// Random pre-tokens: runs of letters, digits, spaces and bytes of any value.
std::vector<std::string> pre_tokens(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    const std::string alphabet = "abcdefghijklmnopqrstuvwxyz etaoinshrdlu0123456789";
    std::vector<std::string> out;
    for (size_t i = 0; i < n; ++i) {
        std::string s(1 + rng() % 12, ' ');
        for (char &c : s) c = rng() % 8 == 0 ? char(rng() % 256) : alphabet[rng() % alphabet.size()];
        out.push_back(s);
    }
    return out;
}

void expect_same_model(const BpeVocab &vocab) {
    BpeModel one(vocab, kSequential), two(vocab, 1);
    EXPECT_EQ(one.merge_count(), two.merge_count());
    for (const std::string &p : pre_tokens(5000, 3)) {
        std::vector<int32_t> a, b;
        one.encode(p, a);
        two.encode(p, b);
        ASSERT_EQ(a, b) << p;
    }
}

TEST(BpeModel, TwoThreadsResolveTheMergesOneThreadDoes) {
    expect_same_model(read_hf_tokenizer_json(std::string(HALOGEN_TOKENIZER_FIXTURES_DIR) + "/gpt2.tokenizer.json"));
    BpeVocab large = parse_hf_tokenizer_json(random_tokenizer_files(30000, 5).tokenizer_json);
    large.ignore_merges = false;   // every pre-token goes through the merges
    ASSERT_GE(large.merges.size(), BpeModel::kParallelMerges);
    expect_same_model(large);
}

TEST(BpeModel, TheFirstBadMergeInRankOrderIsNamed) {
    BpeVocab v = parse_hf_tokenizer_json(random_tokenizer_files(2000, 5).tokenizer_json);
    const size_t n = v.merges.size();
    v.merges[n - 3].second = "zzzz-not-a-token";   // in the second thread's half
    for (const size_t from : {size_t(1), kSequential}) {
        halogen::testing::expect_error<FormatError>([&] { BpeModel m(v, from); },
                                           {"merge " + std::to_string(n - 3) + " (", "'zzzz-not-a-token' is not in the vocab"});
    }
    v.merges[7].first = "yyyy-not-a-token";   // and one in the first's
    for (const size_t from : {size_t(1), kSequential}) {
        halogen::testing::expect_error<FormatError>([&] { BpeModel m(v, from); }, {": merge 7 (", "'yyyy-not-a-token'"});
    }
}

}  // namespace
