// Reading a model directory's tokenizer files (tokenizer_files.h).
#include "tokenizer/tokenizer_files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "formats/printable_text.h"
#include "formats/strict_json.h"
#include "frontend/errors.h"
#include "tokenizer/hf_tokenizer_json.h"

namespace halogen {

namespace {

using json = nlohmann::json;

std::string token_name(const json &v, const std::string &where) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_object()) {
        const auto it = v.find("content");
        if (it != v.end() && it->is_string()) return it->get<std::string>();
    }
    throw FormatError(where + " must be a string or an object with a string \"content\"");
}

int32_t id_of_named(const BpeVocab &v, const std::string &name) {
    for (const AddedToken &t : v.added)
        if (t.content == name) return t.id;
    for (size_t i = 0; i < v.tokens.size(); ++i)
        if (v.tokens[i] == name) return static_cast<int32_t>(i);
    return -1;
}

}  // namespace

void apply_tokenizer_config(const std::string &text, const std::string &name, TokenizerFiles &files) {
    json cfg;
    try {
        cfg = parse_strict_json(text);
    } catch (const StrictJsonError &e) {
        throw FormatError(name + ": " + e.what());
    }
    if (!cfg.is_object()) throw FormatError(name + ": the top level must be an object");
    if (const auto it = cfg.find("chat_template"); it != cfg.end() && !it->is_null()) {
        if (it->is_string()) {
            files.chat_template = it->get<std::string>();
        } else if (it->is_array()) {
            bool found = false;
            for (const json &t : *it) {
                if (!t.is_object() || !t.contains("name") || !t["name"].is_string() || !t.contains("template") ||
                    !t["template"].is_string())
                    throw FormatError(name + ": chat_template: each entry must be {\"name\": string, \"template\": string}");
                if (t["name"] == "default") {
                    files.chat_template = t["template"].get<std::string>();
                    found = true;
                }
            }
            if (!found) throw FormatError(name + ": chat_template lists no template named 'default'");
        } else {
            throw FormatError(name + ": chat_template must be a string or a list of named templates");
        }
    }
    for (const char *key : {"bos_token", "eos_token"}) {
        const auto it = cfg.find(key);
        if (it == cfg.end() || it->is_null()) continue;
        const std::string token = token_name(*it, name + ": " + key);
        const int32_t id = id_of_named(files.vocab, token);
        if (id < 0) throw FormatError(name + ": " + key + " '" + printable_text(token, 60) + "' is not in the vocab");
        (std::string(key) == "bos_token" ? files.bos_token : files.eos_token) = token;
        (std::string(key) == "bos_token" ? files.vocab.bos_id : files.vocab.eos_id) = id;
    }
    // The end-of-turn token, by the names llama3 and SmolLM2 give it.
    for (const char *eot : {"<|eot_id|>", "<|im_end|>"})
        if (files.vocab.eot_id < 0) files.vocab.eot_id = id_of_named(files.vocab, eot);
    if (const auto it = cfg.find("add_bos_token"); it != cfg.end() && !it->is_null()) {
        if (!it->is_boolean()) throw FormatError(name + ": add_bos_token must be true or false");
        files.add_bos_token = it->get<bool>();
    }
}

TokenizerFiles read_tokenizer_files(const std::string &dir) {
    TokenizerFiles files;
    files.vocab = read_hf_tokenizer_json(dir + "/tokenizer.json");
    const std::string config = dir + "/tokenizer_config.json";
    struct stat st;
    if (::stat(config.c_str(), &st) != 0) return files;   // optional
    std::ifstream f(config, std::ios::binary);
    std::stringstream text;
    text << f.rdbuf();
    if (!f) throw FormatError(config + ": cannot read: " + std::strerror(errno));
    apply_tokenizer_config(text.str(), config, files);
    return files;
}

}  // namespace halogen
