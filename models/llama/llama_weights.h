// The tensors a llama checkpoint holds for a LlamaConfig, by Hugging Face's names and shapes
// (nn.Linear weights are [out, in]), and their binding: each tensor found in a Checkpoint and
// checked, handed out as a reference into the mapped file (no copy).
//
// With V = vocab_size, D = hidden_size, F = intermediate_size, H heads and G KV heads of d dims:
//   model.embed_tokens.weight                        [V, D]
//   model.layers.{i}.input_layernorm.weight          [D]
//   model.layers.{i}.self_attn.q_proj.weight         [H*d, D]
//   model.layers.{i}.self_attn.k_proj.weight         [G*d, D]
//   model.layers.{i}.self_attn.v_proj.weight         [G*d, D]
//   model.layers.{i}.self_attn.o_proj.weight         [D, H*d]
//   model.layers.{i}.post_attention_layernorm.weight [D]
//   model.layers.{i}.mlp.gate_proj.weight            [F, D]
//   model.layers.{i}.mlp.up_proj.weight              [F, D]
//   model.layers.{i}.mlp.down_proj.weight            [D, F]
//   model.norm.weight                                [D]
//   lm_head.weight                                   [V, D]   only when tie_word_embeddings is false
//
// Binding is strict both ways. Every tensor above must be present, of exactly that shape, and F32,
// BF16 or F16 (each tensor on its own: a checkpoint may mix them). Every tensor in the checkpoint
// must be one of them, except `*.rotary_emb.inv_freq` (old transformers saved the RoPE table; it
// is recomputed from the config) and, when the head is tied, an lm_head.weight whose dtype, shape
// and bytes equal model.embed_tokens.weight's (some exports save the tied head too; the bytes are
// compared at bind, and the head still reads the embedding). A `*.bias` is refused with its own
// message (the config says no biases, and dropping one would change the model's output). Any
// other extra tensor is an error too, not skipped: a tensor the model does not read is a sign that
// the checkpoint is not the architecture the config claims (a renamed layer, a vision tower, a
// head that differs from the embedding beside a config that ties them), and running it anyway
// would give wrong outputs with no error.
// Problems are FormatErrors (missing, wrong dtype, unexpected) or ShapeErrors (wrong shape), each
// one line naming the checkpoint, the tensor, its shape and dtype and what was expected.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/checkpoint.h"
#include "formats/safetensors.h"
#include "models/llama/llama_config.h"

namespace halogen {

// One tensor the model reads: its name, its shape, the shape in the config's symbols (for
// messages, e.g. "[G*d, D]"), and what it is (which the random initializer reads).
struct LlamaTensorSpec {
    enum class Kind { Embedding, Linear, Norm };
    std::string name;
    std::vector<int64_t> shape;
    std::string dims;
    Kind kind = Kind::Linear;

    int64_t numel() const;
};

// Every tensor above for `c`, in the order of transformers' state_dict: the embedding, each
// layer's nine, the final norm, then the head when it is not tied. The config is validated first.
std::vector<LlamaTensorSpec> llama_tensor_specs(const LlamaConfig &c);

// The model's parameter count: the sum over llama_tensor_specs (a tied head counts once).
int64_t llama_parameter_count(const LlamaConfig &c);

// The tensors of one decoder layer, each pointing into the checkpoint's mapping.
struct LlamaLayerWeights {
    const SafetensorsTensor *input_layernorm = nullptr;
    const SafetensorsTensor *q_proj = nullptr, *k_proj = nullptr, *v_proj = nullptr, *o_proj = nullptr;
    const SafetensorsTensor *post_attention_layernorm = nullptr;
    const SafetensorsTensor *gate_proj = nullptr, *up_proj = nullptr, *down_proj = nullptr;
};

// A bound model: every pointer non-null, into the headers of the Checkpoint object it was bound
// from (not a copy of it), whose tensors' `data` point into the mapped files.
struct LlamaWeights {
    LlamaConfig config;
    const SafetensorsTensor *embed_tokens = nullptr;
    std::vector<LlamaLayerWeights> layers;   // num_hidden_layers of them
    const SafetensorsTensor *norm = nullptr;
    const SafetensorsTensor *lm_head = nullptr;   // == embed_tokens when the head is tied

    bool tied() const { return lm_head == embed_tokens; }
    // Every bound tensor once, in llama_tensor_specs' order: the embedding, each layer's nine, the
    // final norm, the head when it is not tied.
    std::vector<const SafetensorsTensor *> tensors() const;
};

// Finds and checks every tensor of llama_tensor_specs(c) in `checkpoint` and every tensor of the
// checkpoint against them (see the header's comment). The result points into `checkpoint` itself:
// it must outlive the result (a temporary is refused at compile time).
LlamaWeights bind_llama_weights(const Checkpoint &checkpoint, const LlamaConfig &c);
LlamaWeights bind_llama_weights(Checkpoint &&, const LlamaConfig &) = delete;

}  // namespace halogen
