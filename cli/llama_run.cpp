// The llama commands' shared options, their checks, and their path to a compiled model (llama_run.h).
#include "cli/llama_run.h"

#include <fmt/format.h>

#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "cli/progress.h"
#include "halide_gen/runtime/kernel_pool.h"
#include "models/llama/llama_graph.h"

namespace halogen {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

Checkpoint open_checkpoint(const std::string &command, const std::string &path, double &seconds) {
    const auto t = Clock::now();
    Checkpoint ckpt = Checkpoint::open(path);
    seconds = seconds_since(t);
    print_opened(command, ckpt, seconds);
    return ckpt;
}

// The config, once --layout is known to suit it: panels asked for where they do not fit is an
// error before the checkpoint is mapped.
const LlamaConfig &checked_layout(const std::string &command, const LlamaRunOptions &o, const LlamaConfig &c) {
    if (o.layout == "panels" && !llama_fits_panels(c)) {
        throw ConfigError(fmt::format("{}: --layout panels needs head_dim, hidden_size and intermediate_size that are "
                                      "multiples of {} (head_dim {}, hidden_size {}, intermediate_size {})",
                                      command, kLlamaPanelRows, c.head_dim, c.hidden_size, c.intermediate_size));
    }
    return c;
}

}  // namespace

void add_llama_run_options(CLI::App &command, LlamaRunOptions &o) {
    command.add_option("--model", o.model, "the model: a directory with config.json and safetensors weights (one "
                                           "file or shards), or a .safetensors file with config.json beside it")
        ->required();
    command.add_option("--dtype", o.dtype, "the weights' dtype in the kernels, converted at load: f32, bf16, "
                                           "or auto (bf16 when every tensor is BF16, else f32)")
        ->check(CLI::IsMember({"auto", "f32", "bf16"}))
        ->default_val("auto");
    command.add_option("--layout", o.layout, "the projections' weights in the kernels: panels (packed at load), "
                                             "rows (as stored), or auto (panels when the config fits them)")
        ->check(CLI::IsMember({"auto", "panels", "rows"}))
        ->default_val("auto");
    command.add_option("--decode-attention", o.decode_attention,
                       "the attention schedule of one-token steps: fused (a task per KV head), decode (the keys "
                       "split across the threads), or auto (decode where it is faster: twice as many threads "
                       "as KV heads and a long cache)")
        ->check(CLI::IsMember(llama_decode_attention_names()))
        ->default_val("auto");
    command.add_option("--cache-dir", o.cache_dir, "the compiled kernels' cache (default: $HALOGEN_CACHE_DIR, "
                                                   "else $XDG_CACHE_HOME/halogen, else ~/.cache/halogen)");
    command.add_flag("--no-cache", o.no_cache, "compile the model's programs anew, without reading or writing the cache");
}

LlamaConfig read_model_config(const std::string &model) { return read_llama_config(llama_model_files(model).config); }

CompileCacheOptions text_cache(const LlamaRunOptions &o) {
    CompileCacheOptions cache;
    cache.enabled = !o.no_cache;
    cache.dir = o.cache_dir;
    return cache;
}

int64_t llama_run_context(const std::string &command, const LlamaConfig &c, int64_t prompt, const std::string &prompt_text,
                          int64_t more, const std::string &more_flag, int64_t context) {
    const int64_t limit = c.max_position_embeddings;
    if (context > limit) {
        throw Error(fmt::format("{}: --context {} is past the config's max_position_embeddings ({})", command, context,
                                limit));
    }
    int64_t need = 0;
    const bool overflows = __builtin_add_overflow(prompt, more, &need);
    const int64_t holds = context > 0 ? context : limit;
    if (overflows || need > holds) {
        const std::string what = fmt::format("{}: {} and {} {} need", command, prompt_text, more_flag, more);
        const std::string room = context > 0 ? fmt::format("--context {}", context)
                                             : fmt::format("the config's max_position_embeddings ({})", limit);
        if (overflows) throw Error(fmt::format("{} more positions than {}", what, room));
        throw Error(fmt::format("{} {} positions, more than {}", what, need, room));
    }
    return context > 0 ? context : need;
}

OpenedLlama::OpenedLlama(const std::string &command, const LlamaRunOptions &o, const LlamaConfig &c, int64_t context,
                         int threads)
    : config(checked_layout(command, o, c)),
      checkpoint(open_checkpoint(command, llama_model_files(o.model).checkpoint, open_s_)),
      weights(bind_llama_weights(checkpoint, config)) {
    LlamaModelOptions options;
    options.context = context;
    if (o.dtype != "auto") options.weights = o.dtype == "bf16" ? DType::BFloat16 : DType::Float32;
    if (o.layout != "auto") options.panels = o.layout == "panels";
    options.decode_attention = llama_decode_attention(o.decode_attention);
    options.progress = load_progress(command);
    options.cache.enabled = !o.no_cache;
    options.cache.dir = o.cache_dir;
    set_kernel_threads(threads);
    const auto t = Clock::now();
    model_ = std::make_unique<LlamaModel>(weights, options);
    build_s_ = seconds_since(t);
}

std::string OpenedLlama::describe_load() const {
    const LlamaLoadReport &r = model_->load_report();
    std::string programs;
    if (r.loaded > 0) programs = fmt::format("{} loaded from the kernel cache in {:.2f} s", r.loaded, r.load_seconds);
    if (r.compiled > 0) {
        programs += fmt::format("{}{} compiled in {:.1f} s", programs.empty() ? "" : ", ", r.compiled, r.compile_seconds);
    }
    return fmt::format("files mapped and checked in {:.2f} s; programs: {}; weights ready in {:.2f} s; model ready in {:.2f} s",
                       open_s_, programs, r.weights_seconds, build_s_);
}

}  // namespace halogen
