// `halogen llama chat --model M [--system S]`: a conversation over stdin and stdout, in a terminal
// or through a pipe. Each line read is a user's message; the model's answer streams out as it is
// generated. The conversation goes through the model's chat template each turn, and only what is
// new since the last turn is prefilled: the KV cache keeps the ids the turns share. `/reset`
// starts again, `/exit` or the end of the input ends it; a conversation that fills the context is
// said, and the turn that did not fit is dropped. Each turn's counts go to stderr: the new tokens
// prefilled, those reused from the cache, those generated and why generation ended.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/llama_run.h"
#include "cli/sampling_flags.h"

namespace halogen {

struct ChatOptions {
    LlamaRunOptions run;
    SamplingFlags sampling;
    std::string system;
    CLI::Option *system_option = nullptr;
    int64_t max_new = 0;   // per answer; 0: until an end token or the context's end
    int64_t context = 0;   // 0: the config's max_position_embeddings, at most 4096
    int threads = 0;
};

CLI::App *add_chat_command(CLI::App &llama, ChatOptions &o);

int llama_chat(const ChatOptions &o);

}  // namespace halogen
