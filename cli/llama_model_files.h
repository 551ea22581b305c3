// What --model names, as the files the llama commands read: a model directory (its config.json,
// and model.safetensors or model.safetensors.index.json with its shards), or one .safetensors
// file with config.json beside it. Anything else is one Error saying what --model takes, checked
// by the file's first bytes rather than its name: a GGUF file ("GGUF" magic) is not supported
// yet, a config.json is not the model, and other files are neither. The one place that decides
// what --model may name: GGUF support replaces its GGUF branch.
#pragma once

#include <string>

namespace halogen {

struct LlamaModelFiles {
    std::string config;       // the config.json to read
    std::string checkpoint;   // what Checkpoint::open takes: the directory or the .safetensors file
};

// Error naming the path and what --model takes when it is not a model.
LlamaModelFiles llama_model_files(const std::string &model);

}  // namespace halogen
