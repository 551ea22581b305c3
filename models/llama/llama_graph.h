// One forward step of a llama model as a halogen graph, built only with the nn layer and the
// primitives: T new tokens at positions p0 ... p0+T-1 run through every decoder layer against a
// KV cache of S = p0 + T positions, and the head reads the last position only. T and S are
// symbolic dims ("T", "S"), bound per step (S appears in no input's shape: the caller binds it);
// p0 is S - T. The caches hold C >= S positions (a symbol, "C": the context they were sized for).
//
// Inputs (names as the interpreter and the kernels take them):
//   ids                               int32 [T]
//   rope_cos, rope_sin                float32 [T, d/2]: rows p0 ... p0+T-1 of rope_tables
//   layer{i}.k_cache, layer{i}.v_cache float32 [G, C, d], head-major (as the attention family's
//                                     cache and Hugging Face's); positions [0, p0) of each head
//                                     hold the earlier keys and values, positions from p0 on are
//                                     not read
//   every weight, named as the checkpoint names it (llama_weights.h), [out, in] for linears;
//   lm_head.weight only when the head is untied (a tied head reads model.embed_tokens.weight)
// Outputs, in this order:
//   logits                            float32 [1, V], the last position's
//   layer{i}.k_new, layer{i}.v_new    float32 [T, G, d] for each layer i: the step's own k (after
//                                     RoPE) and v rows, which the caller writes into its cache at
//                                     positions p0 ... p0+T-1 of each head
//
// A layer, with x [T, D] (HF's LlamaDecoderLayer; notes in /work/shared/notes/llama3.md):
//   h   = x + o_proj(attention(rope(q_proj(rms1(x))), cache_k with k_new, cache_v with v_new))
//   out = h + down_proj(silu(gate_proj(rms2(h))) * up_proj(rms2(h)))
// The attention (nn/attention.h) reads [G, S, d] keys: the cache's first S positions with the
// step's rows in place,
//   k_all[g, s] = where(s < p0, k_cache[g, s], gather(k_new, max(s - p0, 0))[g])
// as a gather over a [G, S, T, d] broadcast of k_new (gather keeps one index per output element).
// The last row of the final hidden state is also a gather (at index T - 1): a slice's start must
// be a constant, and T - 1 is symbolic.
//
// q, k and v come from one projection by the three weights stacked (concat, frontend/derived.h):
// qkv [T, (H + 2G) * d] viewed as heads [T, H + 2G, d], RoPE on the first H + G heads.
//
// Kernel boundaries (materialize()): each layer's qkv_rope, attn, attn_residual, swiglu and out --
// a projection with its epilogue (the norm before it, RoPE, the residual add, SiLU times up) is
// one kernel, the attention another: five per layer.
//
// Named nodes (named()), for schedules: "embed"; per layer "layer{i}.attn_norm", ".qkv",
// ".qkv_rope", ".k_new", ".v_new", ".k_all", ".v_all", ".attn", ".o", ".attn_residual",
// ".mlp_norm", ".gate", ".up", ".swiglu", ".down", ".out"; then "last", "final_norm", "logits".
//
// Weights enter as float32 inputs, or as bfloat16 inputs when built with DType::BFloat16: the
// linears then read them as bf16 (nn::linear widens each element exactly) and the embedding and
// norm weights are cast to float32 in the graph.
#pragma once

#include <string>
#include <vector>

#include "frontend/graph.h"
#include "models/llama/llama_config.h"

namespace halogen {

struct LlamaStepGraph {
    Graph graph;
    Dim T, S, C;                               // the symbolic dims, "T", "S" and "C"
    std::vector<std::string> weight_inputs;    // the weights' input names, llama_tensor_specs order
};

// ConfigError for an invalid config; DTypeError unless `weights` is Float32 or BFloat16.
LlamaStepGraph build_llama_step(const LlamaConfig &c, DType weights = DType::Float32);

// The step cut where its kernels repeat, as the compiled model runs it: the same builder code as
// build_llama_step, one decoder layer standing for all of them.
//   embed: ids [T], model.embed_tokens.weight -> [T, D]
//   layer: hidden [T, D], rope_cos, rope_sin, k_cache, v_cache [G, C, d], one layer's weights
//          named without their "model.layers.{i}." prefix ("input_layernorm.weight", ...), its
//          q, k and v projections stacked into one (kLlamaQkvWeight [(H + 2G) * d, D], the caller
//          stacks the rows) -> out [T, D], qkv [T, H + 2G, d] (the step's queries, then its new
//          keys and values, after RoPE); nodes named "layer.qkv", "layer.attn", ...
//   head:  hidden [T, D], model.norm.weight, the head weight (head_weight_name) -> logits [1, V]
// With down_block > 0 the layer takes its down projection's weight [D, I] in blocks of K
// (nn::block_columns): "mlp.down_proj.weight" is [I / down_block, D, down_block], which the caller
// copies so; ConfigError when I is not a multiple of it.
constexpr const char *kLlamaQkvWeight = "self_attn.qkv_proj.weight";
// A weight input of the parts is named as its checkpoint tensor, without the layer prefix, with
// '_' for '.' (Halide names may not hold a '.'): llama_part_input_name("model.norm.weight") is
// "model_norm_weight".
std::string llama_part_input_name(const std::string &weight);

struct LlamaParts {
    Graph embed, layer, head;
    Dim T, S, C;
};
// With `panels` the layer takes its projections' weights (the stacked qkv, o, gate, up, down)
// packed in panels of kLlamaPanelRows rows (nn::pack_panels: [N / 32, K, 32], which the caller
// packs so), as the matmul family's panel kernels read them; ConfigError unless
// llama_fits_panels(c) and down_block is 0.
constexpr int64_t kLlamaPanelRows = 32;
bool llama_fits_panels(const LlamaConfig &c);   // head_dim, hidden_size and intermediate_size multiples of 32
LlamaParts build_llama_parts(const LlamaConfig &c, DType weights = DType::Float32, int64_t down_block = 0,
                             bool panels = false);

// The head's weight: lm_head.weight, or the embedding table when the config ties them.
std::string head_weight_name(const LlamaConfig &c);

// The input names of layer i's cache.
std::string llama_k_cache_name(int64_t layer);
std::string llama_v_cache_name(int64_t layer);

}  // namespace halogen
