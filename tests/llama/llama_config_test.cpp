// Tests of llama configs (models/llama/llama_config.h): published config.json files read into the
// presets' values, transformers' defaults and older/newer spellings, the writer's round trip, and
// one test per kind of unsupported or malformed config, each a ConfigError naming the key.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <functional>
#include <string>

#include "models/llama/llama_config.h"

namespace {

using halogen::ConfigError;
using halogen::LlamaConfig;
using halogen::parse_llama_config;

// Llama-3.2-1B's config.json as published (transformers 4.45).
const char *kLlama32OneB = R"({
  "architectures": ["LlamaForCausalLM"],
  "attention_bias": false,
  "attention_dropout": 0.0,
  "bos_token_id": 128000,
  "eos_token_id": 128001,
  "head_dim": 64,
  "hidden_act": "silu",
  "hidden_size": 2048,
  "initializer_range": 0.02,
  "intermediate_size": 8192,
  "max_position_embeddings": 131072,
  "mlp_bias": false,
  "model_type": "llama",
  "num_attention_heads": 32,
  "num_hidden_layers": 16,
  "num_key_value_heads": 8,
  "pretraining_tp": 1,
  "rms_norm_eps": 1e-05,
  "rope_scaling": {
    "factor": 32.0,
    "high_freq_factor": 4.0,
    "low_freq_factor": 1.0,
    "original_max_position_embeddings": 8192,
    "rope_type": "llama3"
  },
  "rope_theta": 500000.0,
  "tie_word_embeddings": true,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.45.0.dev0",
  "use_cache": true,
  "vocab_size": 128256
})";

// SmolLM2-135M's config.json: no head_dim, an integer rope_theta, and nanotron's extra keys.
const char *kSmolLM2 = R"({
  "architectures": ["LlamaForCausalLM"],
  "attention_bias": false,
  "attention_dropout": 0.0,
  "bos_token_id": 0,
  "eos_token_id": 0,
  "hidden_act": "silu",
  "hidden_size": 576,
  "initializer_range": 0.041666666666666664,
  "intermediate_size": 1536,
  "is_llama_config": true,
  "max_position_embeddings": 8192,
  "model_type": "llama",
  "num_attention_heads": 9,
  "num_hidden_layers": 30,
  "num_key_value_heads": 3,
  "pretraining_tp": 1,
  "rms_norm_eps": 1e-05,
  "rope_interleaved": false,
  "rope_scaling": null,
  "rope_theta": 100000,
  "tie_word_embeddings": true,
  "torch_dtype": "bfloat16",
  "transformers_version": "4.40.1",
  "use_cache": true,
  "vocab_size": 49152
})";

// A minimal config: the five required sizes and model_type.
std::string minimal(const std::string &extra = "") {
    return R"({"model_type": "llama", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
               "num_attention_heads": 4, "vocab_size": 100)" + extra + "}";
}

// minimal() with one of its required keys given another value (JSON text).
std::string minimal_with(const std::string &key, const std::string &value) {
    std::string text = minimal();
    size_t at = text.find("\"" + key + "\": ");
    size_t begin = at + key.size() + 4, end = text.find_first_of(",}", begin);
    return text.substr(0, begin) + value + text.substr(end);
}

void expect_error(const std::string &text, const std::string &needle) {
    try {
        parse_llama_config(text, "config.json");
        ADD_FAILURE() << "no error; expected one containing: " << needle;
    } catch (const ConfigError &e) {
        std::string msg = e.what();
        EXPECT_EQ(msg.rfind("config.json: ", 0), 0u) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg << "\nexpected to contain: " << needle;
    }
}

TEST(LlamaConfig, PublishedConfigsGiveThePresets) {
    LlamaConfig one_b = parse_llama_config(kLlama32OneB);
    EXPECT_EQ(one_b, halogen::llama_preset("llama-3.2-1b"));
    EXPECT_EQ(one_b.kv_group_size(), 4);
    ASSERT_TRUE(one_b.rope_scaling);
    EXPECT_EQ(one_b.rope_scaling->factor, 32.0);
    EXPECT_EQ(one_b.rms_norm_eps, 1e-5);
    LlamaConfig smol = parse_llama_config(kSmolLM2);
    EXPECT_EQ(smol, halogen::llama_preset("smollm2-135m"));
    EXPECT_EQ(smol.head_dim, 64);   // 576 / 9
    EXPECT_FALSE(smol.rope_scaling);
}

TEST(LlamaConfig, TransformersDefaults) {
    LlamaConfig c = parse_llama_config(minimal());
    EXPECT_EQ(c.num_key_value_heads, 4);
    EXPECT_EQ(c.head_dim, 16);
    EXPECT_EQ(c.max_position_embeddings, 2048);
    EXPECT_EQ(c.rms_norm_eps, 1e-6);
    EXPECT_EQ(c.rope_theta, 10000.0);
    EXPECT_FALSE(c.rope_scaling);
    EXPECT_FALSE(c.tie_word_embeddings);
    EXPECT_EQ(c.bos_token_id, 1);
    EXPECT_EQ(c.eos_token_ids, (std::vector<int64_t>{2}));
    EXPECT_EQ(c.torch_dtype, "");
    // null is "absent" for the optional sizes, "none" for the token ids.
    c = parse_llama_config(minimal(R"(, "num_key_value_heads": null, "head_dim": null, "bos_token_id": null,
                                      "eos_token_id": null, "rope_scaling": null)"));
    EXPECT_EQ(c.num_key_value_heads, 4);
    EXPECT_EQ(c.head_dim, 16);
    EXPECT_FALSE(c.bos_token_id);
    EXPECT_TRUE(c.eos_token_ids.empty());
}

TEST(LlamaConfig, OtherSpellings) {
    // eos as a list (instruct models), rope_scaling.type (older configs), rope_type "default".
    LlamaConfig c = parse_llama_config(minimal(R"(, "eos_token_id": [128001, 128008, 128009],
        "rope_scaling": {"type": "llama3", "factor": 8, "low_freq_factor": 1, "high_freq_factor": 4,
                         "original_max_position_embeddings": 8192})"));
    EXPECT_EQ(c.eos_token_ids, (std::vector<int64_t>{128001, 128008, 128009}));
    ASSERT_TRUE(c.rope_scaling);
    EXPECT_EQ(*c.rope_scaling, (halogen::Llama3RopeScaling{8.0, 1.0, 4.0, 8192}));
    c = parse_llama_config(minimal(R"(, "rope_scaling": {"rope_type": "default"})"));
    EXPECT_FALSE(c.rope_scaling);
    // Both type keys, agreeing.
    c = parse_llama_config(minimal(R"(, "rope_scaling": {"rope_type": "llama3", "type": "llama3", "factor": 8.0,
        "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192})"));
    EXPECT_TRUE(c.rope_scaling);
    // transformers 5: rope_parameters holds rope_theta and the scaling; "dtype" for torch_dtype.
    c = parse_llama_config(minimal(R"(, "dtype": "bfloat16", "rope_parameters": {"rope_type": "llama3",
        "rope_theta": 500000.0, "factor": 32.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192})"));
    EXPECT_EQ(c.rope_theta, 500000.0);
    EXPECT_EQ(c.rope_scaling->factor, 32.0);
    EXPECT_EQ(c.torch_dtype, "bfloat16");
    c = parse_llama_config(minimal(R"(, "rope_parameters": {"rope_type": "default", "rope_theta": 1000.0})"));
    EXPECT_EQ(c.rope_theta, 1000.0);
    EXPECT_FALSE(c.rope_scaling);
}

TEST(LlamaConfig, UnsupportedArchitectures) {
    expect_error(R"({"model_type": "mistral", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
                    "num_attention_heads": 4, "vocab_size": 100})",
                 "model_type: 'mistral' is not supported");
    expect_error(R"({"hidden_size": 64})", "model_type: missing");
    expect_error(minimal(R"(, "architectures": ["LlamaForSequenceClassification"])"), "architectures: ");
    expect_error(minimal(R"(, "architectures": "LlamaForCausalLM")"), "architectures: ");
    expect_error(minimal(R"(, "attention_bias": true)"), "attention_bias: true is not supported");
    expect_error(minimal(R"(, "mlp_bias": true)"), "mlp_bias: true is not supported");
    expect_error(minimal(R"(, "hidden_act": "gelu")"), "hidden_act: 'gelu' is not supported");
    expect_error(minimal(R"(, "rope_interleaved": true)"), "rope_interleaved: true is not supported");
    expect_error(minimal(R"(, "partial_rotary_factor": 0.5)"), "partial_rotary_factor: only 1");
    expect_error(minimal(R"(, "quantization_config": {"quant_method": "gptq"})"), "quantization_config: quantized");
    expect_error(minimal(R"(, "torch_dtype": "int8")"), "torch_dtype: 'int8' is not float32, bfloat16 or float16");
}

TEST(LlamaConfig, UnsupportedRope) {
    for (const char *type : {"linear", "dynamic", "yarn", "longrope", "ntk"})
        expect_error(minimal(std::string(R"(, "rope_scaling": {"rope_type": ")") + type + R"(", "factor": 2.0})"),
                     std::string("rope_scaling.rope_type: '") + type + "' is not supported");
    expect_error(minimal(R"(, "rope_scaling": {"type": "yarn", "factor": 2.0})"), "rope_scaling.type: 'yarn'");
    expect_error(minimal(R"(, "rope_scaling": {"rope_type": "llama3", "type": "linear", "factor": 8.0})"),
                 "rope_scaling: rope_type 'llama3' and type 'linear' disagree");
    expect_error(minimal(R"(, "rope_scaling": {"rope_type": "llama3", "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                               "original_max_position_embeddings": 8192})"),
                 "rope_scaling.factor: missing");
    expect_error(minimal(R"(, "rope_scaling": {"rope_type": "llama3", "factor": "8", "low_freq_factor": 1.0,
                                               "high_freq_factor": 4.0, "original_max_position_embeddings": 8192})"),
                 "rope_scaling.factor: \"8\" is not a number");
    expect_error(minimal(R"(, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 4.0,
                                               "high_freq_factor": 4.0, "original_max_position_embeddings": 8192})"),
                 "rope_scaling.high_freq_factor: 4 is not above low_freq_factor 4");
    expect_error(minimal(R"(, "rope_scaling": {"rope_type": "llama3", "factor": 0.5, "low_freq_factor": 1.0,
                                               "high_freq_factor": 4.0, "original_max_position_embeddings": 8192})"),
                 "rope_scaling.factor: 0.5 is not a number >= 1");
    expect_error(minimal(R"(, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                               "high_freq_factor": 4.0, "original_max_position_embeddings": 8192.5})"),
                 "rope_scaling.original_max_position_embeddings: 8192.5 is not an integer");
    expect_error(minimal(R"(, "rope_scaling": "llama3")"), "rope_scaling: \"llama3\" is not an object or null");
    expect_error(minimal(R"(, "rope_scaling": null, "rope_parameters": {"rope_type": "linear", "factor": 2.0})"),
                 "rope_parameters.rope_type: 'linear' is not supported");
    expect_error(minimal(R"(, "rope_scaling": {"rope_type": "default"}, "rope_parameters": {"rope_type": "default"})"),
                 "rope_parameters: given together with rope_scaling");
    expect_error(minimal(R"(, "rope_theta": 10000.0, "rope_parameters": {"rope_type": "default", "rope_theta": 500000.0})"),
                 "rope_parameters.rope_theta: 500000 disagrees with rope_theta 10000");
    expect_error(minimal(R"(, "rope_theta": 1)"), "rope_theta: 1 is not a number above 1");
}

// An explicit head_dim whose heads do not add up to hidden_size, as transformers' LlamaConfig
// allows (q_proj [H*d, D], o_proj [D, H*d]): taken as given, and written back as read.
TEST(LlamaConfig, HeadDimTimesHeadsNeedNotBeHiddenSize) {
    const LlamaConfig wide = parse_llama_config(minimal(R"(, "head_dim": 32)"));
    EXPECT_EQ(wide.head_dim, 32);
    EXPECT_EQ(wide.hidden_size, 64);
    EXPECT_EQ(wide.num_attention_heads, 4);   // 4 x 32 = 128 query features from 64
    EXPECT_EQ(parse_llama_config(halogen::format_llama_config(wide)), wide);
    EXPECT_EQ(parse_llama_config(minimal(R"(, "head_dim": 8)")).head_dim, 8);   // 4 x 8 = 32, narrower
}

TEST(LlamaConfig, InconsistentSizes) {
    expect_error(minimal(R"(, "num_key_value_heads": 3)"), "num_key_value_heads: 4 attention heads are not a multiple of 3 KV heads");
    expect_error(R"({"model_type": "llama", "hidden_size": 60, "intermediate_size": 128, "num_hidden_layers": 2,
                    "num_attention_heads": 8, "vocab_size": 100})",
                 "hidden_size: 60 is not a multiple of 8 heads (and no head_dim is given)");
    expect_error(R"({"model_type": "llama", "hidden_size": 60, "intermediate_size": 128, "num_hidden_layers": 2,
                    "num_attention_heads": 4, "vocab_size": 100})",
                 "head_dim: 15 is not a positive even number");
    expect_error(minimal(R"(, "head_dim": 4611686018427387904)"), "head_dim: 4611686018427387904 x 4 heads");
    expect_error(minimal_with("vocab_size", R"(0)"), "vocab_size: 0 is not positive");
    expect_error(minimal_with("num_hidden_layers", R"(-1)"), "num_hidden_layers: -1 is not positive");
    expect_error(minimal(R"(, "rms_norm_eps": 0)"), "rms_norm_eps: 0 is not a positive number");
    expect_error(minimal(R"(, "max_position_embeddings": 0)"), "max_position_embeddings: 0 is not positive");
}

TEST(LlamaConfig, WrongJsonTypes) {
    expect_error(minimal_with("hidden_size", R"("64")"), "hidden_size: \"64\" is not an integer");
    expect_error(minimal_with("hidden_size", R"(64.0)"), "hidden_size: 64.0 is not an integer");
    expect_error(minimal_with("hidden_size", R"(18446744073709551615)"), "hidden_size: does not fit int64");
    expect_error(minimal(R"(, "tie_word_embeddings": "true")"), "tie_word_embeddings: \"true\" is not true or false");
    expect_error(minimal(R"(, "rms_norm_eps": "1e-5")"), "rms_norm_eps: \"1e-5\" is not a number");
    expect_error(minimal(R"(, "hidden_act": 1)"), "hidden_act: 1 is not a string");
    expect_error(minimal(R"(, "eos_token_id": "</s>")"), "eos_token_id: \"</s>\" is not a token id");
    expect_error(minimal(R"(, "eos_token_id": [1, -2])"), "eos_token_id: -2 is not a token id");
    expect_error(minimal(R"(, "bos_token_id": 1.5)"), "bos_token_id: 1.5 is not an integer");
    expect_error(minimal_with("vocab_size", R"([100])"), "vocab_size: [100] is not an integer");
}

TEST(LlamaConfig, NotAConfig) {
    expect_error("", "not valid JSON");
    expect_error("{", "not valid JSON");
    expect_error(std::string("{}\0", 3), "not valid JSON (NUL byte at 2)");
    expect_error("[]", "the config is a JSON array, not an object");
    expect_error(minimal(R"(, "hidden_size": 64)"), "hidden_size: appears twice");
    expect_error(R"({"model_type": "llama"})", "hidden_size: missing");
}

TEST(LlamaConfig, WriterRoundTripsEveryPreset) {
    for (const std::string &name : halogen::llama_preset_names()) {
        LlamaConfig p = halogen::llama_preset(name);
        std::string text = halogen::format_llama_config(p);
        EXPECT_EQ(parse_llama_config(text), p) << name << "\n" << text;
        EXPECT_NE(text.find("\n  \"model_type\": \"llama\",\n"), std::string::npos) << text;
        EXPECT_NE(text.find("\"architectures\": [\n    \"LlamaForCausalLM\"\n  ]"), std::string::npos) << text;
    }
    // Other values that must survive: several eos ids, none at all, no bos, no dtype.
    LlamaConfig c = halogen::llama_preset("tiny");
    c.eos_token_ids = {5, 6};
    c.bos_token_id.reset();
    c.torch_dtype = "";
    c.rope_scaling.reset();
    c.rms_norm_eps = 1e-6;
    EXPECT_EQ(parse_llama_config(halogen::format_llama_config(c)), c);
    c.eos_token_ids.clear();
    EXPECT_EQ(parse_llama_config(halogen::format_llama_config(c)), c);
}

TEST(LlamaConfig, WriterIsTransformersLayout) {
    // Keys sorted, two-space indent, floats as Python prints them.
    std::string text = halogen::format_llama_config(halogen::llama_preset("llama-3.2-1b"));
    EXPECT_EQ(text.substr(0, 2), "{\n");
    EXPECT_NE(text.find("  \"rms_norm_eps\": 1e-05,\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  \"rope_scaling\": {\n    \"factor\": 32.0,\n    \"high_freq_factor\": 4.0,\n"
                        "    \"low_freq_factor\": 1.0,\n    \"original_max_position_embeddings\": 8192,\n"
                        "    \"rope_type\": \"llama3\"\n  },\n  \"rope_theta\": 500000.0,\n"),
              std::string::npos) << text;
    EXPECT_EQ(text.substr(text.size() - 3), "\n}\n");
    // A config that fails its checks is not written.
    LlamaConfig bad = halogen::llama_preset("tiny");
    bad.num_key_value_heads = 4;
    EXPECT_THROW(halogen::format_llama_config(bad), ConfigError);
}

TEST(LlamaConfig, FilesAndDirectories) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "halogen_cfg_XXXXXX").string();
    std::filesystem::path dir = mkdtemp(tmpl.data());
    halogen::write_llama_config((dir / "config.json").string(), halogen::llama_preset("tiny"));
    EXPECT_EQ(halogen::read_llama_config(dir.string()), halogen::llama_preset("tiny"));
    EXPECT_EQ(halogen::read_llama_config((dir / "config.json").string()), halogen::llama_preset("tiny"));
    try {
        halogen::read_llama_config((dir / "absent.json").string());
        ADD_FAILURE() << "no error";
    } catch (const ConfigError &e) {
        EXPECT_NE(std::string(e.what()).find("absent.json: cannot read"), std::string::npos) << e.what();
    }
    std::filesystem::remove_all(dir);
}

TEST(LlamaConfig, Presets) {
    EXPECT_EQ(halogen::llama_preset_names(), (std::vector<std::string>{"llama-3.2-1b", "smollm2-135m", "tiny"}));
    LlamaConfig tiny = halogen::llama_preset("tiny");
    EXPECT_EQ(tiny.kv_group_size(), 3);
    EXPECT_EQ(tiny.head_dim, 16);
    EXPECT_EQ(tiny.vocab_size, 512);
    EXPECT_THROW(halogen::llama_preset("llama-4"), ConfigError);
}

}  // namespace
