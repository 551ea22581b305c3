// The pre-tokenizer of a byte-level BPE tokenizer, as data: the steps Hugging Face's tokenizers
// runs before the model (Split on a regex, ByteLevel, Digits), and the patterns of the
// pre-tokenizers that llama3, GPT-2 and SmolLM2 use, also under the names GGUF files give them
// (`tokenizer.ggml.pre`). pre_tokenizer.h runs a spec; this file only describes one.
#pragma once

#include <string>
#include <vector>

namespace halogen {

struct PreTokenizerStep {
    enum class Kind { Split, ByteLevel, Digits };
    Kind kind = Kind::ByteLevel;
    // Split: the pattern as Hugging Face writes it (Oniguruma syntax), with behavior Isolated:
    // every match and every gap between matches becomes its own piece.
    std::string pattern;
    // ByteLevel: add_prefix_space puts a space before each piece that does not start with one;
    // use_regex splits each piece with GPT-2's pattern (gpt2_pattern()). trim_offsets changes
    // only offsets, which this tokenizer does not report, so it is kept for completeness.
    bool add_prefix_space = false;
    bool use_regex = true;
    bool trim_offsets = true;
    // Digits: individual_digits puts every \p{N} character in its own piece (the only mode
    // supported; contiguous digit runs are rejected when read).
    bool individual_digits = true;
};

// Steps run in order; each one splits the pieces the previous one made.
using PreTokenizerSpec = std::vector<PreTokenizerStep>;

// GPT-2's pattern (the ByteLevel pre-tokenizer's own) and llama3's Split pattern.
const std::string &gpt2_pattern();
const std::string &llama3_pattern();

PreTokenizerSpec gpt2_pre_tokenizer();     // ByteLevel(use_regex)
PreTokenizerSpec llama3_pre_tokenizer();   // Split(llama3 pattern, Isolated), ByteLevel(no regex)
PreTokenizerSpec smollm_pre_tokenizer();   // Digits(individual), ByteLevel(use_regex)

// The pre-tokenizer a GGUF file names in tokenizer.ggml.pre: "llama-bpe" (also "llama3"),
// "gpt-2" and "smollm". ConfigError naming the value for any other.
PreTokenizerSpec pre_tokenizer_for_gguf(const std::string &pre);

}  // namespace halogen
