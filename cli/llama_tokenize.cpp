// `halogen llama tokenize | detokenize` (llama_tokenize.h).
#include "cli/llama_tokenize.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/flag_checks.h"
#include "frontend/errors.h"
#include "cli/llama_text_cache.h"
#include "models/llama/llama_text.h"

namespace halogen {

CLI::App *add_tokenize_command(CLI::App &llama, TokenizeOptions &o) {
    CLI::App *t = llama.add_subcommand("tokenize", "A text's token ids under a model's tokenizer (a model directory, "
                                                   "a folder of tokenizer files, or a GGUF file)");
    t->add_option("--model", o.model, "the model: a directory holding tokenizer.json, or a GGUF file")->required();
    o.text_option = t->add_option("--text", o.text, "the text");
    o.file_option = t->add_option("--file", o.file, "the text, read from this file");
    o.text_option->excludes(o.file_option);
    t->add_flag("--chat", o.chat, "the text as a user's message through the model's chat template, ending in the "
                                  "assistant's turn");
    o.system_option = t->add_option("--system", o.system, "with --chat: a system message before it");
    t->add_flag("--json", o.json, "print {\"ids\": [...], \"tokens\": [...]}");
    return t;
}

CLI::App *add_detokenize_command(CLI::App &llama, TokenizeOptions &o) {
    CLI::App *d = llama.add_subcommand("detokenize", "The text token ids decode to under a model's tokenizer");
    d->add_option("--model", o.model, "the model: a directory holding tokenizer.json, or a GGUF file")->required();
    d->add_option("--ids", o.ids, "the token ids, comma-separated")->delimiter(',')->check(not_empty())->required();
    d->add_flag("--skip-special", o.skip_special, "leave special tokens (<|eot_id|>, ...) out of the text");
    return d;
}

int llama_tokenize(const TokenizeOptions &o) {
    if (!o.text_option->count() && !o.file_option->count()) throw Error("llama tokenize: give --text TEXT or --file FILE");
    if (o.system_option->count() && !o.chat) throw Error("llama tokenize: --system goes with --chat");
    std::string text = o.text;
    if (o.file_option->count()) {
        std::ifstream f(o.file, std::ios::binary);
        if (!f) throw Error(fmt::format("llama tokenize: --file {}: cannot read it", o.file));
        std::stringstream s;
        s << f.rdbuf();
        text = s.str();
    }
    const LlamaText t = open_cached_llama_text(o.model, CompileCacheOptions{});
    std::vector<int32_t> ids;
    if (o.chat) {
        std::vector<ChatTurn> conversation;
        if (o.system_option->count()) conversation.push_back({"system", o.system});
        conversation.push_back({"user", text});
        ids = chat_prompt_ids(t, conversation);
    } else {
        ids = t.tokenizer->encode(text, /*add_special_tokens=*/true);
    }
    if (o.json) {
        std::vector<std::string> tokens;
        for (int32_t id : ids) tokens.push_back(t.tokenizer->id_to_token(id));
        std::cout << nlohmann::json({{"ids", ids}, {"tokens", tokens}}).dump() << "\n";
    } else {
        std::cout << fmt::format("{}\n", fmt::join(ids, ","));
    }
    return 0;
}

int llama_detokenize(const TokenizeOptions &o) {
    const LlamaText t = open_cached_llama_text(o.model, CompileCacheOptions{});
    for (int32_t id : o.ids) {
        if (!t.tokenizer->has_id(id)) {
            throw Error(fmt::format("llama detokenize: id {} is not in the vocabulary of {} tokens", id,
                                    t.tokenizer->vocab_size()));
        }
    }
    std::cout << t.tokenizer->decode(o.ids, o.skip_special) << "\n";
    return 0;
}

}  // namespace halogen
