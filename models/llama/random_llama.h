// Model directories of random weights with a real llama architecture, in the layout a Hugging
// Face download has: config.json and model.safetensors, or shards model-0000k-of-0000n.safetensors
// with model.safetensors.index.json when the weights exceed the shard limit. Benchmarks and tests
// run on these, since no weights can be downloaded here.
//
// Values follow transformers' LlamaPreTrainedModel initializer: linear weights and the embedding
// normal(0, 0.02) (initializer_range); RMSNorm weights 1 + normal(0, 0.05) rather than exactly 1,
// so that a forward pass that forgets a norm's weight gives different outputs. Each value is a
// function of (seed, tensor name, element index) alone — a counter-based generator — so the
// values do not depend on the dtype, the shard limit or the order of writing, and a tensor can be
// made piece by piece: the files are streamed (safetensors_writer.h), and memory stays a few MB
// whatever the model's size. A BF16 model holds the F32 values rounded to nearest even.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "formats/safetensors.h"
#include "models/llama/llama_config.h"
#include "models/llama/llama_weights.h"

namespace halogen {

// transformers' default max_shard_size, "5GB".
constexpr uint64_t kDefaultMaxShardBytes = 5'000'000'000;

struct RandomLlamaOptions {
    // A shard holds tensors (in state_dict order) whose bytes sum to at most this, or one tensor
    // larger than it alone, as transformers splits; one shard is written as model.safetensors.
    uint64_t max_shard_bytes = kDefaultMaxShardBytes;
    // Called after each piece of data is written: bytes written so far, bytes in all.
    std::function<void(uint64_t written, uint64_t total)> progress;
    // Also write a random tokenizer sized to the vocabulary (tokenizer/random_tokenizer.h:
    // tokenizer.json, tokenizer_config.json with a chat template) and generation_config.json, with
    // config.json's bos and eos ids set to its special tokens, when the vocabulary holds one
    // (kRandomTokenizerMinVocab tokens at least); below that, no tokenizer is written.
    bool tokenizer = true;
};

// What was written: file names in the directory, in writing order.
struct RandomLlamaFiles {
    std::vector<std::string> weight_files;   // model.safetensors, or the shards
    bool sharded = false;                    // an index was written too
    uint64_t data_bytes = 0;                 // the tensors' bytes (the index's total_size)
    size_t tensors = 0;
    bool tokenizer = false;                  // tokenizer.json, tokenizer_config.json and generation_config.json were written
};

// Writes config.json (torch_dtype set to the dtype), the weights and, when the options ask and the
// vocabulary holds one, the tokenizer's files into `dir`, creating it. `dtype` is F32 or BF16.
// Files of an earlier model there (model.safetensors, the index, model-*-of-*.safetensors, the
// tokenizer's files, generation_config.json) are removed first, as transformers' save_pretrained
// does, so the directory holds one model.
RandomLlamaFiles write_random_llama(const LlamaConfig &c, const std::string &dir, SafetensorsDType dtype,
                                    uint64_t seed, const RandomLlamaOptions &options = {});

// The float32 values of elements [first, first + count) of a spec's tensor for `seed`: what
// write_random_llama writes in F32 (and rounds for BF16).
void random_llama_values(const LlamaTensorSpec &spec, uint64_t seed, int64_t first, int64_t count, float *out);

}  // namespace halogen
