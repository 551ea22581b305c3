// `halogen llama generate`: new tokens after a prompt, through the compiled model. The prompt is
// token ids (--ids: ids in, ids out, as a tokenizer-free check of the model) or text (--prompt,
// --prompt-file; with --chat, the conversation the model's chat template makes of it, with an
// optional --system message). Text streams to stdout as it is generated, flushed per token, with
// the model's lines and the speeds on stderr; --json prints one JSON object instead (the prompt's
// ids, the new ids, the text, the finish reason and the timings). Generation stops at the model's
// end ids (unless --ignore-eos), at a --stop string (repeatable; not printed), or after --max-new.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/llama_run.h"
#include "cli/sampling_flags.h"

namespace halogen {

struct GenerateOptions {
    LlamaRunOptions run;
    SamplingFlags sampling;
    std::vector<int32_t> ids;
    std::string prompt, prompt_file, system;
    bool chat = false, ignore_eos = false, json = false;
    std::vector<std::string> stop;
    int64_t max_new = 32, context = 0;
    int threads = 0;   // 0: one per core
    CLI::Option *ids_option = nullptr, *prompt_option = nullptr, *prompt_file_option = nullptr, *system_option = nullptr;
};

// Adds `generate` to the `llama` command; the options land in `o`, which must outlive the parse.
CLI::App *add_generate_command(CLI::App &llama, GenerateOptions &o);

int llama_generate(const GenerateOptions &o);

}  // namespace halogen
