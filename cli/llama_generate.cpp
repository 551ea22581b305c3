// `halogen llama generate` (llama_generate.h).
#include "cli/llama_generate.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/flag_checks.h"
#include "cli/plural.h"
#include "cli/process_clock.h"
#include "cli/threads_flag.h"
#include "cli/llama_text_cache.h"
#include "models/llama/llama_text.h"
#include "models/llama/text_generation.h"

namespace halogen {

namespace {

const char *kCommand = "llama generate";

std::string read_text_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error(fmt::format("{}: --prompt-file {}: cannot read it", kCommand, path));
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// The prompt's ids: --ids as given, or the text tokenized (through the chat template with --chat).
std::vector<int32_t> prompt_ids(const GenerateOptions &o, const LlamaText *text) {
    if (!text) return o.ids;
    const std::string prompt = o.prompt_option->count() ? o.prompt : read_text_file(o.prompt_file);
    std::vector<int32_t> ids;
    if (o.chat) {
        std::vector<ChatTurn> conversation;
        if (o.system_option->count()) conversation.push_back({"system", o.system});
        conversation.push_back({"user", prompt});
        ids = chat_prompt_ids(*text, conversation);
    } else {
        ids = text->tokenizer->encode(prompt, /*add_special_tokens=*/true);
    }
    if (ids.empty()) throw Error(fmt::format("{}: the prompt is empty: it makes no tokens", kCommand));
    return ids;
}

double tokens_per_s(int64_t n, double s) { return s > 0 ? double(n) / s : 0; }

}  // namespace

CLI::App *add_generate_command(CLI::App &llama, GenerateOptions &o) {
    CLI::App *g = llama.add_subcommand("generate", "New tokens after a prompt, through the compiled model: text in, "
                                                   "text streamed out (--prompt), or ids in, ids out (--ids)");
    add_llama_run_options(*g, o.run);
    o.ids_option = g->add_option("--ids", o.ids, "the prompt's token ids, comma-separated, at least one")
                       ->delimiter(',')
                       ->check(not_empty());
    o.prompt_option = g->add_option("--prompt", o.prompt, "the prompt as text (the model's tokenizer makes its ids)");
    o.prompt_file_option = g->add_option("--prompt-file", o.prompt_file, "the prompt as text, read from this file");
    o.ids_option->excludes(o.prompt_option)->excludes(o.prompt_file_option);
    o.prompt_option->excludes(o.prompt_file_option);
    g->add_flag("--chat", o.chat, "with a text prompt: a user's message, put through the model's chat template, "
                                  "which ends in the assistant's turn");
    o.system_option = g->add_option("--system", o.system, "with --chat: a system message before it");
    g->add_option("--stop", o.stop, "stop when the text holds this string (repeatable; it is not printed)");
    g->add_flag("--ignore-eos", o.ignore_eos, "go on past the model's end tokens");
    g->add_flag("--json", o.json, "print one JSON object: prompt ids, new ids, text, finish reason, timings");
    g->add_option("--max-new", o.max_new, "new tokens at most")->default_val(32)->check(at_least(0));
    add_sampling_flags(*g, o.sampling);
    g->add_option("--context", o.context, "positions the KV cache holds (default: the prompt plus --max-new)")
        ->check(at_least(1));
    add_threads_flag(*g, o.threads);
    return g;
}

int llama_generate(const GenerateOptions &o) {
    using Clock = std::chrono::steady_clock;
    const bool text_prompt = o.prompt_option->count() || o.prompt_file_option->count();
    if (!text_prompt && !o.ids_option->count()) {
        throw Error(fmt::format("{}: give the prompt as --prompt TEXT, --prompt-file FILE or --ids A,B,...", kCommand));
    }
    if (!text_prompt && (o.chat || o.system_option->count())) {
        throw Error(fmt::format("{}: --chat and --system take a text prompt (--prompt or --prompt-file)", kCommand));
    }
    if (o.system_option->count() && !o.chat) throw Error(fmt::format("{}: --system goes with --chat", kCommand));
    if (!text_prompt && !o.stop.empty()) throw Error(fmt::format("{}: --stop takes a text prompt", kCommand));
    Sampler sampler(resolve_sampling(kCommand, o.sampling));   // checks the options before the model loads

    const LlamaConfig c = read_model_config(o.run.model);
    std::unique_ptr<LlamaText> text;
    if (text_prompt) text = std::make_unique<LlamaText>(open_cached_llama_text(o.run.model, text_cache(o.run)));
    const std::vector<int32_t> prompt = prompt_ids(o, text.get());
    for (int32_t id : prompt) {
        if (id < 0 || id >= c.vocab_size) {
            throw Error(fmt::format("{}: id {} is outside the vocabulary [0, {})", kCommand, id, c.vocab_size));
        }
    }
    const auto n = int64_t(prompt.size());
    const int64_t context = llama_run_context(kCommand, c, n, fmt::format("the prompt's {}", count_of(n, "token")),
                                              o.max_new, "--max-new", o.context);
    OpenedLlama opened(kCommand, o.run, c, context, resolve_threads(kCommand, o.threads));
    LlamaModel &model = opened.model();
    // Text goes to stdout alone; the model's lines then go to stderr.
    std::FILE *report = text_prompt || o.json ? stderr : stdout;
    fmt::print(report, "model: {} kernels per layer, {}, {} weights in {}, context {}\n", model.layer_kernels(),
               count_of(c.num_hidden_layers, "layer"), dtype_name(model.weight_dtype()), model.panels() ? "panels" : "rows",
               model.context());
    fmt::print(report, "loaded: {}\n", opened.describe_load());
    std::fflush(report);

    GenerationOptions g;
    g.max_new = o.max_new;
    g.ignore_eos = o.ignore_eos;
    g.stop = o.stop;
    if (text) {
        g.end_ids = text->end_ids;
    } else {
        for (int64_t id : c.eos_token_ids) g.end_ids.push_back(int32_t(id));
    }
    const bool stream = text && !o.json;
    std::vector<int32_t> history;
    model.rewind(0);
    const Generation out = generate_text(model, text ? text->tokenizer.get() : nullptr, sampler, prompt, history, g,
                                         [&](std::string_view piece) {
                                             if (!stream) return;
                                             std::fwrite(piece.data(), 1, piece.size(), stdout);
                                             std::fflush(stdout);
                                         });
    const double first_token_s = out.new_ids.empty()
                                     ? 0
                                     : seconds_since_process_start() -
                                           std::chrono::duration<double>(Clock::now() - out.first_pick).count();
    const double prefill_tps = tokens_per_s(n, out.prefill_seconds), decode_tps = tokens_per_s(out.decoded, out.decode_seconds);
    if (o.json) {
        const nlohmann::ordered_json j = {{"prompt_ids", prompt},
                                  {"new_ids", out.new_ids},
                                  {"text", out.text},
                                  {"finish_reason", finish_reason_name(out.finish)},
                                  {"timings",
                                   {{"model_ready_seconds", opened.build_seconds()},
                                    {"first_token_seconds", first_token_s},
                                    {"prefill_tokens", n},
                                    {"prefill_seconds", out.prefill_seconds},
                                    {"prefill_tokens_per_second", prefill_tps},
                                    {"decode_tokens", out.decoded},
                                    {"decode_seconds", out.decode_seconds},
                                    {"decode_tokens_per_second", decode_tps}}}};
        std::cout << j.dump(2) << "\n";
        return 0;
    }
    if (stream) {
        std::cout << "\n" << std::flush;
    } else {
        fmt::print("new ids: {}\n", fmt::join(out.new_ids, ","));
    }
    if (!out.new_ids.empty()) fmt::print(report, "first token: {:.2f} s after the process started\n", first_token_s);
    fmt::print(report, "prefill: {} in {:.3f} s, {:.1f} tokens/s\n", count_of(n, "token"), out.prefill_seconds, prefill_tps);
    if (out.decoded > 0) {
        fmt::print(report, "decode: {} in {:.3f} s, {:.1f} tokens/s\n", count_of(out.decoded, "token"), out.decode_seconds,
                   decode_tps);
    }
    fmt::print(report, "finish: {} ({})\n", finish_reason_name(out.finish), count_of(int64_t(out.new_ids.size()), "new token"));
    return 0;
}

}  // namespace halogen
