// The llama step graph (llama_graph.h): the embedding, each decoder layer, the last row's final
// norm and head, from nn ops and primitives.
#include "frontend/llama/llama_graph.h"

#include <fmt/format.h>

#include <map>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "frontend/llama/llama_weights.h"
#include "frontend/nn/nn.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen {

namespace {

struct Builder {
    explicit Builder(const LlamaConfig &config) : c(config) {}

    const LlamaConfig &c;
    Dim T = Dim::sym("T"), S = Dim::sym("S");
    std::map<std::string, Tensor> weights;

    // A weight's graph input as it is (what nn::linear takes: it widens a bf16 weight itself), and
    // widened to float32 by a cast when it is bf16 (for the embedding and the norms).
    Tensor weight(const std::string &name) const { return weights.at(name); }
    Tensor weight_f32(const std::string &name) const {
        const Tensor w = weight(name);
        return w.dtype() == DType::Float32 ? w : cast(w, DType::Float32);
    }
    Tensor norm(const Tensor &x, const std::string &w) const {
        return nn::rms_norm(x, weight_f32(w), c.rms_norm_eps);
    }

    // cache [S, G, d] with rows [p0, S) replaced by rows [T, G, d]: where(s < p0, cache, rows[s - p0]).
    Tensor with_new_rows(const Tensor &cache, const Tensor &rows) const {
        const Dim G = rows.shape()[1], d = rows.shape()[2];
        const Tensor s = reshape(arange(S), {S, Dim(1), Dim(1)});
        const Tensor p0 = dim_const(S - T, DType::Int32);
        const Tensor old = lt(s, p0);                                                     // [S, 1, 1]
        const Tensor at = maximum(sub(s, p0), iconst(0));                                 // [S, 1, 1]
        const Tensor idx = expand(reshape(at, {S, Dim(1), Dim(1), Dim(1)}), {S, Dim(1), G, d});
        const Tensor spread = expand(reshape(rows, {Dim(1), T, G, d}), {S, T, G, d});
        const Tensor fresh = reshape(gather(spread, 1, idx), {S, G, d});
        return where(old, cache, fresh);
    }

    Tensor layer(const Tensor &x, int64_t i, std::vector<Tensor> &kv_out) const {
        const std::string p = fmt::format("model.layers.{}.", i), n = fmt::format("layer{}.", i);
        const Dim H = c.num_attention_heads, G = c.num_key_value_heads, d = c.head_dim, R = c.kv_group_size();
        const Tensor &cos = rope_cos, &sin = rope_sin;

        const Tensor a = named(norm(x, p + "input_layernorm.weight"), n + "attn_norm");
        const Tensor q = named(nn::linear(a, weight(p + "self_attn.q_proj.weight")), n + "q");   // [T, H*d]
        const Tensor k = named(nn::linear(a, weight(p + "self_attn.k_proj.weight")), n + "k");   // [T, G*d]
        const Tensor v = named(nn::linear(a, weight(p + "self_attn.v_proj.weight")), n + "v");
        const Tensor q_rope = named(nn::rope(reshape(q, {T, H, d}), cos, sin), n + "q_rope");    // [T, H, d]
        const Tensor k_new = named(nn::rope(reshape(k, {T, G, d}), cos, sin), n + "k_new");      // [T, G, d]
        const Tensor v_new = named(reshape(v, {T, G, d}), n + "v_new");
        kv_out.push_back(k_new);
        kv_out.push_back(v_new);

        const Tensor k_cache = input(llama_k_cache_name(i), DType::Float32, {S, G, d});
        const Tensor v_cache = input(llama_v_cache_name(i), DType::Float32, {S, G, d});
        const Tensor k_all = named(with_new_rows(k_cache, k_new), n + "k_all");
        const Tensor v_all = named(with_new_rows(v_cache, v_new), n + "v_all");
        // Query head h = g*R + r reads KV head g: HF's repeat_kv.
        const Tensor att = named(nn::attention(reshape(q_rope, {T, G, R, d}), k_all, v_all), n + "attn");
        const Tensor o = named(nn::linear(reshape(att, {T, H * d}), weight(p + "self_attn.o_proj.weight")), n + "o");
        const Tensor h = named(add(x, o), n + "attn_residual");

        const Tensor m = named(norm(h, p + "post_attention_layernorm.weight"), n + "mlp_norm");
        const Tensor gate = named(nn::linear(m, weight(p + "mlp.gate_proj.weight")), n + "gate");
        const Tensor up = named(nn::linear(m, weight(p + "mlp.up_proj.weight")), n + "up");
        const Tensor swiglu = named(mul(nn::silu(gate), up), n + "swiglu");
        const Tensor down = named(nn::linear(swiglu, weight(p + "mlp.down_proj.weight")), n + "down");
        return named(add(h, down), n + "out");
    }

    Tensor rope_cos, rope_sin;   // [T, d/2]
};

}  // namespace

std::string llama_k_cache_name(int64_t layer) { return fmt::format("layer{}.k_cache", layer); }
std::string llama_v_cache_name(int64_t layer) { return fmt::format("layer{}.v_cache", layer); }

LlamaStepGraph build_llama_step(const LlamaConfig &c, DType weights) {
    if (weights != DType::Float32 && weights != DType::BFloat16) {
        throw DTypeError(fmt::format("llama step: weights must be float32 or bfloat16, got {}", dtype_name(weights)));
    }
    Builder b(c);
    std::vector<std::string> names;
    for (const LlamaTensorSpec &spec : llama_tensor_specs(c)) {   // validates the config
        Shape shape(spec.shape.begin(), spec.shape.end());
        b.weights.emplace(spec.name, input(spec.name, weights, shape));
        names.push_back(spec.name);
    }
    const Dim half = c.head_dim / 2;
    const Tensor ids = input("ids", DType::Int32, {b.T});
    b.rope_cos = input("rope_cos", DType::Float32, {b.T, half});
    b.rope_sin = input("rope_sin", DType::Float32, {b.T, half});

    Tensor x = named(nn::embedding(ids, b.weight_f32("model.embed_tokens.weight")), "embed");   // [T, D]
    std::vector<Tensor> kv;
    for (int64_t i = 0; i < c.num_hidden_layers; ++i) x = b.layer(x, i, kv);

    // The last row, x[T-1], as a gather at index T - 1: [1, D].
    const Dim D = c.hidden_size;
    const Tensor last_idx = expand(reshape(dim_const(b.T - Dim(1), DType::Int32), {Dim(1), Dim(1)}), {Dim(1), D});
    const Tensor last = named(gather(x, 0, last_idx), "last");
    const Tensor normed = named(b.norm(last, "model.norm.weight"), "final_norm");
    const std::string head = c.tie_word_embeddings ? "model.embed_tokens.weight" : "lm_head.weight";
    const Tensor logits = named(nn::linear(normed, b.weight(head)), "logits");   // [1, V]

    std::vector<Tensor> outputs{logits};
    outputs.insert(outputs.end(), kv.begin(), kv.end());
    return LlamaStepGraph{Graph(std::move(outputs)), b.T, b.S, std::move(names)};
}

}  // namespace halogen
