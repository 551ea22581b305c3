// `halogen llama tokenize` and `halogen llama detokenize`: a model's tokenizer on its own (a model
// directory -- a folder holding only the tokenizer's files works -- or a GGUF file).
//   tokenize --model M (--text T | --file F) [--chat [--system S]] [--json]
//       the ids, comma-separated (what `generate --ids` takes); with --chat, the ids of the
//       conversation the chat template makes of the text, ending in the generation prompt;
//       --json: {"ids": [...], "tokens": [...]} with each token's text as the vocabulary spells it
//   detokenize --model M --ids A,B,... [--skip-special]
//       the text the ids decode to (invalid UTF-8 as U+FFFD; special tokens shown unless skipped)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace halogen {

struct TokenizeOptions {
    std::string model, text, file, system;
    bool chat = false, json = false, skip_special = false;
    std::vector<int32_t> ids;
    CLI::Option *text_option = nullptr, *file_option = nullptr, *system_option = nullptr;
};

CLI::App *add_tokenize_command(CLI::App &llama, TokenizeOptions &o);
CLI::App *add_detokenize_command(CLI::App &llama, TokenizeOptions &o);

int llama_tokenize(const TokenizeOptions &o);
int llama_detokenize(const TokenizeOptions &o);

}  // namespace halogen
