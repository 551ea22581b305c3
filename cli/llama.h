// `halogen llama`: the llama model's commands.
//   halogen llama init   write a model directory of random weights (a preset or a config.json)
//   halogen llama info   a model directory's config, sizes and files, and whether its weights bind
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

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

    CLI::App *llama_ = nullptr, *init_ = nullptr, *info_ = nullptr;
    std::string preset_, config_, out_, dtype_ = "f32", max_shard_size_, model_;
    uint64_t seed_ = 0;
};

}  // namespace halogen
