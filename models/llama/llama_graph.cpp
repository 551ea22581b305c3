// The llama step graph (llama_graph.h): the embedding, each decoder layer, the last row's final
// norm and head, from nn ops and primitives.
#include "models/llama/llama_graph.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "frontend/derived.h"
#include "frontend/errors.h"
#include "models/llama/llama_weights.h"
#include "frontend/nn/nn.h"
#include "frontend/primitives.h"
#include "frontend/views.h"

namespace halogen {

namespace {

struct Builder {
    explicit Builder(const LlamaConfig &config) : c(config) {}

    const LlamaConfig &c;
    Dim T = Dim::sym("T"), S = Dim::sym("S"), C = Dim::sym("C");
    std::map<std::string, Tensor> weights;

    // A weight's graph input as it is (what nn::linear takes: it widens a bf16 weight itself), and
    // widened to float32 by a cast when it is bf16 (for the embedding and the norms).
    Tensor weight(const std::string &name) const { return weights.at(name); }
    Tensor weight_f32(const std::string &name) const {
        const Tensor w = weight(name);
        return w.dtype() == DType::Float32 ? w : cast(w, DType::Float32);
    }
    // A kernel's output (materialize()), named for the schedules.
    static Tensor stored(const Tensor &t, const std::string &name) { return named(materialize(t), name); }
    Tensor norm(const Tensor &x, const std::string &w) const {
        return nn::rms_norm(x, weight_f32(w), c.rms_norm_eps);
    }

    // The cache's first S positions [G, S, d] with positions [p0, S) replaced by the step's rows
    // [T, G, d]: where(s < p0, cache[g, s], rows[s - p0, g]).
    Tensor with_new_rows(const Tensor &cache, const Tensor &rows) const {
        const Dim G = rows.shape()[1], d = rows.shape()[2];
        const Tensor s = reshape(arange(S), {Dim(1), S, Dim(1)});
        const Tensor p0 = dim_const(S - T, DType::Int32);
        const Tensor old = lt(s, p0);                                                     // [1, S, 1]
        const Tensor at = maximum(sub(s, p0), iconst(0));                                 // [1, S, 1]
        const Tensor idx = expand(reshape(at, {Dim(1), S, Dim(1), Dim(1)}), {G, S, Dim(1), d});
        const Tensor spread = expand(reshape(permute(rows, {1, 0, 2}), {G, Dim(1), T, d}), {G, S, T, d});
        const Tensor fresh = reshape(gather(spread, 2, idx), {G, S, d});
        return where(old, slice(cache, 1, Dim(0), S), fresh);
    }

    // What one decoder layer gives: its output [T, D], and its queries and new keys and values after
    // RoPE as one kernel's output [T, H + 2G, d] (heads: H queries, G keys, G values) and as views.
    struct Layer {
        Tensor out, qkv, k_new, v_new;
    };

    // One decoder layer: weights named p + "input_layernorm.weight" ..., q, k and v projected by one
    // weight [(H + 2G) * d, D] (the three stacked), nodes named n + "qkv" ...; the cache [G, C, d].
    Layer layer(const Tensor &x, const std::string &p, const std::string &n, const Tensor &qkv_weight,
                const Tensor &k_cache, const Tensor &v_cache) const {
        const Dim H = c.num_attention_heads, G = c.num_key_value_heads, d = c.head_dim, R = c.kv_group_size();
        const int64_t heads = c.num_attention_heads + 2 * c.num_key_value_heads;

        const Tensor a = named(norm(x, p + "input_layernorm.weight"), n + "attn_norm");
        const Tensor qkv = named(nn::linear(a, qkv_weight), n + "qkv");                      // [T, (H+2G)*d]
        const Tensor split = reshape(qkv, {T, Dim(heads), d});
        const Tensor rotated = lt(reshape(arange(Dim(heads)), {Dim(1), Dim(heads), Dim(1)}), iconst(heads - c.num_key_value_heads));
        const Tensor qkv_rope = stored(where(rotated, nn::rope(split, rope_cos, rope_sin), split), n + "qkv_rope");
        const Tensor q_rope = slice(qkv_rope, 1, Dim(0), H);                                  // [T, H, d]
        const Tensor k_new = named(slice(qkv_rope, 1, H, H + G), n + "k_new");              // [T, G, d]
        const Tensor v_new = named(slice(qkv_rope, 1, H + G, H + G + G), n + "v_new");

        const Tensor k_all = named(with_new_rows(k_cache, k_new), n + "k_all");
        const Tensor v_all = named(with_new_rows(v_cache, v_new), n + "v_all");
        // Query head h = g*R + r reads KV head g: HF's repeat_kv.
        const Tensor att = stored(nn::attention(reshape(q_rope, {T, G, R, d}), k_all, v_all), n + "attn");
        const Tensor o = named(nn::linear(reshape(att, {T, H * d}), weight(p + "self_attn.o_proj.weight")), n + "o");
        const Tensor h = stored(add(x, o), n + "attn_residual");

        const Tensor m = named(norm(h, p + "post_attention_layernorm.weight"), n + "mlp_norm");
        const Tensor gate = named(nn::linear(m, weight(p + "mlp.gate_proj.weight")), n + "gate");
        const Tensor up = named(nn::linear(m, weight(p + "mlp.up_proj.weight")), n + "up");
        const Tensor swiglu = stored(mul(nn::silu(gate), up), n + "swiglu");
        const Tensor down = named(nn::linear(swiglu, weight(p + "mlp.down_proj.weight")), n + "down");
        return {stored(add(h, down), n + "out"), qkv_rope, k_new, v_new};
    }

    // The three projections of layer prefix p stacked, [(H + 2G) * d, D], widened first (exact).
    Tensor stacked_qkv(const std::string &p) const {
        return concat({weight_f32(p + "self_attn.q_proj.weight"), weight_f32(p + "self_attn.k_proj.weight"),
                       weight_f32(p + "self_attn.v_proj.weight")}, 0);
    }

    // The embedding of ids [T]: x [T, D].
    Tensor embed(const Tensor &ids) const {
        return named(nn::embedding(ids, weight_f32("model.embed_tokens.weight")), "embed");
    }

    // The last row of x [T, D], x[T-1], as a gather at index T - 1 ([1, D]), normed, times the head.
    Tensor head(const Tensor &x) const {
        const Dim D = c.hidden_size;
        const Tensor last_idx = expand(reshape(dim_const(T - Dim(1), DType::Int32), {Dim(1), Dim(1)}), {Dim(1), D});
        const Tensor last = named(gather(x, 0, last_idx), "last");
        const Tensor normed = named(norm(last, "model.norm.weight"), "final_norm");
        return named(nn::linear(normed, weight(head_weight_name(c))), "logits");   // [1, V]
    }

    // The weights as inputs, looked up by their names less `strip`; the inputs named so too, or,
    // for the parts, by llama_part_input_name.
    void declare_weights(DType dtype, const std::vector<LlamaTensorSpec> &specs, const std::string &strip = "",
                         bool part = false) {
        for (const LlamaTensorSpec &spec : specs) {
            Shape shape(spec.shape.begin(), spec.shape.end());
            const std::string name = spec.name.substr(strip.size());
            weights.emplace(name, input(part ? llama_part_input_name(name) : name, dtype, shape));
        }
    }
    void declare_rope() {
        const Dim half = c.head_dim / 2;
        rope_cos = input("rope_cos", DType::Float32, {T, half});
        rope_sin = input("rope_sin", DType::Float32, {T, half});
    }
    Tensor cache(const std::string &name) const {
        return input(name, DType::Float32, {Dim(c.num_key_value_heads), C, Dim(c.head_dim)});
    }

    Tensor rope_cos, rope_sin;   // [T, d/2]
};

}  // namespace

std::string llama_k_cache_name(int64_t layer) { return fmt::format("layer{}.k_cache", layer); }
std::string llama_v_cache_name(int64_t layer) { return fmt::format("layer{}.v_cache", layer); }

namespace {

void check_weight_dtype(DType weights) {
    if (weights != DType::Float32 && weights != DType::BFloat16) {
        throw DTypeError(fmt::format("llama step: weights must be float32 or bfloat16, got {}", dtype_name(weights)));
    }
}

}  // namespace

std::string llama_part_input_name(const std::string &weight) {
    std::string out = weight;
    std::replace(out.begin(), out.end(), '.', '_');
    return out;
}

bool llama_fits_panels(const LlamaConfig &c) {
    return c.head_dim % kLlamaPanelRows == 0 && c.hidden_size % kLlamaPanelRows == 0 && c.intermediate_size % kLlamaPanelRows == 0;
}

std::string head_weight_name(const LlamaConfig &c) {
    return c.tie_word_embeddings ? "model.embed_tokens.weight" : "lm_head.weight";
}

LlamaStepGraph build_llama_step(const LlamaConfig &c, DType weights) {
    check_weight_dtype(weights);
    Builder b(c);
    const std::vector<LlamaTensorSpec> specs = llama_tensor_specs(c);   // validates the config
    std::vector<std::string> names;
    for (const LlamaTensorSpec &spec : specs) names.push_back(spec.name);
    b.declare_weights(weights, specs);
    const Tensor ids = input("ids", DType::Int32, {b.T});
    b.declare_rope();

    Tensor x = b.embed(ids);   // [T, D]
    std::vector<Tensor> kv;
    for (int64_t i = 0; i < c.num_hidden_layers; ++i) {
        const std::string p = fmt::format("model.layers.{}.", i);
        const auto layer = b.layer(x, p, fmt::format("layer{}.", i), b.stacked_qkv(p), b.cache(llama_k_cache_name(i)),
                                   b.cache(llama_v_cache_name(i)));
        x = layer.out;
        kv.push_back(layer.k_new);
        kv.push_back(layer.v_new);
    }
    std::vector<Tensor> outputs{b.head(x)};
    outputs.insert(outputs.end(), kv.begin(), kv.end());
    return LlamaStepGraph{Graph(std::move(outputs)), b.T, b.S, b.C, std::move(names)};
}

LlamaParts build_llama_parts(const LlamaConfig &c, DType weights, int64_t down_block, bool panels) {
    check_weight_dtype(weights);
    if (down_block < 0 || (down_block > 0 && c.intermediate_size % down_block != 0)) {
        throw ConfigError(fmt::format("llama parts: the down projection's K = intermediate_size = {} is not a multiple "
                                      "of its block {}", c.intermediate_size, down_block));
    }
    Builder b(c);
    const std::vector<LlamaTensorSpec> specs = llama_tensor_specs(c);   // validates the config
    std::vector<LlamaTensorSpec> global, layer0;
    const std::string prefix = "model.layers.0.";
    for (const LlamaTensorSpec &spec : specs) {
        if (spec.name.rfind(prefix, 0) == 0) layer0.push_back(spec);
        else if (spec.name.rfind("model.layers.", 0) != 0) global.push_back(spec);
    }
    b.declare_weights(weights, global, "", true);
    b.declare_weights(weights, layer0, prefix, true);
    if (down_block > 0) {
        const std::string down = "mlp.down_proj.weight";
        const Tensor blocked = input(llama_part_input_name(down), weights,
                                     {Dim(c.intermediate_size / down_block), Dim(c.hidden_size), Dim(down_block)});
        b.weights[down] = nn::unblock_columns(blocked);
    }
    b.declare_rope();
    const Dim D = c.hidden_size;
    const int64_t qkv_rows = (c.num_attention_heads + 2 * c.num_key_value_heads) * c.head_dim;
    // A projection's weight [N, K] as the layer takes it: as it is, or packed in panels.
    const auto projection = [&](const std::string &name, int64_t N, int64_t K) {
        if (!panels) return input(llama_part_input_name(name), weights, {Dim(N), Dim(K)});
        return nn::unpack_panels(input(llama_part_input_name(name), weights, {Dim(N / kLlamaPanelRows), Dim(K), Dim(kLlamaPanelRows)}));
    };
    if (panels) {
        if (!llama_fits_panels(c)) {
            throw ConfigError(fmt::format("llama parts: panels of {} rows need head_dim, hidden_size and intermediate_size "
                                          "that are multiples of {} (head_dim {}, hidden_size {}, intermediate_size {})",
                                          kLlamaPanelRows, kLlamaPanelRows, c.head_dim, c.hidden_size, c.intermediate_size));
        }
        if (down_block > 0) {
            throw ConfigError(fmt::format("llama parts: panels of {} rows take the down projection's weight whole, not "
                                          "in blocks of {} columns", kLlamaPanelRows, down_block));
        }
        const int64_t F = c.intermediate_size, HD = c.num_attention_heads * c.head_dim;
        b.weights["self_attn.o_proj.weight"] = projection("self_attn.o_proj.weight", c.hidden_size, HD);
        b.weights["mlp.gate_proj.weight"] = projection("mlp.gate_proj.weight", F, c.hidden_size);
        b.weights["mlp.up_proj.weight"] = projection("mlp.up_proj.weight", F, c.hidden_size);
        b.weights["mlp.down_proj.weight"] = projection("mlp.down_proj.weight", c.hidden_size, F);
    }

    const Graph embed({b.embed(input("ids", DType::Int32, {b.T}))});
    const Tensor qkv_weight = projection(kLlamaQkvWeight, qkv_rows, c.hidden_size);
    const auto layer = b.layer(input("hidden", DType::Float32, {b.T, D}), "", "layer.", qkv_weight, b.cache("k_cache"),
                               b.cache("v_cache"));
    const Graph layer_graph({layer.out, layer.qkv});
    const Graph head({b.head(input("hidden", DType::Float32, {b.T, D}))});
    return LlamaParts{embed, layer_graph, head, b.T, b.S, b.C};
}

}  // namespace halogen
