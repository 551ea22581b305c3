// A llama model's configuration, read from and written as Hugging Face's config.json, plus the
// presets the project builds models from. Only what halogen's llama implements is accepted:
// model_type "llama" (LlamaForCausalLM), SiLU MLPs without biases, attention without biases, RoPE
// unscaled or with llama3 scaling, heads a multiple of KV heads. head_dim * heads may differ from
// hidden_size, as transformers allows (q_proj [heads * head_dim, hidden_size], o_proj back).
// Anything else is a ConfigError naming the key, e.g.
// "config.json: rope_scaling.rope_type: 'yarn' is not supported (none, 'default' or 'llama3')".
// Keys that are absent take transformers' LlamaConfig defaults; keys that do not change inference
// (initializer_range, use_cache, attention_dropout, transformers_version, ...) are ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/errors.h"

namespace halogen {

// rope_scaling of rope_type "llama3" (Llama 3.1 / 3.2). The frequencies it gives: llama_rope.h.
struct Llama3RopeScaling {
    double factor = 8.0;
    double low_freq_factor = 1.0;
    double high_freq_factor = 4.0;
    int64_t original_max_position_embeddings = 8192;

    bool operator==(const Llama3RopeScaling &o) const {
        return factor == o.factor && low_freq_factor == o.low_freq_factor && high_freq_factor == o.high_freq_factor &&
               original_max_position_embeddings == o.original_max_position_embeddings;
    }
};

struct LlamaConfig {
    int64_t hidden_size = 0;
    int64_t intermediate_size = 0;
    int64_t num_hidden_layers = 0;
    int64_t num_attention_heads = 0;
    int64_t num_key_value_heads = 0;      // config default: num_attention_heads
    int64_t head_dim = 0;                 // config default: hidden_size / num_attention_heads
    int64_t vocab_size = 0;
    int64_t max_position_embeddings = 2048;
    double rms_norm_eps = 1e-6;           // transformers' default; llama3 checkpoints say 1e-5
    double rope_theta = 10000.0;
    std::optional<Llama3RopeScaling> rope_scaling;   // none: plain RoPE
    bool tie_word_embeddings = false;     // true: lm_head is embed_tokens (no lm_head.weight)
    std::optional<int64_t> bos_token_id = 1;
    std::vector<int64_t> eos_token_ids = {2};        // config.json's eos_token_id: an int or a list
    std::string torch_dtype;              // "float32", "bfloat16", "float16", or "" when absent

    int64_t kv_group_size() const { return num_attention_heads / num_key_value_heads; }   // n_rep

    bool operator==(const LlamaConfig &o) const;
    bool operator!=(const LlamaConfig &o) const { return !(*this == o); }
};

// Parses config.json's text; `name` (the file) labels error messages.
LlamaConfig parse_llama_config(const std::string &json_text, const std::string &name = "config.json");
// Reads a config.json file, or the config.json of a directory (a checkpoint's).
LlamaConfig read_llama_config(const std::string &path);

// The consistency checks of parse_llama_config on a config made in code (sizes positive, heads a
// multiple of KV heads, head_dim even and the projections' element counts within int64, RoPE
// parameters in range).
void validate_llama_config(const LlamaConfig &c, const std::string &name = "config");

// config.json as transformers writes it (keys sorted, two-space indent), with the keys that fix
// the architecture spelled out: model_type, architectures, hidden_act, attention_bias, mlp_bias.
std::string format_llama_config(const LlamaConfig &c);
void write_llama_config(const std::string &path, const LlamaConfig &c);

// Presets: "llama-3.2-1b" and "smollm2-135m" (the published configs' values), and "tiny" (about
// 100 thousand parameters per layer, for tests: GQA with 3 query heads per KV head, and llama3
// scaling whose three frequency regimes each hold some of its 8 frequencies).
LlamaConfig llama_preset(const std::string &name);
std::vector<std::string> llama_preset_names();

}  // namespace halogen
