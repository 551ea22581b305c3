// Progress lines on stderr for the llama commands: while `llama init` writes a model, and while
// `llama generate` and `llama bench` open one (the files mapped and checked, the programs
// compiled, the weights made ready).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "formats/checkpoint.h"
#include "models/llama/llama_model.h"

namespace halogen {

// "{label}: 40% (1.98 GB of 4.94 GB)" each time `done` passes another tenth of `total` (one line
// for a step that passes several).
struct TenthsProgress {
    std::string label;
    int shown = 0;
    void operator()(uint64_t done, uint64_t total);
};

// One line for an opened checkpoint: its files, tensors and bytes, and the seconds it took.
void print_opened(const std::string &command, const Checkpoint &ckpt, double seconds);

// The model's load reports as lines: each program compiled, and the weights made ready by tenths.
std::function<void(const LlamaLoadProgress &)> load_progress(const std::string &command);

}  // namespace halogen
