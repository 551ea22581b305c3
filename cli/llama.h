// `halogen llama`: the llama model's commands.
//   halogen llama init   write a model directory of random weights (a preset or a config.json)
//   halogen llama info   a model's config, sizes and files, and whether its weights bind
//   halogen llama generate  new token ids from prompt ids, with prefill and decode tokens/s
//   halogen llama bench  prefill and decode speed beside the machine's limits (llama_bench.h)
// Every size and count a flag gives is checked before the model is opened.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/llama_bench.h"
#include "cli/llama_run.h"

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
    int generate() const;

    CLI::App *llama_ = nullptr, *init_ = nullptr, *info_ = nullptr, *generate_ = nullptr, *bench_ = nullptr;
    LlamaBenchOptions bench_options_;
    LlamaRunOptions run_;   // generate's model options
    std::string preset_, config_, out_, dtype_ = "f32", max_shard_size_, model_;
    std::string seed_ = "0";   // seed_flag.h: -1 draws one
    std::vector<int32_t> ids_;
    int64_t max_new_ = 32, context_ = 0;
    int threads_ = 0;   // 0: one per core
    double temperature_ = 0, top_p_ = 1;
    CLI::Option *top_p_option_ = nullptr;
};

}  // namespace halogen
