// Generation (models/llama/text_generation.h) on the reference model of a tiny random checkpoint
// with its random tokenizer: greedy ids are the reference's own greedy loop's, the streamed text
// is the whole decode of the new ids, a stop string ends the text before it (and is never given
// out, also when it arrives split over tokens), an end id ends generation unless ignored, the
// context's end and --max-new end it too, and rewinding the cache gives the logits a fresh
// prefill of the same ids gives. The model's text side (models/llama/llama_text.h) reads the
// tokenizer, the chat template and the end ids of the model directory.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formats/checkpoint.h"
#include "frontend/errors.h"
#include "models/llama/llama_reference.h"
#include "models/llama/llama_text.h"
#include "models/llama/random_llama.h"
#include "models/llama/text_generation.h"
#include "tests/llama/llama_test_support.h"

namespace {

using namespace halogen;

class TextGeneration : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = new halogen_test::TempDir();
        write_random_llama(llama_preset("tiny"), dir_->str(), SafetensorsDType::F32, 11);
        ckpt_ = new Checkpoint(Checkpoint::open(dir_->str()));
        config_ = new LlamaConfig(read_llama_config(dir_->str()));
        text_ = new LlamaText(open_llama_text(dir_->str()));
    }
    static void TearDownTestSuite() {
        delete text_;
        delete config_;
        delete ckpt_;
        delete dir_;
    }
    static LlamaReference reference(int64_t context = 64) {
        return LlamaReference(bind_llama_weights(*ckpt_, *config_), {context});
    }
    // Greedy generation of `options` after `prompt`, and the pieces of text as they came.
    static Generation greedy(LlamaReference &model, const std::vector<int32_t> &prompt, const GenerationOptions &options,
                             std::vector<std::string> *pieces = nullptr) {
        Sampler sampler({0, 1, 0});
        std::vector<int32_t> history;
        return generate_text(model, text_->tokenizer.get(), sampler, prompt, history, options, [&](std::string_view p) {
            if (pieces) pieces->emplace_back(p);
        });
    }

    static halogen_test::TempDir *dir_;
    static Checkpoint *ckpt_;
    static LlamaConfig *config_;
    static LlamaText *text_;
};
halogen_test::TempDir *TextGeneration::dir_ = nullptr;
Checkpoint *TextGeneration::ckpt_ = nullptr;
LlamaConfig *TextGeneration::config_ = nullptr;
LlamaText *TextGeneration::text_ = nullptr;

const std::vector<int32_t> kPrompt = {5, 77, 300};

TEST(StopPrefix, TheLongestTailThatStartsAStopString) {
    EXPECT_EQ(stop_prefix_length("hello wor", {"world"}), 3u);
    EXPECT_EQ(stop_prefix_length("hello w", {"world", "xyz"}), 1u);
    EXPECT_EQ(stop_prefix_length("hello", {"world"}), 0u);
    EXPECT_EQ(stop_prefix_length("xabab", {"ababz"}), 4u);   // "abab" of "ababz", not just "ab"
    EXPECT_EQ(stop_prefix_length("x", {""}), 0u);
    EXPECT_EQ(stop_prefix_length("", {"a"}), 0u);
}

TEST_F(TextGeneration, TheModelDirectoryGivesTokenizerTemplateAndEndIds) {
    // write_random_llama set config.json's ids to the tokenizer's special tokens, and
    // generation_config.json ends at <|end_of_text|> and <|eot_id|>.
    const Tokenizer &t = *text_->tokenizer;
    ASSERT_EQ(t.vocab_size(), 512);
    EXPECT_EQ(t.token_bytes(t.bos_id()), "<|begin_of_text|>");
    EXPECT_EQ(config_->bos_token_id, t.bos_id());
    EXPECT_EQ(text_->end_ids, (std::vector<int32_t>{t.token_to_id("<|end_of_text|>"), t.token_to_id("<|eot_id|>")}));
    EXPECT_EQ(t.token_bytes(t.eot_id()), "<|eot_id|>");
    EXPECT_FALSE(text_->files.chat_template.empty());
    // The chat prompt starts with one BOS (written by the template, not added again) and ends in
    // the assistant's header.
    const std::vector<int32_t> ids = chat_prompt_ids(*text_, {{"system", "Be brief."}, {"user", "Hi there"}});
    ASSERT_GE(ids.size(), 4u);
    EXPECT_EQ(ids[0], t.bos_id());
    EXPECT_NE(ids[1], t.bos_id());
    EXPECT_EQ(t.decode(ids), "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|>"
                             "<|start_header_id|>user<|end_header_id|>\n\nHi there<|eot_id|>"
                             "<|start_header_id|>assistant<|end_header_id|>\n\n");
}

TEST_F(TextGeneration, GreedyIdsAreTheReferencesAndTheStreamIsTheWholeDecode) {
    LlamaReference model = reference();
    GenerationOptions o;
    o.max_new = 12;
    o.ignore_eos = true;
    std::vector<std::string> pieces;
    const Generation g = greedy(model, kPrompt, o, &pieces);
    LlamaReference again = reference();
    EXPECT_EQ(g.new_ids, again.greedy(kPrompt, 12));
    EXPECT_EQ(g.finish, FinishReason::length);
    EXPECT_EQ(g.decoded, 11);   // the last pick is not fed
    EXPECT_EQ(model.position(), int64_t(kPrompt.size()) + 11);
    std::string joined;
    for (const std::string &p : pieces) joined += p;
    EXPECT_EQ(joined, g.text);
    EXPECT_EQ(g.text, text_->tokenizer->decode(g.new_ids));
}

TEST_F(TextGeneration, AStopStringEndsTheTextBeforeIt) {
    GenerationOptions o;
    o.max_new = 16;
    o.ignore_eos = true;
    LlamaReference first = reference();
    const Generation whole = greedy(first, kPrompt, o);
    ASSERT_GE(whole.text.size(), 6u) << "the random model's text is too short to cut";
    // A stop string from the middle of the text, which may span two tokens.
    const size_t at = whole.text.size() / 2;
    o.stop = {whole.text.substr(at, 3)};
    const size_t cut = whole.text.find(o.stop[0]);
    LlamaReference model = reference();
    std::vector<std::string> pieces;
    const Generation g = greedy(model, kPrompt, o, &pieces);
    EXPECT_EQ(g.finish, FinishReason::stop);
    EXPECT_EQ(g.text, whole.text.substr(0, cut));
    std::string joined;
    for (const std::string &p : pieces) joined += p;
    EXPECT_EQ(joined, g.text);   // nothing of the stop string went out, not even its start
    // The ids stop at the token that completed the stop string.
    ASSERT_LE(g.new_ids.size(), whole.new_ids.size());
    EXPECT_EQ(g.new_ids, std::vector<int32_t>(whole.new_ids.begin(), whole.new_ids.begin() + long(g.new_ids.size())));
    EXPECT_NE(text_->tokenizer->decode(g.new_ids).find(o.stop[0]), std::string::npos);
    const std::vector<int32_t> one_fewer(g.new_ids.begin(), g.new_ids.end() - 1);
    EXPECT_EQ(text_->tokenizer->decode(one_fewer).find(o.stop[0]), std::string::npos);
}

TEST_F(TextGeneration, AnEndIdEndsGenerationUnlessIgnored) {
    GenerationOptions o;
    o.max_new = 8;
    o.ignore_eos = true;
    LlamaReference first = reference();
    const Generation whole = greedy(first, kPrompt, o);
    ASSERT_EQ(whole.new_ids.size(), 8u);
    o.ignore_eos = false;
    o.end_ids = {whole.new_ids[3]};   // as if the fourth pick were the model's end token
    LlamaReference model = reference();
    const Generation g = greedy(model, kPrompt, o);
    EXPECT_EQ(g.finish, FinishReason::eos);
    const size_t first_end = size_t(std::find(whole.new_ids.begin(), whole.new_ids.end(), whole.new_ids[3]) - whole.new_ids.begin());
    EXPECT_EQ(g.new_ids, std::vector<int32_t>(whole.new_ids.begin(), whole.new_ids.begin() + long(first_end) + 1));
    EXPECT_EQ(g.text, text_->tokenizer->decode(std::vector<int32_t>(whole.new_ids.begin(), whole.new_ids.begin() + long(first_end))));
}

TEST_F(TextGeneration, TheContextAndMaxNewEndIt) {
    GenerationOptions o;
    o.max_new = 100;
    o.ignore_eos = true;
    LlamaReference small = reference(6);   // the prompt's 3 positions and 3 more
    const Generation g = greedy(small, kPrompt, o);
    EXPECT_EQ(g.finish, FinishReason::context);
    EXPECT_EQ(g.new_ids.size(), 4u);   // picks at positions 3, 4, 5 fed; a fourth picked from the last logits
    EXPECT_EQ(small.position(), 6);
    o.max_new = 0;
    LlamaReference none = reference();
    const Generation z = greedy(none, kPrompt, o);
    EXPECT_TRUE(z.new_ids.empty());
    EXPECT_EQ(z.finish, FinishReason::length);
    LlamaReference full = reference(3);
    o.max_new = 1;
    EXPECT_THROW(greedy(full, {1, 2, 3, 4}, o), ShapeError);
}

TEST_F(TextGeneration, RewindingGivesTheLogitsOfAFreshPrefill) {
    LlamaReference model = reference();
    model.step({5, 77, 300, 12, 9});
    model.rewind(3);
    const std::vector<float> rewound = model.step({40, 41});
    LlamaReference fresh = reference();
    const std::vector<float> prefilled = fresh.step({5, 77, 300, 40, 41});
    EXPECT_LE(halogen_test::max_diff(rewound, prefilled), 1e-5);
    EXPECT_THROW(model.rewind(6), ShapeError);
}

// A conversation's next prompt goes on from the ids the model saw and picked, its reply's ids
// kept as picked (tokenizing the reply's text anew may give others), and the rest is the new
// turn's text alone; a rendering that does not begin with those ids' text gives the whole
// rendering's ids.
TEST_F(TextGeneration, AChatsNextPromptGoesOnFromTheIdsSeen) {
    const Tokenizer &t = *text_->tokenizer;
    std::vector<ChatTurn> conversation = {{"user", "Hello there"}};
    std::vector<int32_t> seen = chat_prompt_ids(*text_, conversation);
    // A reply picked as single byte tokens: its text tokenized anew merges them.
    const std::string reply = "the cat";
    for (unsigned char b : reply) seen.push_back(t.encode(std::string(1, char(b)), false).at(0));
    ASSERT_NE(t.encode(reply, false).size(), reply.size());
    conversation.push_back({"assistant", reply});
    conversation.push_back({"user", "And then?"});
    const std::vector<int32_t> ids = chat_continuation_ids(*text_, conversation, seen);
    ASSERT_GT(ids.size(), seen.size());
    EXPECT_EQ(std::vector<int32_t>(ids.begin(), ids.begin() + long(seen.size())), seen);
    EXPECT_EQ(t.decode(ids), chat_prompt_text(*text_, conversation));
    // The template trims a reply: one that ends in a space is not what the rendering holds.
    std::vector<int32_t> spaced = seen;
    spaced.push_back(t.encode(" ", false).at(0));
    conversation[1].content = reply + " ";
    EXPECT_EQ(chat_continuation_ids(*text_, conversation, spaced), chat_prompt_ids(*text_, conversation));
    EXPECT_EQ(chat_continuation_ids(*text_, conversation, {}), chat_prompt_ids(*text_, conversation));
}

TEST(LlamaText, AFolderWithoutATokenizerIsNamed) {
    halogen_test::TempDir dir;
    RandomLlamaOptions o;
    o.tokenizer = false;
    write_random_llama(llama_preset("tiny"), dir.str(), SafetensorsDType::F32, 1, o);
    try {
        open_llama_text(dir.str());
        FAIL() << "no error";
    } catch (const FormatError &e) {
        EXPECT_NE(std::string(e.what()).find("no tokenizer.json"), std::string::npos) << e.what();
    }
}

}  // namespace
