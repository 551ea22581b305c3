// The reference llama model (llama_reference.h): weights copied into Arrays once, each step's
// inputs filled from the cache and the RoPE tables, the graph interpreted, the k/v rows appended.
#include "models/llama/llama_reference.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "frontend/errors.h"
#include "frontend/bfloat16.h"
#include "models/llama/llama_rope.h"

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

}  // namespace

LlamaReference::LlamaReference(const LlamaWeights &w, const LlamaReferenceOptions &options)
    : config_(w.config),
      step_(build_llama_step(w.config, options.keep_bf16 ? DType::BFloat16 : DType::Float32)),
      context_(options.context > 0 ? options.context : w.config.max_position_embeddings) {
    const std::vector<const SafetensorsTensor *> tensors = w.tensors();   // the step graph's weight inputs' order
    for (size_t k = 0; k < tensors.size(); ++k) {
        const std::string &name = step_.weight_inputs.at(k);
        if (tensors[k]->name != name) {   // a LlamaWeights not made by bind_llama_weights for this config
            throw FormatError(fmt::format("llama reference: weight input '{}' is bound to tensor '{}'", name, tensors[k]->name));
        }
        inputs_[name] = weight_array(*tensors[k], options.keep_bf16);
    }
    const RopeTables tables = rope_tables(rope_inverse_frequencies(config_), 0, context_);
    cos_ = tables.cos;
    sin_ = tables.sin;
    const std::vector<int64_t> cache{config_.num_key_value_heads, context_, config_.head_dim};
    k_cache_.assign(config_.num_hidden_layers, Array(DType::Float32, cache));
    v_cache_.assign(config_.num_hidden_layers, Array(DType::Float32, cache));
}

std::vector<float> LlamaReference::step(const std::vector<int32_t> &ids) {
    const auto T = static_cast<int64_t>(ids.size()), p0 = position_, S = p0 + T;
    if (T == 0 || S > context_) {
        throw ShapeError(fmt::format("llama reference: {} ids at position {} do not fit the context of {}", T, p0, context_));
    }
    const int64_t half = config_.head_dim / 2, G = config_.num_key_value_heads, d = config_.head_dim;

    Array id_array(DType::Int32, {T});
    std::copy(ids.begin(), ids.end(), id_array.data<int32_t>());
    inputs_["ids"] = std::move(id_array);
    for (auto [name, table] : {std::pair{"rope_cos", &cos_}, std::pair{"rope_sin", &sin_}}) {
        Array a(DType::Float32, {T, half});
        std::copy_n(table->begin() + p0 * half, T * half, a.data<float>());
        inputs_[name] = std::move(a);
    }
    for (int64_t i = 0; i < config_.num_hidden_layers; ++i) {
        inputs_[llama_k_cache_name(i)] = k_cache_[i];   // positions from p0 on are not read
        inputs_[llama_v_cache_name(i)] = v_cache_[i];
    }

    const std::vector<Array> out = interpret(step_.graph, inputs_, {{"T", T}, {"S", S}, {"C", context_}});
    for (int64_t i = 0; i < config_.num_hidden_layers; ++i) {
        // The step's rows [T, G, d] go to positions p0 ... p0+T-1 of each head's [C, d].
        for (auto [rows, cache] : {std::pair{&out[1 + 2 * i], &k_cache_[i]}, std::pair{&out[2 + 2 * i], &v_cache_[i]}}) {
            for (int64_t t = 0; t < T; ++t) {
                for (int64_t g = 0; g < G; ++g) {
                    std::copy_n(rows->data<float>() + (t * G + g) * d, d, cache->data<float>() + (g * context_ + p0 + t) * d);
                }
            }
        }
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

void LlamaReference::rewind(int64_t position) {
    if (position < 0 || position > position_) {
        throw ShapeError(fmt::format("llama reference: cannot rewind to position {} from {}", position, position_));
    }
    position_ = position;
}

}  // namespace halogen
