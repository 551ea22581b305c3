// The llama commands' shared options and their path to a compiled model (llama_run.h).
#include "cli/llama_run.h"

#include <chrono>

#include "cli/progress.h"
#include "halide_gen/runtime/openmp_par_for.h"

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

}  // namespace

void add_llama_run_options(CLI::App &command, LlamaRunOptions &o) {
    command.add_option("--model", o.model, "the model directory")->required();
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
}

OpenedLlama::OpenedLlama(const std::string &command, const LlamaRunOptions &o, int64_t context, int threads)
    : config(read_llama_config(o.model)),
      checkpoint(open_checkpoint(command, o.model, open_s_)),
      weights(bind_llama_weights(checkpoint, config)) {
    LlamaModelOptions options;
    options.context = context;
    if (o.dtype != "auto") options.weights = o.dtype == "bf16" ? DType::BFloat16 : DType::Float32;
    if (o.layout != "auto") options.panels = o.layout == "panels";
    options.decode_attention = llama_decode_attention(o.decode_attention);
    options.progress = load_progress(command);
    set_kernel_threads(threads);
    const auto t = Clock::now();
    model_ = std::make_unique<LlamaModel>(weights, options);
    build_s_ = seconds_since(t);
}

}  // namespace halogen
