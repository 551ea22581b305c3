// `halogen llama init | info | generate`, and bench's options (see llama.h).
#include "cli/llama.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <map>
#include <vector>

#include "cli/byte_size.h"
#include "cli/flag_checks.h"
#include "cli/llama_model_files.h"
#include "cli/llama_run.h"
#include "cli/plural.h"
#include "cli/process_clock.h"
#include "cli/progress.h"
#include "cli/seed_flag.h"
#include "formats/checkpoint.h"
#include "models/llama/llama_config.h"
#include "models/llama/llama_weights.h"
#include "models/llama/random_llama.h"
#include "tokenizer/random_tokenizer.h"
#include "models/llama/sampling.h"
#include "models/llama/llama_model.h"

namespace halogen {

namespace {

// One line of the config: sizes, then the numbers that change the math.
std::string describe(const LlamaConfig &c) {
    std::string rope = c.rope_scaling
                           ? fmt::format("llama3 scaling (factor {}, low {}, high {}, original {})",
                                         c.rope_scaling->factor, c.rope_scaling->low_freq_factor,
                                         c.rope_scaling->high_freq_factor,
                                         c.rope_scaling->original_max_position_embeddings)
                           : std::string("no scaling");
    return fmt::format("{} layers, hidden {}, intermediate {}, {} heads and {} KV heads of {}, vocab {}, "
                       "head {}\n        rms_norm_eps {}, rope_theta {}, {}, max positions {}{}",
                       c.num_hidden_layers, c.hidden_size, c.intermediate_size, c.num_attention_heads,
                       c.num_key_value_heads, c.head_dim, c.vocab_size, c.tie_word_embeddings ? "tied" : "untied",
                       c.rms_norm_eps, c.rope_theta, rope, c.max_position_embeddings,
                       c.torch_dtype.empty() ? "" : ", torch_dtype " + c.torch_dtype);
}

// A count in thousands, millions or billions: "246 k", "135 M", "1.24 G".
std::string approximate(int64_t n) {
    if (n < 1000) return fmt::format("{}", n);
    static const char *names[] = {"k", "M", "G", "T"};
    double v = double(n) / 1000;
    int u = 0;
    while (v >= 999.5 && u < 3) {
        v /= 1000;
        ++u;
    }
    return fmt::format("{:.{}f} {}", v, v < 9.995 ? 2 : v < 99.95 ? 1 : 0, names[u]);
}

}  // namespace

LlamaCommands::LlamaCommands(CLI::App &app) {
    llama_ = app.add_subcommand("llama", "Llama models: make one of random weights, check a model's files, generate "
                                         "text or ids, chat, tokenize, measure prefill and decode speed");
    llama_->require_subcommand(1);

    init_ = llama_->add_subcommand("init", "Write a model directory of random weights: config.json, "
                                           "model.safetensors (or shards and their index) and a random tokenizer, as "
                                           "a download has");
    auto *preset = init_->add_option("--preset", preset_, fmt::format("a published architecture: {}",
                                                                      fmt::join(llama_preset_names(), ", ")));
    init_->add_option("--config", config_, "a config.json (or a directory holding one) to take the architecture from")
        ->excludes(preset);
    init_->add_option("--out", out_, "the directory to write (created; an earlier model's weight files there are "
                                     "replaced)")
        ->required();
    init_->add_option("--dtype", dtype_, "the weights' dtype: f32 or bf16 (bf16: the f32 values rounded)")
        ->check(CLI::IsMember({"f32", "bf16"}))
        ->default_val("f32");
    add_seed_flag(*init_, seed_, "the random values' seed");
    init_->add_option("--max-shard-size", max_shard_size_,
                      "split the weights into shards of at most this many bytes (e.g. 2GB, 500MiB) with "
                      "model.safetensors.index.json, as transformers does (default 5GB)");

    info_ = llama_->add_subcommand("info", "A model's config, parameters, bytes per dtype and files, "
                                           "and whether every tensor binds to the config");
    info_->add_option("--model", model_, "the model: a directory with config.json and safetensors weights, or a "
                                         ".safetensors file with config.json beside it")
        ->required();

    generate_ = add_generate_command(*llama_, generate_options_);
    chat_ = add_chat_command(*llama_, chat_options_);
    tokenize_ = add_tokenize_command(*llama_, tokenize_options_);
    detokenize_ = add_detokenize_command(*llama_, tokenize_options_);

    bench_ = llama_->add_subcommand("bench", "Prefill and decode tokens/s beside the machine's read bandwidth and "
                                             "FMA peak, measured in the same process, per thread count");
    LlamaBenchOptions &b = bench_options_;
    add_llama_run_options(*bench_, b.run);
    bench_->add_option("--prompt", b.prompt, "prompt tokens")->default_val(128)->check(at_least(1));
    bench_->add_option("--gen", b.gen, "tokens decoded after the prompt")->default_val(32)->check(at_least(1));
    bench_->add_option("--threads", b.threads, "thread counts, comma-separated, each at most the cores")
        ->delimiter(',')
        ->default_str("one per core")
        ->check(at_least(1));
    bench_->add_option("--repetitions", b.repetitions, "prefill and decode runs per thread count (medians reported)")
        ->default_val(3)
        ->check(at_least(1));
    bench_->add_option("--json", b.json, "also write the numbers to this file");
}

int LlamaCommands::run() const {
    if (*init_) return init();
    if (*info_) return info();
    if (*generate_) return llama_generate(generate_options_);
    if (*chat_) return llama_chat(chat_options_);
    if (*tokenize_) return llama_tokenize(tokenize_options_);
    if (*detokenize_) return llama_detokenize(tokenize_options_);
    if (*bench_) return llama_bench(bench_options_);
    return 1;
}

int LlamaCommands::init() const {
    if (preset_.empty() && config_.empty()) throw Error("llama init: give --preset NAME or --config FILE");
    LlamaConfig c = preset_.empty() ? read_llama_config(config_) : llama_preset(preset_);
    RandomLlamaOptions options;
    if (!max_shard_size_.empty()) options.max_shard_bytes = parse_byte_size(max_shard_size_, "--max-shard-size");
    options.progress = TenthsProgress{"llama init"};
    SafetensorsDType dtype = dtype_ == "bf16" ? SafetensorsDType::BF16 : SafetensorsDType::F32;
    const uint64_t seed = resolve_seed("llama init", seed_);
    RandomLlamaFiles files = write_random_llama(c, out_, dtype, seed, options);
    std::string weights = files.sharded
                              ? fmt::format("{} shards ({} ... {}) and model.safetensors.index.json",
                                            files.weight_files.size(), files.weight_files.front(),
                                            files.weight_files.back())
                              : files.weight_files.front();
    fmt::print("wrote {}: config.json, {}\n", out_, weights);
    fmt::print("  {} tensors, {} parameters, {} in {} ({} bytes), seed {}\n", files.tensors,
               llama_parameter_count(c), format_byte_size(files.data_bytes), safetensors_dtype_name(dtype),
               files.data_bytes, seed);
    if (files.tokenizer) {
        fmt::print("  tokenizer: a random byte-level BPE of {} tokens (tokenizer.json, tokenizer_config.json with a "
                   "chat template), generation_config.json\n",
                   c.vocab_size);
    } else {
        fmt::print("  no tokenizer: a byte-level BPE needs {} tokens at least, the vocabulary has {} (ids in, ids out)\n",
                   kRandomTokenizerMinVocab, c.vocab_size);
    }
    return 0;
}

int LlamaCommands::info() const {
    const LlamaModelFiles model = llama_model_files(model_);
    LlamaConfig c = read_llama_config(model.config);
    Checkpoint ckpt = Checkpoint::open(model.checkpoint);
    fmt::print("model: {}\n", model_);
    fmt::print("config: {}\n", describe(c));
    const int64_t params = llama_parameter_count(c);
    fmt::print("parameters: {} ({})\n", params, approximate(params));

    const auto &files = ckpt.files();
    fmt::print("files: {}{}\n",
               files.size() == 1 ? fmt::format("1 ({})", std::filesystem::path(files[0].path()).filename().string())
                                 : fmt::format("{} shards", files.size()),
               ckpt.sharded() ? fmt::format(" listed in model.safetensors.index.json (total_size {})",
                                            ckpt.index_metadata().count("total_size")
                                                ? ckpt.index_metadata().at("total_size")
                                                : "not given")
                              : "");
    if (ckpt.sharded())
        for (const SafetensorsFile &f : files)
            fmt::print("  {}: {} tensors, {}\n", f.path(), f.tensors().size(),
                       format_byte_size(f.header().data_offset + f.header().data_bytes));

    LlamaWeights w = bind_llama_weights(ckpt, c);
    std::map<std::string, uint64_t> by_dtype;
    size_t bound = 0;
    for (const LlamaTensorSpec &s : llama_tensor_specs(c)) {
        const SafetensorsTensor &t = ckpt.at(s.name);
        by_dtype[std::string(safetensors_dtype_name(t.dtype))] += t.bytes();
        ++bound;
    }
    std::vector<std::string> parts;
    for (const auto &[dtype, bytes] : by_dtype) parts.push_back(fmt::format("{} {} ({})", dtype, bytes, format_byte_size(bytes)));
    fmt::print("bytes: {}\n", fmt::join(parts, ", "));
    fmt::print("bound: all {} tensors present, shaped as the config asks, F32/BF16/F16{}\n", bound,
               w.tied() ? "; the head reads model.embed_tokens.weight (tied)" : "; lm_head.weight is the head");
    return 0;
}

}  // namespace halogen
