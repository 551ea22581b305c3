// A llama checkpoint's tensors: the expected list and the binding (see llama_weights.h).
#include "models/llama/llama_weights.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>
#include <set>
#include <string_view>

#include "formats/printable_text.h"

namespace halogen {

namespace {

std::string shape_text(const std::vector<int64_t> &shape) { return fmt::format("[{}]", fmt::join(shape, ", ")); }

bool ends_with(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

bool is_weight_dtype(SafetensorsDType t) {
    return t == SafetensorsDType::F32 || t == SafetensorsDType::BF16 || t == SafetensorsDType::F16;
}

// The spec's tensor, checked; null when absent.
const SafetensorsTensor *check(const Checkpoint &ckpt, const LlamaTensorSpec &spec, const LlamaConfig &c) {
    const SafetensorsTensor *t = ckpt.find(spec.name);
    std::string expected = fmt::format("{} = {}", spec.dims, shape_text(spec.shape));
    if (!t) {
        std::string why = spec.name == "lm_head.weight"
                              ? "; the config does not tie the head to the embedding (tie_word_embeddings false)"
                              : "";
        throw FormatError(fmt::format("{}: tensor '{}' is missing (expected {}){}", ckpt.path(), spec.name, expected, why));
    }
    if (t->shape != spec.shape)
        throw ShapeError(fmt::format("{}: tensor '{}' has shape {}, expected {} (config: {} layers, D {}, F {}, "
                                     "H {}, G {}, d {}, V {})",
                                     ckpt.path(), spec.name, shape_text(t->shape), expected, c.num_hidden_layers,
                                     c.hidden_size, c.intermediate_size, c.num_attention_heads, c.num_key_value_heads,
                                     c.head_dim, c.vocab_size));
    if (!is_weight_dtype(t->dtype))
        throw FormatError(fmt::format("{}: tensor '{}' {} is {}; a weight must be F32, BF16 or F16", ckpt.path(),
                                      spec.name, shape_text(t->shape), safetensors_dtype_name(t->dtype)));
    return t;
}

// A checkpoint tensor that is not in the spec list: ignored (the RoPE table old checkpoints hold,
// a tied head's copy equal byte for byte to the embedding) or an error naming it.
void check_extra(const Checkpoint &ckpt, const SafetensorsTensor &t, const LlamaConfig &c, size_t expected) {
    if (ends_with(t.name, ".rotary_emb.inv_freq")) return;
    std::string name = printable_text(t.name);
    if (ends_with(t.name, ".bias"))
        throw FormatError(fmt::format("{}: tensor '{}' {} is a bias; this llama has none (attention_bias and "
                                      "mlp_bias false), and dropping it would change the outputs",
                                      ckpt.path(), name, shape_text(t.shape)));
    if (t.name == "lm_head.weight" && c.tie_word_embeddings) {
        // Some exports save the tied head as well: a copy of the embedding is the same model.
        const SafetensorsTensor &e = ckpt.at("model.embed_tokens.weight");
        if (t.dtype == e.dtype && t.shape == e.shape && t.bytes() == e.bytes() &&
            std::memcmp(t.data, e.data, t.bytes()) == 0)
            return;
        throw FormatError(fmt::format("{}: tensor 'lm_head.weight' {} {} is in the checkpoint and differs from "
                                      "'model.embed_tokens.weight' {} {}, but the config ties the head to the "
                                      "embedding (tie_word_embeddings true)",
                                      ckpt.path(), shape_text(t.shape), safetensors_dtype_name(t.dtype),
                                      shape_text(e.shape), safetensors_dtype_name(e.dtype)));
    }
    throw FormatError(fmt::format("{}: tensor '{}' {} is not one of the {} tensors this llama config reads",
                                  ckpt.path(), name, shape_text(t.shape), expected));
}

}  // namespace

int64_t LlamaTensorSpec::numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::vector<LlamaTensorSpec> llama_tensor_specs(const LlamaConfig &c) {
    validate_llama_config(c);
    using Kind = LlamaTensorSpec::Kind;
    const int64_t D = c.hidden_size, F = c.intermediate_size, V = c.vocab_size;
    const int64_t q = c.num_attention_heads * c.head_dim, kv = c.num_key_value_heads * c.head_dim;
    std::vector<LlamaTensorSpec> specs;
    specs.push_back({"model.embed_tokens.weight", {V, D}, "[V, D]", Kind::Embedding});
    for (int64_t i = 0; i < c.num_hidden_layers; ++i) {
        std::string layer = fmt::format("model.layers.{}.", i);
        specs.push_back({layer + "input_layernorm.weight", {D}, "[D]", Kind::Norm});
        specs.push_back({layer + "self_attn.q_proj.weight", {q, D}, "[H*d, D]", Kind::Linear});
        specs.push_back({layer + "self_attn.k_proj.weight", {kv, D}, "[G*d, D]", Kind::Linear});
        specs.push_back({layer + "self_attn.v_proj.weight", {kv, D}, "[G*d, D]", Kind::Linear});
        specs.push_back({layer + "self_attn.o_proj.weight", {D, q}, "[D, H*d]", Kind::Linear});
        specs.push_back({layer + "post_attention_layernorm.weight", {D}, "[D]", Kind::Norm});
        specs.push_back({layer + "mlp.gate_proj.weight", {F, D}, "[F, D]", Kind::Linear});
        specs.push_back({layer + "mlp.up_proj.weight", {F, D}, "[F, D]", Kind::Linear});
        specs.push_back({layer + "mlp.down_proj.weight", {D, F}, "[D, F]", Kind::Linear});
    }
    specs.push_back({"model.norm.weight", {D}, "[D]", Kind::Norm});
    if (!c.tie_word_embeddings) specs.push_back({"lm_head.weight", {V, D}, "[V, D]", Kind::Linear});
    return specs;
}

int64_t llama_parameter_count(const LlamaConfig &c) {
    int64_t total = 0;
    for (const LlamaTensorSpec &s : llama_tensor_specs(c)) {
        int64_t n = 1;
        for (int64_t d : s.shape)
            if (__builtin_mul_overflow(n, d, &n)) throw ConfigError(fmt::format("{}: more than 2^63 elements", s.name));
        if (__builtin_add_overflow(total, n, &total)) throw ConfigError("the model has more than 2^63 parameters");
    }
    return total;
}

LlamaWeights bind_llama_weights(const Checkpoint &checkpoint, const LlamaConfig &c) {
    std::vector<LlamaTensorSpec> specs = llama_tensor_specs(c);
    LlamaWeights w;
    w.config = c;
    size_t at = 0;
    auto next = [&] { return check(checkpoint, specs.at(at++), c); };
    w.embed_tokens = next();
    for (int64_t i = 0; i < c.num_hidden_layers; ++i) {
        LlamaLayerWeights l;
        l.input_layernorm = next();
        l.q_proj = next();
        l.k_proj = next();
        l.v_proj = next();
        l.o_proj = next();
        l.post_attention_layernorm = next();
        l.gate_proj = next();
        l.up_proj = next();
        l.down_proj = next();
        w.layers.push_back(l);
    }
    w.norm = next();
    w.lm_head = c.tie_word_embeddings ? w.embed_tokens : next();

    std::set<std::string_view> expected;
    for (const LlamaTensorSpec &s : specs) expected.insert(s.name);
    for (const SafetensorsFile &f : checkpoint.files())
        for (const SafetensorsTensor &t : f.tensors())
            if (!expected.count(t.name)) check_extra(checkpoint, t, c, specs.size());
    return w;
}

std::vector<const SafetensorsTensor *> LlamaWeights::tensors() const {
    std::vector<const SafetensorsTensor *> out{embed_tokens};
    for (const LlamaLayerWeights &l : layers) {
        out.insert(out.end(), {l.input_layernorm, l.q_proj, l.k_proj, l.v_proj, l.o_proj, l.post_attention_layernorm,
                               l.gate_proj, l.up_proj, l.down_proj});
    }
    out.push_back(norm);
    if (!tied()) out.push_back(lm_head);
    return out;
}

}  // namespace halogen
