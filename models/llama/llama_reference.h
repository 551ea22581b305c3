// The reference llama model: the step graph of llama_graph.h run by the reference interpreter
// (frontend/interpreter.h) on a bound checkpoint, with a KV cache preallocated for a context
// length and the position of the next token. It is slow on purpose (the interpreter evaluates one
// element at a time) and is what the AOT kernels are checked against. It has no loop over tensors
// of its own: the step is the graph; the model copies the cache rows [0, S) into the step's
// inputs and appends the step's k/v rows to its cache (copies of rows).
//
// Weights are copied out of the mapping once, at construction: as float32 Arrays, F32 as they are
// and BF16/F16 widened to float32 exactly (the default); or, with keep_bf16, BF16 tensors as
// bfloat16 Arrays that the graph widens itself (then every weight must be BF16). The RoPE tables
// for positions [0, context) are computed at construction too (llama_rope.h).
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/interpreter.h"
#include "models/llama/llama_graph.h"
#include "models/llama/sampling.h"
#include "models/llama/llama_weights.h"
#include "models/llama/text_generation.h"

namespace halogen {

struct LlamaReferenceOptions {
    int64_t context = 0;       // positions the cache holds; 0: max_position_embeddings
    bool keep_bf16 = false;    // bf16 weights enter the graph as bfloat16 (all weights must be BF16)
};

class LlamaReference : public TokenStep {
public:
    // Copies the weights; `w` (and its checkpoint) may be released afterwards.
    explicit LlamaReference(const LlamaWeights &w, const LlamaReferenceOptions &options = {});

    // Runs ids at positions position() ... position()+T-1, appends their k/v to the cache and
    // returns the last one's logits [V]. ShapeError when they do not fit the context, or no ids.
    std::vector<float> step(const std::vector<int32_t> &ids) override;
    // Forgets the cache and runs `ids` from position 0.
    std::vector<float> prefill(const std::vector<int32_t> &ids);
    // One token at the next position.
    std::vector<float> decode(int32_t id);
    // Prefills `ids`, then picks the argmax (the first when tied, as torch.argmax) n times,
    // decoding each pick but the last; returns the n picks.
    std::vector<int32_t> greedy(const std::vector<int32_t> &ids, int64_t n);

    int64_t position() const override { return position_; }
    int64_t context() const override { return context_; }
    void rewind(int64_t position) override;   // back to an earlier position; ShapeError past position()
    const LlamaConfig &config() const { return config_; }
    const LlamaStepGraph &step_graph() const { return step_; }

private:
    LlamaConfig config_;
    LlamaStepGraph step_;
    int64_t context_ = 0, position_ = 0;
    Inputs inputs_;                                 // the weights; the step's inputs are set per step
    std::vector<float> cos_, sin_;                  // [context, d/2]
    std::vector<Array> k_cache_, v_cache_;          // per layer [G, context, d]
};

}  // namespace halogen
