// `halogen llama bench` (llama_bench.h).
#include "cli/llama_bench.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "cli/byte_size.h"
#include "cli/llama_run.h"
#include "cli/plural.h"
#include "cli/process_clock.h"
#include "cli/threads_flag.h"
#include "frontend/errors.h"
#include "halide_gen/runtime/host_limits.h"
#include "halide_gen/runtime/kernel_pool.h"
#include "models/llama/llama_cost.h"
#include "models/llama/sampling.h"

namespace halogen {

namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The median over `runs` of `amount` / seconds that `work` takes.
double median_rate(int runs, double amount, const std::function<void()> &work) {
    std::vector<double> rates;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = Clock::now();
        work();
        rates.push_back(amount / std::chrono::duration<double>(Clock::now() - t0).count());
    }
    return median(rates);
}

struct Limits {
    double read_bytes_per_s = 0, flops_per_s = 0;
};

std::size_t buffer_bytes(const BufferRef &b) {
    std::size_t n = dtype_size(b.dtype);
    for (int64_t e : b.shape) n *= std::size_t(e);
    return n;
}

// The limits just before a run, so that a run and its bounds see the same machine: the read
// bandwidth of summing the weights the kernels read, where they are (from DRAM, or from a cache
// they fit in), and the FMA peak; the median of `runs` each.
Limits measure_limits(const std::vector<BufferRef> &weights, int threads, int runs) {
    Limits l;
    double bytes = 0;
    for (const BufferRef &w : weights) bytes += double(buffer_bytes(w));
    volatile float sink = 0;
    l.read_bytes_per_s = median_rate(runs, bytes, [&] {
        for (const BufferRef &w : weights) sink = sink + read_memory(w.data, buffer_bytes(w), threads);
    });
    const double flops = fma_peak(200000, threads);   // the same count on every call
    l.flops_per_s = median_rate(runs, flops, [&] { fma_peak(200000, threads); });
    return l;
}

double peak_resident_bytes() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) * 1024;   // kilobytes on Linux
}

}  // namespace

int llama_bench(const LlamaBenchOptions &o) {
    const std::string command = "llama bench";
    if (o.prompt < 1 || o.gen < 1 || o.repetitions < 1) throw Error("llama bench: --prompt, --gen and --repetitions must be at least 1");
    for (int t : o.threads) {
        if (t < 1) throw Error(fmt::format("llama bench: --threads {} is not a thread count", t));
    }
    // Each count capped at the cores, each measured once.
    std::vector<int> threads;
    for (int t : o.threads.empty() ? std::vector<int>{0} : o.threads) {
        const int n = resolve_threads(command, t);
        if (std::find(threads.begin(), threads.end(), n) == threads.end()) threads.push_back(n);
    }
    const LlamaConfig config = read_model_config(o.run.model);
    const int64_t context = llama_run_context(command, config, o.prompt, fmt::format("--prompt {}", o.prompt), o.gen,
                                              "--gen", 0);
    // Built for the most threads it runs with: the one-token attention program is compiled when
    // that count could use it, and each step picks by its own threads (LlamaModelOptions).
    OpenedLlama opened(command, o.run, config, context, *std::max_element(threads.begin(), threads.end()));
    const LlamaConfig &c = opened.config;
    LlamaModel &model = opened.model();
    const double compile_s = opened.build_seconds();

    const int64_t each = int64_t(dtype_size(model.weight_dtype()));
    const LlamaStepCost prefill_cost = llama_step_cost(c, each, o.prompt, 0);
    const LlamaStepCost decode_cost = llama_step_cost(c, each, 1, o.prompt + o.gen / 2);   // the middle step
    const double decode_bytes = decode_cost.weight_bytes + decode_cost.cache_bytes;
    const double prefill_flops_per_token = prefill_cost.flops / double(o.prompt);
    const double weight_bytes = double(llama_parameter_count(c)) * double(each);
    const double cache_bytes = llama_step_cost(c, each, model.context(), 0).cache_bytes;   // the whole cache
    std::vector<int32_t> prompt(std::size_t(o.prompt));
    for (int64_t i = 0; i < o.prompt; ++i) prompt[std::size_t(i)] = int32_t((1 + 7919 * i) % c.vocab_size);

    fmt::print("model: {}: {}, hidden {}, {} weights ({} of weights and {} of KV cache read per decoded "
               "token), prompt {}, gen {}, {}\n",
               o.run.model, count_of(c.num_hidden_layers, "layer"), c.hidden_size, dtype_name(model.weight_dtype()),
               format_byte_size(uint64_t(decode_cost.weight_bytes)), format_byte_size(uint64_t(decode_cost.cache_bytes)),
               o.prompt, o.gen, o.repetitions == 1 ? "1 repetition" : fmt::format("{} repetitions (medians)", o.repetitions));
    fmt::print("model: {} kernels per layer ({})\n", model.layer_kernels(),
               model.panels() ? "weights in panels" : "weights in rows");
    fmt::print("loaded: {}\n", opened.describe_load());

    nlohmann::json runs = nlohmann::json::array();
    double first_token_s = 0;
    for (const int t : threads) {
        set_kernel_threads(t);
        std::vector<float> logits = model.prefill(prompt);   // touches every weight page once
        if (first_token_s == 0) {
            argmax(logits);
            first_token_s = seconds_since_process_start();
            fmt::print("first token: {:.2f} s after the process started (a {}-token prompt at {} thread{})\n",
                       first_token_s, o.prompt, t, t == 1 ? "" : "s");
        }
        const std::string attention(model.attention_schedule(1));   // the first decode step's
        // Per repetition: the limits, a prefill, `gen` decode steps; each rate against its own bounds.
        std::vector<double> read, fma, prefill, decode, prefill_ratio, decode_ratio;
        for (int r = 0; r < o.repetitions; ++r) {
            const Limits l = measure_limits(model.weight_buffers(), t, 3);
            const auto a = Clock::now();
            logits = model.prefill(prompt);
            const auto b = Clock::now();
            for (int64_t k = 0; k < o.gen; ++k) logits = model.decode(argmax(logits));
            const auto e = Clock::now();
            read.push_back(l.read_bytes_per_s);
            fma.push_back(l.flops_per_s);
            prefill.push_back(double(o.prompt) / std::chrono::duration<double>(b - a).count());
            decode.push_back(double(o.gen) / std::chrono::duration<double>(e - b).count());
            prefill_ratio.push_back(prefill.back() / (l.flops_per_s / prefill_flops_per_token));
            decode_ratio.push_back(decode.back() / (l.read_bytes_per_s / decode_bytes));
        }
        const double pf = median(prefill), dc = median(decode);
        fmt::print("{}: limits: read {:.1f} GB/s (the weights in place), FMA {:.0f} GFLOP/s\n", count_of(t, "thread"),
                   median(read) / 1e9, median(fma) / 1e9);
        fmt::print("  prefill {:.1f} tokens/s, {:.0f} GFLOP/s, {:.2f}x its bound\n", pf, pf * prefill_flops_per_token / 1e9,
                   median(prefill_ratio));
        fmt::print("  decode {:.2f} tokens/s, {:.1f} GB/s of weights and cache, {:.2f}x its bound (attention: {})\n", dc,
                   dc * decode_bytes / 1e9, median(decode_ratio), attention);
        runs.push_back({{"threads", t},
                        {"read_bytes_per_s", read},
                        {"fma_flops_per_s", fma},
                        {"prefill_tokens_per_s", prefill},
                        {"decode_tokens_per_s", decode},
                        {"prefill_ratio_to_bound", prefill_ratio},
                        {"decode_ratio_to_bound", decode_ratio},
                        {"prefill_ratio_median", median(prefill_ratio)},
                        {"decode_ratio_median", median(decode_ratio)},
                        {"decode_attention", attention}});
    }
    const double resident = peak_resident_bytes();
    fmt::print("peak resident memory: {}, {:.2f}x the weights and the KV cache ({} + {})\n",
               format_byte_size(uint64_t(resident)), resident / (weight_bytes + cache_bytes),
               format_byte_size(uint64_t(weight_bytes)), format_byte_size(uint64_t(cache_bytes)));

    if (!o.json.empty()) {
        const nlohmann::json j = {{"model", o.run.model},
                                  {"weights", dtype_name(model.weight_dtype())},
                                  {"layout", model.panels() ? "panels" : "rows"},
                                  {"layers", c.num_hidden_layers},
                                  {"hidden_size", c.hidden_size},
                                  {"prompt", o.prompt},
                                  {"gen", o.gen},
                                  {"repetitions", o.repetitions},
                                  {"kernels_per_layer", model.layer_kernels()},
                                  {"compile_seconds", compile_s},
                                  {"programs_from_cache", opened.model().load_report().loaded},
                                  {"programs_compiled", opened.model().load_report().compiled},
                                  {"weights_ready_seconds", opened.model().load_report().weights_seconds},
                                  {"time_to_first_token_seconds", first_token_s},
                                  {"decode_weight_bytes_per_token", decode_cost.weight_bytes},
                                  {"decode_cache_bytes_per_token", decode_cost.cache_bytes},
                                  {"prefill_flops_per_token", prefill_flops_per_token},
                                  {"weight_bytes", weight_bytes},
                                  {"kv_cache_bytes", cache_bytes},
                                  {"peak_resident_bytes", resident},
                                  {"runs", runs}};
        std::ofstream f(o.json);
        if (!(f << j.dump(2) << "\n")) throw Error(fmt::format("llama bench: cannot write {}", o.json));
    }
    return 0;
}

}  // namespace halogen
