// A GGUF file's tokenizer (gguf_tokenizer.h).
#include "tokenizer/gguf_tokenizer.h"

#include <fmt/format.h>

#include "formats/printable_text.h"
#include "frontend/errors.h"

namespace halogen {

namespace {

// An id key's value as an int32 id inside the vocabulary, or -1 when the key is absent.
int32_t id_key(const GgufFile &f, const std::string &key, size_t vocab) {
    if (!f.has(key)) return -1;
    const uint32_t id = f.get_u32(key);
    if (id >= vocab) {
        throw FormatError(fmt::format("{}: key '{}': id {} is outside the vocabulary of {} tokens", f.path(), key, id, vocab));
    }
    return int32_t(id);
}

}  // namespace

TokenizerFiles read_gguf_tokenizer(const GgufFile &f) {
    const std::string model(f.get_string("tokenizer.ggml.model"));
    if (model != "gpt2") {
        throw FormatError(fmt::format("{}: tokenizer.ggml.model '{}' is not supported (only 'gpt2': byte-level BPE)",
                                      f.path(), printable_text(model, 40)));
    }
    TokenizerFiles out;
    BpeVocab &v = out.vocab;
    v.source = f.path();
    for (std::string_view t : f.get_string_array("tokenizer.ggml.tokens")) v.tokens.emplace_back(t);
    if (f.has("tokenizer.ggml.merges")) {
        for (std::string_view m : f.get_string_array("tokenizer.ggml.merges")) {
            const size_t space = m.find(' ');
            if (space == std::string_view::npos || space == 0 || space + 1 == m.size()) {
                throw FormatError(fmt::format("{}: key 'tokenizer.ggml.merges': '{}' is not two tokens split by a space",
                                              f.path(), printable_text(std::string(m), 40)));
            }
            v.merges.emplace_back(std::string(m.substr(0, space)), std::string(m.substr(space + 1)));
        }
    }
    if (f.has("tokenizer.ggml.token_type")) {
        const std::vector<int32_t> types = f.get_array<int32_t>("tokenizer.ggml.token_type");
        if (types.size() != v.tokens.size()) {
            throw FormatError(fmt::format("{}: key 'tokenizer.ggml.token_type' has {} entries for {} tokens", f.path(),
                                          types.size(), v.tokens.size()));
        }
        v.added = added_tokens_from_token_types(v.tokens, types);
    }
    // No tokenizer.ggml.pre: GPT-2's pre-tokenizer, as llama.cpp's loader falls back to for gpt2 models.
    const std::string pre = f.has("tokenizer.ggml.pre") ? std::string(f.get_string("tokenizer.ggml.pre")) : "gpt-2";
    try {
        v.pre_tokenizer = pre_tokenizer_for_gguf(pre);
    } catch (const ConfigError &e) {
        throw FormatError(fmt::format("{}: {}", f.path(), e.what()));
    }
    // llama3's tokenizer.json sets ignore_merges (a pre-token already in the vocabulary is one
    // token); GGUF has no key for it, and llama.cpp's loader implies it from the llama-bpe name.
    v.ignore_merges = pre == "llama-bpe" || pre == "llama3";
    v.bos_id = id_key(f, "tokenizer.ggml.bos_token_id", v.tokens.size());
    v.eos_id = id_key(f, "tokenizer.ggml.eos_token_id", v.tokens.size());
    v.eot_id = id_key(f, "tokenizer.ggml.eot_token_id", v.tokens.size());
    const bool add_bos = f.has("tokenizer.ggml.add_bos_token") ? f.get_bool("tokenizer.ggml.add_bos_token") : true;
    out.add_bos_token = add_bos;
    if (add_bos && v.bos_id >= 0) v.prefix_ids = {v.bos_id};
    if (v.bos_id >= 0) out.bos_token = v.tokens[size_t(v.bos_id)];
    if (v.eos_id >= 0) out.eos_token = v.tokens[size_t(v.eos_id)];
    if (f.has("tokenizer.chat_template")) out.chat_template = std::string(f.get_string("tokenizer.chat_template"));
    return out;
}

namespace {

bool same_steps(const PreTokenizerSpec &a, const PreTokenizerSpec &b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].kind != b[i].kind || a[i].pattern != b[i].pattern || a[i].add_prefix_space != b[i].add_prefix_space ||
            a[i].use_regex != b[i].use_regex || a[i].individual_digits != b[i].individual_digits) {
            return false;
        }
    }
    return true;
}

std::string gguf_pre_name(const PreTokenizerSpec &spec) {
    if (same_steps(spec, llama3_pre_tokenizer())) return "llama-bpe";
    if (same_steps(spec, gpt2_pre_tokenizer())) return "gpt-2";
    if (same_steps(spec, smollm_pre_tokenizer())) return "smollm";
    throw ConfigError("the tokenizer's pre-tokenizer has no GGUF name (llama-bpe, gpt-2 or smollm)");
}

}  // namespace

void write_gguf_tokenizer(const TokenizerFiles &files, GgufWriter &out) {
    const BpeVocab &v = files.vocab;
    std::vector<std::string> tokens = v.tokens;
    std::vector<int32_t> types(tokens.size(), int32_t(TokenType::Normal));
    for (const AddedToken &a : v.added) {
        if (a.id < 0) continue;
        if (size_t(a.id) >= tokens.size()) {
            tokens.resize(size_t(a.id) + 1);
            types.resize(size_t(a.id) + 1, int32_t(TokenType::Unused));
        }
        tokens[size_t(a.id)] = a.content;
        types[size_t(a.id)] = int32_t(a.special ? TokenType::Control : TokenType::UserDefined);
    }
    std::vector<std::string> merges;
    merges.reserve(v.merges.size());
    for (const auto &[a, b] : v.merges) merges.push_back(a + " " + b);
    out.set_string("tokenizer.ggml.model", "gpt2");
    out.set_string("tokenizer.ggml.pre", gguf_pre_name(v.pre_tokenizer));
    out.set_string_array("tokenizer.ggml.tokens", tokens);
    out.set_array("tokenizer.ggml.token_type", types);
    out.set_string_array("tokenizer.ggml.merges", merges);
    if (v.bos_id >= 0) out.set_u32("tokenizer.ggml.bos_token_id", uint32_t(v.bos_id));
    if (v.eos_id >= 0) out.set_u32("tokenizer.ggml.eos_token_id", uint32_t(v.eos_id));
    if (v.eot_id >= 0) out.set_u32("tokenizer.ggml.eot_token_id", uint32_t(v.eot_id));
    out.set_bool("tokenizer.ggml.add_bos_token", !v.prefix_ids.empty() && v.prefix_ids.front() == v.bos_id);
    if (!files.chat_template.empty()) out.set_string("tokenizer.chat_template", files.chat_template);
}

}  // namespace halogen
