// A random but valid llama3-style tokenizer, for test models and benchmarks that need text in
// and out without downloaded files: tokenizer.json with the 256 byte tokens, then tokens made by
// merging two earlier tokens (so every merge is a valid BPE step, and some tokens can be reached
// by several merges, as in real vocabs), then the special tokens <|begin_of_text|>,
// <|end_of_text|>, <|start_header_id|>, <|end_header_id|>, <|eot_id|> at the end of the vocab;
// the llama3 pre-tokenizer, ignore_merges, a TemplateProcessing that adds <|begin_of_text|>, the
// ByteLevel decoder. tokenizer_config.json holds a llama3-style chat template, bos_token,
// eos_token and add_bos_token. The same size and seed always give the same files.
#pragma once

#include <cstdint>
#include <string>

namespace halogen {

struct RandomTokenizerFiles {
    std::string tokenizer_json;
    std::string tokenizer_config_json;
};

// The smallest vocab size accepted: the byte tokens, the special tokens and a few merges.
constexpr int64_t kRandomTokenizerMinVocab = 256 + 5 + 8;

// ConfigError when vocab_size is below kRandomTokenizerMinVocab or above 2^31 - 1.
RandomTokenizerFiles random_tokenizer_files(int64_t vocab_size, uint64_t seed);

// Writes tokenizer.json and tokenizer_config.json into `dir` (which must exist); FormatError
// naming the file when one cannot be written.
void write_random_tokenizer(const std::string &dir, int64_t vocab_size, uint64_t seed);

// The chat template written into tokenizer_config.json.
const std::string &random_tokenizer_chat_template();

}  // namespace halogen
