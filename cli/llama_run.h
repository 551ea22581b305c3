// What the llama commands that run a model share: the options that choose the model and how its
// kernels hold the weights (declared once for `generate`, `bench` and the commands after them),
// the checks made before anything is opened or compiled (the KV cache's positions, the thread
// counts, the layout against the config), and the one path from those options to a compiled
// model: the checkpoint mapped and checked, the weights bound, the kernels' thread count set,
// then the model built -- for that thread count, so that what the model decides at construction
// (the one-token attention program) is decided for the threads it runs with.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/llama_model_files.h"
#include "formats/checkpoint.h"
#include "cli/llama_text_cache.h"
#include "models/llama/llama_config.h"
#include "models/llama/llama_model.h"
#include "models/llama/llama_weights.h"

namespace halogen {

struct LlamaRunOptions {
    std::string model;                     // a model directory or a .safetensors file (llama_model_files.h)
    std::string dtype = "auto";            // the weights' dtype in the kernels: auto, f32, bf16
    std::string layout = "auto";           // the projections' weights: auto, panels, rows
    std::string decode_attention = "auto"; // one-token steps' attention: auto, fused, decode
    std::string cache_dir;                 // the kernel cache's folder; empty: the default
    bool no_cache = false;                 // JIT-compile, neither reading nor writing the cache
};

// Adds --model (required), --dtype, --layout, --decode-attention, --cache-dir and --no-cache to
// `command`.
void add_llama_run_options(CLI::App &command, LlamaRunOptions &o);

// The cache options --cache-dir and --no-cache give, for the model's tokenizer snapshot
// (cli/llama_text_cache.h) as for its kernels.
CompileCacheOptions text_cache(const LlamaRunOptions &o);

// The config of the model --model names (llama_model_files.h); ConfigError or Error on a problem.
LlamaConfig read_model_config(const std::string &model);

// The KV cache's positions for a run of `prompt` ids and `more` positions after them: `context`
// when given (> 0), else prompt + more. Checked before anything is opened, in 64-bit arithmetic
// that cannot overflow: prompt + more must fit the context and the context the config's
// max_position_embeddings. `prompt_text` and `more_flag` name them in the error under `command`
// ("the prompt's 3 ids" and "--max-new").
int64_t llama_run_context(const std::string &command, const LlamaConfig &c, int64_t prompt, const std::string &prompt_text,
                          int64_t more, const std::string &more_flag, int64_t context);

// A model opened from LlamaRunOptions. Not movable: the weights point into the checkpoint.
class OpenedLlama {
    double open_s_ = 0, build_s_ = 0;   // first: the members below are timed into them

public:
    // Checks the layout against `config` (the config of o.model), maps and checks the checkpoint,
    // binds the weights, sets the kernels' threads to `threads` and builds the model for a KV
    // cache of `context` positions, printing progress on stderr under `command` ("llama
    // generate"). halogen::Error on a problem.
    OpenedLlama(const std::string &command, const LlamaRunOptions &o, const LlamaConfig &config, int64_t context,
                int threads);
    OpenedLlama(const OpenedLlama &) = delete;
    OpenedLlama &operator=(const OpenedLlama &) = delete;

    const LlamaConfig config;
    const Checkpoint checkpoint;
    const LlamaWeights weights;
    LlamaModel &model() { return *model_; }
    const LlamaModel &model() const { return *model_; }
    double open_seconds() const { return open_s_; }        // mapping and checking the files
    double build_seconds() const { return build_s_; }      // compiling and making the weights ready
    // One line: where the programs came from and how long they and the weights took.
    std::string describe_load() const;

private:
    std::unique_ptr<LlamaModel> model_;
};

}  // namespace halogen
