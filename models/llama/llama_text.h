// What a llama model needs to take text and give text: its tokenizer, its chat template and the ids
// that end generation, from a model directory (tokenizer.json and tokenizer_config.json,
// generation_config.json, config.json) or a GGUF file (its tokenizer.ggml.* keys). A directory
// holding only the tokenizer's files is enough for tokenizing.
//
// The end ids: generation_config.json's eos_token_id (a number or a list), else config.json's,
// and the tokenizer's EOS and end-of-turn tokens (<|eot_id|>, <|im_end|>) besides, as llama.cpp
// ends at any end-of-generation token; for a GGUF file, its EOS and EOT ids.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"
#include "tokenizer/tokenizer_files.h"

namespace halogen {

struct LlamaText {
    TokenizerFiles files;                  // the vocabulary, the chat template, the BOS and EOS names
    std::unique_ptr<Tokenizer> tokenizer;
    std::vector<int32_t> end_ids;
};

// How a model directory's tokenizer files become a tokenizer: given the folder, the files read
// (TokenizerFiles; the vocab's tokens and merges may be left empty, the tokenizer holds them)
// and the tokenizer built from them.
// open_llama_text's default reads tokenizer.json and builds it; a snapshot may stand in for
// both (cli/llama_text_cache.h).
struct BuiltTokenizer {
    TokenizerFiles files;
    std::unique_ptr<Tokenizer> tokenizer;
};
using TokenizerBuilder = std::function<BuiltTokenizer(const std::string &folder)>;

// FormatError naming the path when it holds no tokenizer (a directory without tokenizer.json, a
// GGUF file without tokenizer.ggml.* keys) or a malformed one.
LlamaText open_llama_text(const std::string &model, const TokenizerBuilder &build = {});

// A conversation as the chat template renders it, ending in the generation prompt, tokenized
// without the BOS the template already wrote (tokenizer special tokens are matched in the text).
// FormatError when the model has no chat template; TemplateError for one that fails.
struct ChatTurn {
    std::string role, content;
};
std::string chat_prompt_text(const LlamaText &text, const std::vector<ChatTurn> &conversation,
                             bool add_generation_prompt = true);
std::vector<int32_t> chat_prompt_ids(const LlamaText &text, const std::vector<ChatTurn> &conversation,
                                     bool add_generation_prompt = true);

// The ids of a conversation's next prompt that go on from `seen`, the ids of the turns so far as
// the model saw and picked them: `seen` itself, then the rest of the rendered conversation
// tokenized alone, as llama.cpp's chat does. So a reply's own ids stay as they were picked (its
// text tokenized anew could give other ids, and the cache past them would be lost) and only the
// new turn is prefilled. When the rendering does not begin with seen's text (a template that
// trims a reply), the whole rendering's ids.
std::vector<int32_t> chat_continuation_ids(const LlamaText &text, const std::vector<ChatTurn> &conversation,
                                           const std::vector<int32_t> &seen);

}  // namespace halogen
