// The reference llama model (llama_reference.h): weights copied into Arrays once, each step's
// inputs filled from the cache and the RoPE tables, the graph interpreted, the k/v rows appended.
#include "frontend/llama/llama_reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "frontend/errors.h"
#include "frontend/formats/bfloat16.h"
#include "frontend/llama/llama_rope.h"

namespace halogen {

namespace {

// A checkpoint tensor as an Array: float32 (F32 copied, BF16/F16 widened), or bfloat16 bits.
Array weight_array(const SafetensorsTensor &t, bool keep_bf16) {
    const size_t n = static_cast<size_t>(t.numel());
    if (keep_bf16) {
        if (t.dtype != SafetensorsDType::BF16) {
            throw DTypeError(fmt::format("llama reference: keep_bf16 needs BF16 weights, '{}' is not", t.name));
        }
        Array a(DType::BFloat16, t.shape);
        std::memcpy(a.data<uint16_t>(), t.data, n * 2);
        return a;
    }
    Array a(DType::Float32, t.shape);
    switch (t.dtype) {
    case SafetensorsDType::F32: std::memcpy(a.data<float>(), t.data, n * 4); break;
    case SafetensorsDType::BF16: bfloat16_to_float(t.data, a.data<float>(), n); break;
    case SafetensorsDType::F16: float16_to_float(t.data, a.data<float>(), n); break;
    default: throw DTypeError(fmt::format("llama reference: tensor '{}' is not F32, BF16 or F16", t.name));
    }
    return a;
}

const SafetensorsTensor &tensor_named(const LlamaWeights &w, const std::string &name) {
    if (name == "model.embed_tokens.weight") return *w.embed_tokens;
    if (name == "model.norm.weight") return *w.norm;
    if (name == "lm_head.weight") return *w.lm_head;
    // model.layers.{i}.<rest>
    const size_t dot = name.find('.', 13);
    const auto i = static_cast<size_t>(std::stoll(name.substr(13, dot - 13)));
    const std::string rest = name.substr(dot + 1);
    const LlamaLayerWeights &l = w.layers.at(i);
    const std::pair<const char *, const SafetensorsTensor *> table[] = {
        {"input_layernorm.weight", l.input_layernorm},   {"self_attn.q_proj.weight", l.q_proj},
        {"self_attn.k_proj.weight", l.k_proj},           {"self_attn.v_proj.weight", l.v_proj},
        {"self_attn.o_proj.weight", l.o_proj},           {"post_attention_layernorm.weight", l.post_attention_layernorm},
        {"mlp.gate_proj.weight", l.gate_proj},           {"mlp.up_proj.weight", l.up_proj},
        {"mlp.down_proj.weight", l.down_proj}};
    for (const auto &[suffix, t] : table)
        if (rest == suffix) return *t;
    throw FormatError(fmt::format("llama reference: no tensor '{}' in the bound weights", name));
}

}  // namespace

int32_t argmax(const std::vector<float> &logits) {
    return static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

LlamaReference::LlamaReference(const LlamaWeights &w, const LlamaReferenceOptions &options)
    : config_(w.config),
      step_(build_llama_step(w.config, options.keep_bf16 ? DType::BFloat16 : DType::Float32)),
      context_(options.context > 0 ? options.context : w.config.max_position_embeddings) {
    for (const std::string &name : step_.weight_inputs) inputs_[name] = weight_array(tensor_named(w, name), options.keep_bf16);
    const RopeTables tables = rope_tables(rope_inverse_frequencies(config_), 0, context_);
    cos_ = tables.cos;
    sin_ = tables.sin;
    const size_t row = static_cast<size_t>(config_.num_key_value_heads * config_.head_dim);
    k_cache_.assign(config_.num_hidden_layers, std::vector<float>(context_ * row));
    v_cache_.assign(config_.num_hidden_layers, std::vector<float>(context_ * row));
}

std::vector<float> LlamaReference::step(const std::vector<int32_t> &ids) {
    const auto T = static_cast<int64_t>(ids.size()), p0 = position_, S = p0 + T;
    if (T == 0 || S > context_) {
        throw ShapeError(fmt::format("llama reference: {} ids at position {} do not fit the context of {}", T, p0, context_));
    }
    const int64_t half = config_.head_dim / 2, G = config_.num_key_value_heads, d = config_.head_dim;
    const size_t row = static_cast<size_t>(G * d);

    Array id_array(DType::Int32, {T});
    std::copy(ids.begin(), ids.end(), id_array.data<int32_t>());
    inputs_["ids"] = std::move(id_array);
    for (auto [name, table] : {std::pair{"rope_cos", &cos_}, std::pair{"rope_sin", &sin_}}) {
        Array a(DType::Float32, {T, half});
        std::copy_n(table->begin() + p0 * half, T * half, a.data<float>());
        inputs_[name] = std::move(a);
    }
    for (int64_t i = 0; i < config_.num_hidden_layers; ++i) {
        for (auto [name, cache] : {std::pair{llama_k_cache_name(i), &k_cache_[i]}, std::pair{llama_v_cache_name(i), &v_cache_[i]}}) {
            Array a(DType::Float32, {S, G, d});   // rows [p0, S) stay zero: placeholders
            std::copy_n(cache->begin(), p0 * row, a.data<float>());
            inputs_[name] = std::move(a);
        }
    }

    const std::vector<Array> out = interpret(step_.graph, inputs_, {{"T", T}, {"S", S}});
    for (int64_t i = 0; i < config_.num_hidden_layers; ++i) {
        std::copy_n(out[1 + 2 * i].data<float>(), T * row, k_cache_[i].begin() + p0 * row);
        std::copy_n(out[2 + 2 * i].data<float>(), T * row, v_cache_[i].begin() + p0 * row);
    }
    position_ = S;
    const Array &logits = out[0];
    return std::vector<float>(logits.data<float>(), logits.data<float>() + logits.size());
}

std::vector<float> LlamaReference::prefill(const std::vector<int32_t> &ids) {
    position_ = 0;
    return step(ids);
}

std::vector<float> LlamaReference::decode(int32_t id) { return step({id}); }

std::vector<int32_t> LlamaReference::greedy(const std::vector<int32_t> &ids, int64_t n) {
    std::vector<int32_t> picks;
    if (n <= 0) return picks;
    std::vector<float> logits = prefill(ids);
    for (int64_t k = 0; k < n; ++k) {
        picks.push_back(argmax(logits));
        if (k + 1 < n) logits = decode(picks.back());
    }
    return picks;
}

}  // namespace halogen
