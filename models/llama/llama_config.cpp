// config.json <-> LlamaConfig, its checks, and the presets (see llama_config.h).
#include "models/llama/llama_config.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "formats/printable_text.h"
#include "formats/strict_json.h"

namespace halogen {

namespace {

using json = nlohmann::json;

constexpr uint64_t kMaxConfigBytes = 16u << 20;   // config.json files are a few kB

[[noreturn]] void fail(const std::string &name, const std::string &key, const std::string &problem) {
    throw ConfigError(fmt::format("{}: {}: {}", name, key, problem));
}

// config.json's JSON, read strictly (no NUL byte, no key twice in one object: strict_json.h).
json parse_json(const std::string &text, const std::string &name) {
    try {
        return parse_strict_json(text);
    } catch (const StrictJsonError &e) {
        if (e.kind == StrictJsonError::Kind::RepeatedKey) fail(name, printable_text(e.key), "appears twice");
        throw ConfigError(fmt::format("{}: {}", name, e.what()));
    }
}

// Typed access to an object's keys, each error naming the key by its path (e.g. rope_scaling.factor).
class Fields {
public:
    Fields(const json &object, std::string name, std::string prefix = "")
        : j_(object), name_(std::move(name)), prefix_(std::move(prefix)) {}

    // Present and not null.
    bool has(const char *key) const { return j_.contains(key) && !j_.at(key).is_null(); }
    const json &at(const char *key) const { return j_.at(key); }
    std::string path(const char *key) const { return prefix_ + key; }
    [[noreturn]] void fail_at(const char *key, const std::string &problem) const { fail(name_, path(key), problem); }

    int64_t integer(const char *key) const {
        if (!has(key)) fail_at(key, "missing");
        const json &v = j_.at(key);
        if (!v.is_number_integer()) fail_at(key, fmt::format("{} is not an integer", describe(v)));
        if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX)) fail_at(key, "does not fit int64");
        return v.get<int64_t>();
    }
    int64_t positive(const char *key) const {
        int64_t v = integer(key);
        if (v <= 0) fail_at(key, fmt::format("{} is not positive", v));
        return v;
    }
    int64_t positive_or(const char *key, int64_t fallback) const { return has(key) ? positive(key) : fallback; }

    double number(const char *key) const {
        if (!has(key)) fail_at(key, "missing");
        const json &v = j_.at(key);
        if (!v.is_number()) fail_at(key, fmt::format("{} is not a number", describe(v)));
        return v.get<double>();
    }
    double number_or(const char *key, double fallback) const { return has(key) ? number(key) : fallback; }

    bool boolean_or(const char *key, bool fallback) const {
        if (!has(key)) return fallback;
        const json &v = j_.at(key);
        if (!v.is_boolean()) fail_at(key, fmt::format("{} is not true or false", describe(v)));
        return v.get<bool>();
    }

    std::optional<std::string> string(const char *key) const {
        if (!has(key)) return std::nullopt;
        const json &v = j_.at(key);
        if (!v.is_string()) fail_at(key, fmt::format("{} is not a string", describe(v)));
        return v.get<std::string>();
    }

    static std::string describe(const json &v) {
        std::string text = v.dump();
        if (text.size() > 40) text = text.substr(0, 40) + "...";
        return text;
    }

private:
    const json &j_;
    std::string name_, prefix_;
};

// rope_scaling (or transformers 5's rope_parameters): none, or llama3's four parameters.
std::optional<Llama3RopeScaling> parse_rope_scaling(const json &r, const std::string &name, const std::string &key) {
    if (r.is_null()) return std::nullopt;
    if (!r.is_object()) fail(name, key, fmt::format("{} is not an object or null", Fields::describe(r)));
    Fields f(r, name, key + ".");
    // The type's key was "type" before "rope_type"; transformers' two readers disagree on which
    // wins when both are given, so both must agree here.
    std::optional<std::string> rope_type = f.string("rope_type"), old_type = f.string("type");
    if (rope_type && old_type && *rope_type != *old_type)
        fail(name, key, fmt::format("rope_type '{}' and type '{}' disagree", *rope_type, *old_type));
    std::string type = rope_type ? *rope_type : old_type ? *old_type : "default";
    if (type == "default") return std::nullopt;
    if (type != "llama3")
        fail(name, key + (rope_type ? ".rope_type" : ".type"),
             fmt::format("'{}' is not supported (none, 'default' or 'llama3')", type));
    Llama3RopeScaling s;
    s.factor = f.number("factor");
    s.low_freq_factor = f.number("low_freq_factor");
    s.high_freq_factor = f.number("high_freq_factor");
    s.original_max_position_embeddings = f.positive("original_max_position_embeddings");
    return s;
}

std::vector<int64_t> parse_eos(const json &config, const std::string &name) {
    if (!config.contains("eos_token_id")) return {2};   // transformers' LlamaConfig default
    const json &v = config.at("eos_token_id");
    if (v.is_null()) return {};
    auto id = [&](const json &e) {
        if (!e.is_number_integer() || e.get<int64_t>() < 0 ||
            (e.is_number_unsigned() && e.get<uint64_t>() > uint64_t(INT64_MAX)))
            fail(name, "eos_token_id", fmt::format("{} is not a token id", Fields::describe(e)));
        return e.get<int64_t>();
    };
    if (!v.is_array()) return {id(v)};
    std::vector<int64_t> ids;
    for (const json &e : v) ids.push_back(id(e));
    return ids;
}

void reject_unsupported(const Fields &f) {
    std::optional<std::string> model_type = f.string("model_type");
    if (!model_type) f.fail_at("model_type", "missing (a llama config says \"llama\")");
    if (*model_type != "llama") f.fail_at("model_type", fmt::format("'{}' is not supported (only 'llama')", *model_type));
    if (f.has("architectures")) {
        const json &a = f.at("architectures");
        if (!a.is_array() || a.size() != 1 || !a[0].is_string() || a[0].get<std::string>() != "LlamaForCausalLM")
            f.fail_at("architectures", fmt::format("{} is not supported (only [\"LlamaForCausalLM\"])", Fields::describe(a)));
    }
    std::string act = f.string("hidden_act").value_or("silu");
    if (act != "silu") f.fail_at("hidden_act", fmt::format("'{}' is not supported (only 'silu')", act));
    if (f.boolean_or("attention_bias", false)) f.fail_at("attention_bias", "true is not supported (no biases)");
    if (f.boolean_or("mlp_bias", false)) f.fail_at("mlp_bias", "true is not supported (no biases)");
    // SmolLM2's configs carry this nanotron key; true would mean adjacent-pair rotation.
    if (f.boolean_or("rope_interleaved", false)) f.fail_at("rope_interleaved", "true is not supported (rotate_half RoPE)");
    if (f.has("partial_rotary_factor") && f.number("partial_rotary_factor") != 1.0)
        f.fail_at("partial_rotary_factor", "only 1 (RoPE on the whole head) is supported");
    if (f.has("quantization_config")) f.fail_at("quantization_config", "quantized checkpoints are not supported");
}

void check(bool ok, const std::string &name, const std::string &key, const std::string &problem) {
    if (!ok) fail(name, key, problem);
}

}  // namespace

bool LlamaConfig::operator==(const LlamaConfig &o) const {
    return hidden_size == o.hidden_size && intermediate_size == o.intermediate_size &&
           num_hidden_layers == o.num_hidden_layers && num_attention_heads == o.num_attention_heads &&
           num_key_value_heads == o.num_key_value_heads && head_dim == o.head_dim && vocab_size == o.vocab_size &&
           max_position_embeddings == o.max_position_embeddings && rms_norm_eps == o.rms_norm_eps &&
           rope_theta == o.rope_theta && rope_scaling == o.rope_scaling &&
           tie_word_embeddings == o.tie_word_embeddings && bos_token_id == o.bos_token_id &&
           eos_token_ids == o.eos_token_ids && torch_dtype == o.torch_dtype;
}

void validate_llama_config(const LlamaConfig &c, const std::string &name) {
    check(c.hidden_size > 0, name, "hidden_size", fmt::format("{} is not positive", c.hidden_size));
    check(c.intermediate_size > 0, name, "intermediate_size", fmt::format("{} is not positive", c.intermediate_size));
    check(c.num_hidden_layers > 0, name, "num_hidden_layers", fmt::format("{} is not positive", c.num_hidden_layers));
    check(c.num_attention_heads > 0, name, "num_attention_heads", fmt::format("{} is not positive", c.num_attention_heads));
    check(c.num_key_value_heads > 0, name, "num_key_value_heads", fmt::format("{} is not positive", c.num_key_value_heads));
    check(c.vocab_size > 0, name, "vocab_size", fmt::format("{} is not positive", c.vocab_size));
    check(c.max_position_embeddings > 0, name, "max_position_embeddings",
          fmt::format("{} is not positive", c.max_position_embeddings));
    check(c.num_attention_heads % c.num_key_value_heads == 0, name, "num_key_value_heads",
          fmt::format("{} attention heads are not a multiple of {} KV heads", c.num_attention_heads,
                      c.num_key_value_heads));
    check(c.head_dim > 0 && c.head_dim % 2 == 0, name, "head_dim",
          fmt::format("{} is not a positive even number (RoPE rotates pairs)", c.head_dim));
    // head_dim x heads need not be hidden_size (q_proj [H*d, D], o_proj [D, H*d], as transformers
    // has it), but the projections' stacked weight [(H + 2G) * d, D] must count its elements in int64.
    int64_t heads = 0, rows = 0, elements = 0;
    check(!__builtin_add_overflow(c.num_attention_heads, c.num_key_value_heads, &heads) &&
              !__builtin_add_overflow(heads, c.num_key_value_heads, &heads) &&
              !__builtin_mul_overflow(heads, c.head_dim, &rows) && !__builtin_mul_overflow(rows, c.hidden_size, &elements),
          name, "head_dim",
          fmt::format("{} x {} heads (and {} KV heads) x hidden_size {} is more elements than int64 counts", c.head_dim,
                      c.num_attention_heads, c.num_key_value_heads, c.hidden_size));
    check(std::isfinite(c.rms_norm_eps) && c.rms_norm_eps > 0, name, "rms_norm_eps",
          fmt::format("{} is not a positive number", c.rms_norm_eps));
    check(std::isfinite(c.rope_theta) && c.rope_theta > 1, name, "rope_theta",
          fmt::format("{} is not a number above 1", c.rope_theta));
    if (c.rope_scaling) {
        const Llama3RopeScaling &s = *c.rope_scaling;
        check(std::isfinite(s.factor) && s.factor >= 1, name, "rope_scaling.factor",
              fmt::format("{} is not a number >= 1", s.factor));
        check(std::isfinite(s.low_freq_factor) && s.low_freq_factor > 0, name, "rope_scaling.low_freq_factor",
              fmt::format("{} is not a positive number", s.low_freq_factor));
        check(std::isfinite(s.high_freq_factor) && s.high_freq_factor > s.low_freq_factor, name,
              "rope_scaling.high_freq_factor",
              fmt::format("{} is not above low_freq_factor {}", s.high_freq_factor, s.low_freq_factor));
        check(s.original_max_position_embeddings > 0, name, "rope_scaling.original_max_position_embeddings",
              fmt::format("{} is not positive", s.original_max_position_embeddings));
    }
    check(!c.bos_token_id || *c.bos_token_id >= 0, name, "bos_token_id", "is negative");
    for (int64_t id : c.eos_token_ids) check(id >= 0, name, "eos_token_id", fmt::format("{} is negative", id));
    check(c.torch_dtype.empty() || c.torch_dtype == "float32" || c.torch_dtype == "bfloat16" ||
              c.torch_dtype == "float16",
          name, "torch_dtype", fmt::format("'{}' is not float32, bfloat16 or float16", c.torch_dtype));
}

LlamaConfig parse_llama_config(const std::string &json_text, const std::string &name) {
    json j = parse_json(json_text, name);
    if (!j.is_object()) throw ConfigError(fmt::format("{}: the config is a JSON {}, not an object", name, j.type_name()));
    Fields f(j, name);
    reject_unsupported(f);

    LlamaConfig c;
    c.hidden_size = f.positive("hidden_size");
    c.intermediate_size = f.positive("intermediate_size");
    c.num_hidden_layers = f.positive("num_hidden_layers");
    c.num_attention_heads = f.positive("num_attention_heads");
    c.num_key_value_heads = f.positive_or("num_key_value_heads", c.num_attention_heads);
    c.vocab_size = f.positive("vocab_size");
    if (f.has("head_dim")) {
        c.head_dim = f.positive("head_dim");
    } else {
        check(c.hidden_size % c.num_attention_heads == 0, name, "hidden_size",
              fmt::format("{} is not a multiple of {} heads (and no head_dim is given)", c.hidden_size,
                          c.num_attention_heads));
        c.head_dim = c.hidden_size / c.num_attention_heads;
    }
    c.max_position_embeddings = f.positive_or("max_position_embeddings", 2048);
    c.rms_norm_eps = f.number_or("rms_norm_eps", 1e-6);
    c.rope_theta = f.number_or("rope_theta", 10000.0);
    if (j.contains("rope_scaling")) c.rope_scaling = parse_rope_scaling(j.at("rope_scaling"), name, "rope_scaling");
    if (f.has("rope_parameters")) {
        // transformers 5 keeps rope_theta and the scaling together under rope_parameters.
        if (f.has("rope_scaling")) f.fail_at("rope_parameters", "given together with rope_scaling");
        const json &p = j.at("rope_parameters");
        c.rope_scaling = parse_rope_scaling(p, name, "rope_parameters");
        Fields rp(p, name, "rope_parameters.");
        if (rp.has("rope_theta")) {
            double theta = rp.number("rope_theta");
            if (f.has("rope_theta") && theta != c.rope_theta)
                rp.fail_at("rope_theta", fmt::format("{} disagrees with rope_theta {}", theta, c.rope_theta));
            c.rope_theta = theta;
        }
    }
    c.tie_word_embeddings = f.boolean_or("tie_word_embeddings", false);
    if (j.contains("bos_token_id")) {
        if (j.at("bos_token_id").is_null())
            c.bos_token_id.reset();
        else
            c.bos_token_id = f.integer("bos_token_id");
    }
    c.eos_token_ids = parse_eos(j, name);
    // transformers 5 writes "dtype" where 4.x wrote "torch_dtype".
    c.torch_dtype = f.string("torch_dtype").value_or(f.string("dtype").value_or(""));
    validate_llama_config(c, name);
    return c;
}

LlamaConfig read_llama_config(const std::string &path) {
    namespace fs = std::filesystem;
    std::string file = fs::is_directory(path) ? (fs::path(path) / "config.json").string() : path;
    std::error_code ec;
    uint64_t size = fs::file_size(file, ec);
    if (ec) throw ConfigError(fmt::format("{}: cannot read: {}", file, ec.message()));
    if (size > kMaxConfigBytes)
        throw ConfigError(fmt::format("{}: {} bytes, more than a config.json may hold ({})", file, size, kMaxConfigBytes));
    std::ifstream in(file, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) throw ConfigError(fmt::format("{}: cannot read", file));
    return parse_llama_config(text, file);
}

std::string format_llama_config(const LlamaConfig &c) {
    validate_llama_config(c);
    json j;   // std::map underneath: keys sorted, as transformers' to_json_string(sort_keys=True)
    j["architectures"] = {"LlamaForCausalLM"};
    j["attention_bias"] = false;
    j["attention_dropout"] = 0.0;
    j["bos_token_id"] = c.bos_token_id ? json(*c.bos_token_id) : json(nullptr);
    j["eos_token_id"] = c.eos_token_ids.empty() ? json(nullptr)
                        : c.eos_token_ids.size() == 1 ? json(c.eos_token_ids[0])
                                                      : json(c.eos_token_ids);
    j["head_dim"] = c.head_dim;
    j["hidden_act"] = "silu";
    j["hidden_size"] = c.hidden_size;
    j["intermediate_size"] = c.intermediate_size;
    j["max_position_embeddings"] = c.max_position_embeddings;
    j["mlp_bias"] = false;
    j["model_type"] = "llama";
    j["num_attention_heads"] = c.num_attention_heads;
    j["num_hidden_layers"] = c.num_hidden_layers;
    j["num_key_value_heads"] = c.num_key_value_heads;
    j["rms_norm_eps"] = c.rms_norm_eps;
    if (c.rope_scaling) {
        j["rope_scaling"] = {{"factor", c.rope_scaling->factor},
                             {"high_freq_factor", c.rope_scaling->high_freq_factor},
                             {"low_freq_factor", c.rope_scaling->low_freq_factor},
                             {"original_max_position_embeddings", c.rope_scaling->original_max_position_embeddings},
                             {"rope_type", "llama3"}};
    } else {
        j["rope_scaling"] = nullptr;
    }
    j["rope_theta"] = c.rope_theta;
    j["tie_word_embeddings"] = c.tie_word_embeddings;
    if (!c.torch_dtype.empty()) j["torch_dtype"] = c.torch_dtype;
    j["vocab_size"] = c.vocab_size;
    return j.dump(2) + "\n";
}

void write_llama_config(const std::string &path, const LlamaConfig &c) {
    std::string text = format_llama_config(c);
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw ConfigError(fmt::format("{}: cannot write", path));
}

LlamaConfig llama_preset(const std::string &name) {
    LlamaConfig c;
    if (name == "llama-3.2-1b") {
        c.hidden_size = 2048;
        c.intermediate_size = 8192;
        c.num_hidden_layers = 16;
        c.num_attention_heads = 32;
        c.num_key_value_heads = 8;
        c.head_dim = 64;
        c.vocab_size = 128256;
        c.max_position_embeddings = 131072;
        c.rms_norm_eps = 1e-5;
        c.rope_theta = 500000.0;
        c.rope_scaling = Llama3RopeScaling{32.0, 1.0, 4.0, 8192};
        c.tie_word_embeddings = true;
        c.bos_token_id = 128000;
        c.eos_token_ids = {128001};
        c.torch_dtype = "bfloat16";
    } else if (name == "smollm2-135m") {
        c.hidden_size = 576;
        c.intermediate_size = 1536;
        c.num_hidden_layers = 30;
        c.num_attention_heads = 9;
        c.num_key_value_heads = 3;
        c.head_dim = 64;
        c.vocab_size = 49152;
        c.max_position_embeddings = 8192;
        c.rms_norm_eps = 1e-5;
        c.rope_theta = 100000.0;
        c.tie_word_embeddings = true;
        c.bos_token_id = 0;
        c.eos_token_ids = {0};
        c.torch_dtype = "bfloat16";
    } else if (name == "tiny") {
        // 6 query heads over 2 KV heads (3 per group) of 16 dims: hidden 96. With theta 1000 and
        // d = 16 the wavelengths 2*pi*1000^(i/8) are 6.3, 14.9, 35.3, 83.8, 198.7, 471, 1117, 2650;
        // llama3 scaling with L = 256, low 1, high 4 keeps i = 0-2 (below L/4 = 64), smooths
        // i = 3-4 (64 to 256) and divides i = 5-7 (above 256), each at least 20% from a boundary.
        c.hidden_size = 96;
        c.intermediate_size = 256;
        c.num_hidden_layers = 2;
        c.num_attention_heads = 6;
        c.num_key_value_heads = 2;
        c.head_dim = 16;
        c.vocab_size = 512;   // the 256 bytes, 251 merges and 5 special tokens of a random tokenizer
        c.max_position_embeddings = 1024;
        c.rms_norm_eps = 1e-5;
        c.rope_theta = 1000.0;
        c.rope_scaling = Llama3RopeScaling{4.0, 1.0, 4.0, 256};
        c.tie_word_embeddings = false;   // so that lm_head.weight is exercised too
        c.bos_token_id = 1;
        c.eos_token_ids = {2};
        c.torch_dtype = "float32";
    } else {
        throw ConfigError(fmt::format("no llama preset '{}' (presets: llama-3.2-1b, smollm2-135m, tiny)", name));
    }
    validate_llama_config(c, name);
    return c;
}

std::vector<std::string> llama_preset_names() { return {"llama-3.2-1b", "smollm2-135m", "tiny"}; }

}  // namespace halogen
