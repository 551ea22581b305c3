// The pre-tokenizer patterns of llama3, GPT-2 and SmolLM2, and the GGUF names that select them.
#include "tokenizer/pre_tokenizer_spec.h"

#include "frontend/errors.h"

namespace halogen {

const std::string &gpt2_pattern() {
    static const std::string p = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
    return p;
}

const std::string &llama3_pattern() {
    static const std::string p =
        R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
    return p;
}

namespace {

PreTokenizerStep byte_level(bool use_regex) {
    PreTokenizerStep s;
    s.kind = PreTokenizerStep::Kind::ByteLevel;
    s.use_regex = use_regex;
    return s;
}

}  // namespace

PreTokenizerSpec gpt2_pre_tokenizer() { return {byte_level(true)}; }

PreTokenizerSpec llama3_pre_tokenizer() {
    PreTokenizerStep split;
    split.kind = PreTokenizerStep::Kind::Split;
    split.pattern = llama3_pattern();
    return {split, byte_level(false)};
}

PreTokenizerSpec smollm_pre_tokenizer() {
    PreTokenizerStep digits;
    digits.kind = PreTokenizerStep::Kind::Digits;
    return {digits, byte_level(true)};
}

PreTokenizerSpec pre_tokenizer_for_gguf(const std::string &pre) {
    if (pre == "llama-bpe" || pre == "llama3") return llama3_pre_tokenizer();
    if (pre == "gpt-2") return gpt2_pre_tokenizer();
    if (pre == "smollm") return smollm_pre_tokenizer();
    throw ConfigError("tokenizer.ggml.pre '" + pre + "' is not supported (supported: llama-bpe, gpt-2, smollm)");
}

}  // namespace halogen
