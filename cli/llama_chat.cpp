// `halogen llama chat` (llama_chat.h).
#include "cli/llama_chat.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include <fmt/format.h>

#include "cli/flag_checks.h"
#include "cli/threads_flag.h"
#include "cli/llama_text_cache.h"
#include "models/llama/llama_text.h"
#include "models/llama/text_generation.h"

namespace halogen {

namespace {

const char *kCommand = "llama chat";

size_t common_prefix(const std::vector<int32_t> &a, const std::vector<int32_t> &b) {
    size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
    return n;
}

}  // namespace

CLI::App *add_chat_command(CLI::App &llama, ChatOptions &o) {
    CLI::App *c = llama.add_subcommand("chat", "A conversation with the model over stdin and stdout (/reset, /exit)");
    add_llama_run_options(*c, o.run);
    o.system_option = c->add_option("--system", o.system, "a system message that opens the conversation");
    c->add_option("--max-new", o.max_new, "new tokens per answer at most (0: until an end token)")
        ->default_val(0)
        ->check(at_least(0));
    add_sampling_flags(*c, o.sampling);
    c->add_option("--context", o.context, "positions the KV cache holds (default: the config's, at most 4096)")
        ->check(at_least(1));
    add_threads_flag(*c, o.threads);
    return c;
}

int llama_chat(const ChatOptions &o) {
    Sampler sampler(resolve_sampling(kCommand, o.sampling));
    const LlamaConfig c = read_model_config(o.run.model);
    const LlamaText text = open_cached_llama_text(o.run.model, text_cache(o.run));
    if (text.files.chat_template.empty()) {
        throw Error(fmt::format("{}: {} has no chat template (tokenizer_config.json's chat_template)", kCommand, o.run.model));
    }
    const int64_t context = o.context > 0 ? o.context : std::min<int64_t>(c.max_position_embeddings, 4096);
    llama_run_context(kCommand, c, 1, "a message", 0, "--max-new", context);   // the context against the config
    OpenedLlama opened(kCommand, o.run, c, context, resolve_threads(kCommand, o.threads));
    LlamaModel &model = opened.model();
    std::cerr << fmt::format("{}: {}\n", kCommand, opened.describe_load());
    const bool terminal = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    if (terminal) std::cerr << fmt::format("{}: /reset starts again, /exit (or Ctrl-D) ends\n", kCommand);

    std::vector<ChatTurn> conversation;
    if (o.system_option->count()) conversation.push_back({"system", o.system});
    const std::vector<ChatTurn> opening = conversation;
    std::vector<int32_t> fed;    // the ids at the model's positions [0, position())
    std::vector<int32_t> seen;   // the conversation's ids so far: fed, and the last pick not fed yet
    GenerationOptions g;
    g.end_ids = text.end_ids;
    g.skip_special_tokens = true;
    std::string line;
    int turn = 0;
    for (;;) {
        if (terminal) std::cout << "> " << std::flush;
        if (!std::getline(std::cin, line) || line == "/exit") break;
        if (line == "/reset") {
            conversation = opening;
            fed.clear();
            seen.clear();
            model.rewind(0);
            turn = 0;
            std::cout << "(the conversation starts again)\n" << std::flush;
            continue;
        }
        if (line.empty()) continue;
        conversation.push_back({"user", line});
        const std::vector<int32_t> ids = chat_continuation_ids(text, conversation, seen);
        if (int64_t(ids.size()) + 1 > context) {
            conversation.pop_back();
            std::cout << fmt::format("(the conversation would fill the context: {} of its {} positions; /reset to "
                                     "start again)\n",
                                     ids.size(), context)
                      << std::flush;
            continue;
        }
        // Reuse the cache for what this turn's ids share with what the model has seen.
        const size_t keep = std::min(common_prefix(fed, ids), ids.size() - 1);
        model.rewind(int64_t(keep));
        fed.resize(keep);
        const std::vector<int32_t> prompt(ids.begin() + long(keep), ids.end());
        g.max_new = o.max_new > 0 ? o.max_new : context - int64_t(ids.size());
        std::vector<int32_t> history = fed;
        const Generation out = generate_text(model, text.tokenizer.get(), sampler, prompt, history, g,
                                             [](std::string_view piece) {
                                                 std::fwrite(piece.data(), 1, piece.size(), stdout);
                                                 std::fflush(stdout);
                                             });
        std::cout << "\n";
        std::cerr << fmt::format("{}: turn {}: {} new token{} prefilled, {} reused from the cache; {} generated ({})\n",
                                 kCommand, ++turn, prompt.size(), prompt.size() == 1 ? "" : "s", keep,
                                 out.new_ids.size(), finish_reason_name(out.finish));
        fed.assign(history.begin(), history.begin() + model.position());
        seen = history;
        conversation.push_back({"assistant", out.text});
        if (out.finish == FinishReason::context) {
            std::cout << "(the context is full; /reset to start again)\n";
        }
        std::cout << std::flush;
    }
    return 0;
}

}  // namespace halogen
