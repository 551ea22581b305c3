// `halogen llama`: the llama model's commands.
//   halogen llama init   write a model directory of random weights (a preset or a config.json)
//   halogen llama info   a model's config, sizes and files, and whether its weights bind
//   halogen llama generate  new tokens after a prompt: text streamed out, or ids (llama_generate.h)
//   halogen llama chat   a conversation over stdin and stdout (llama_chat.h)
//   halogen llama tokenize | detokenize  a model's tokenizer on its own (llama_tokenize.h)
//   halogen llama bench  prefill and decode speed beside the machine's limits (llama_bench.h)
// Every size and count a flag gives is checked before the model is opened.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/llama_bench.h"
#include "cli/llama_chat.h"
#include "cli/llama_generate.h"
#include "cli/llama_run.h"
#include "cli/llama_tokenize.h"

namespace halogen {

class LlamaCommands {
public:
    // Adds `llama` and its subcommands to `app`; the options land in this object, which must
    // outlive the parse.
    explicit LlamaCommands(CLI::App &app);

    bool chosen() const { return llama_->parsed(); }
    // Runs the chosen subcommand; halogen::Error on a problem (main prints it on one line).
    int run() const;

private:
    int init() const;
    int info() const;

    CLI::App *llama_ = nullptr, *init_ = nullptr, *info_ = nullptr, *generate_ = nullptr, *bench_ = nullptr,
             *chat_ = nullptr, *tokenize_ = nullptr, *detokenize_ = nullptr;
    LlamaBenchOptions bench_options_;
    GenerateOptions generate_options_;
    ChatOptions chat_options_;
    TokenizeOptions tokenize_options_;
    std::string preset_, config_, out_, dtype_ = "f32", max_shard_size_, model_;
    std::string seed_ = "0";   // seed_flag.h: -1 draws one
};

}  // namespace halogen
