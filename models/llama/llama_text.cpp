// A llama model's text side (llama_text.h).
#include "models/llama/llama_text.h"

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "formats/gguf.h"
#include "formats/strict_json.h"
#include "frontend/errors.h"
#include "jinja/chat_template.h"
#include "tokenizer/gguf_tokenizer.h"

namespace halogen {

namespace {

bool is_directory(const std::string &path) {
    struct stat st {};
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool starts_with_gguf_magic(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    char magic[4] = {};
    return f.read(magic, 4) && std::string(magic, 4) == "GGUF";
}

// eos_token_id of a JSON file (a number or a list of numbers), or nothing when the file or the key
// is absent.
std::vector<int32_t> eos_ids_of(const std::string &path, int32_t vocab) {
    std::ifstream f(path);
    if (!f) return {};
    std::stringstream text;
    text << f.rdbuf();
    nlohmann::json j;
    try {
        j = parse_strict_json(text.str());
    } catch (const StrictJsonError &e) {
        throw FormatError(fmt::format("{}: not valid JSON ({})", path, e.what()));
    }
    if (!j.is_object() || !j.contains("eos_token_id") || j.at("eos_token_id").is_null()) return {};
    const nlohmann::json &v = j.at("eos_token_id");
    std::vector<nlohmann::json> items = v.is_array() ? std::vector<nlohmann::json>(v.begin(), v.end())
                                                     : std::vector<nlohmann::json>{v};
    std::vector<int32_t> out;
    for (const nlohmann::json &e : items) {
        if (!e.is_number_integer() || e.get<int64_t>() < 0 || e.get<int64_t>() >= vocab) {
            throw FormatError(fmt::format("{}: eos_token_id: {} is not a token id of the vocabulary of {}", path,
                                          e.dump(), vocab));
        }
        out.push_back(int32_t(e.get<int64_t>()));
    }
    return out;
}

void add_once(std::vector<int32_t> &ids, int32_t id) {
    if (id >= 0 && std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
}

}  // namespace

LlamaText open_llama_text(const std::string &model, const TokenizerBuilder &build) {
    LlamaText t;
    if (!is_directory(model) && starts_with_gguf_magic(model)) {
        const GgufFile gguf = GgufFile::open(model);
        if (!gguf.has("tokenizer.ggml.model")) throw FormatError(fmt::format("{}: the GGUF file holds no tokenizer", model));
        t.files = read_gguf_tokenizer(gguf);
    } else {
        const std::string dir = is_directory(model) ? model : model.substr(0, model.find_last_of('/') + 1);
        const std::string folder = dir.empty() ? "." : dir;
        struct stat st {};
        if (stat((folder + "/tokenizer.json").c_str(), &st) != 0) {
            throw FormatError(fmt::format("{}: no tokenizer.json: the model has no tokenizer (give --ids instead)", folder));
        }
        if (build) {
            BuiltTokenizer built = build(folder);
            t.files = std::move(built.files);
            t.tokenizer = std::move(built.tokenizer);
        } else {
            t.files = read_tokenizer_files(folder);
            t.tokenizer = std::make_unique<Tokenizer>(t.files.vocab);
        }
        const int32_t vocab = t.tokenizer->vocab_size();
        t.end_ids = eos_ids_of(folder + "/generation_config.json", vocab);
        if (t.end_ids.empty()) t.end_ids = eos_ids_of(folder + "/config.json", vocab);
    }
    if (!t.tokenizer) t.tokenizer = std::make_unique<Tokenizer>(t.files.vocab);
    add_once(t.end_ids, t.tokenizer->eos_id());
    add_once(t.end_ids, t.tokenizer->eot_id());
    return t;
}

std::string chat_prompt_text(const LlamaText &text, const std::vector<ChatTurn> &conversation,
                             bool add_generation_prompt) {
    if (text.files.chat_template.empty()) {
        throw FormatError("the model has no chat template (tokenizer_config.json's chat_template, or the GGUF "
                          "file's tokenizer.chat_template)");
    }
    std::vector<jinja::ChatMessage> messages;
    for (const ChatTurn &t : conversation) messages.push_back({t.role, t.content});
    jinja::ChatOptions options;
    options.add_generation_prompt = add_generation_prompt;
    options.bos_token = text.files.bos_token;
    options.eos_token = text.files.eos_token;
    return jinja::render_chat(text.files.chat_template, messages, options);
}

std::vector<int32_t> chat_prompt_ids(const LlamaText &text, const std::vector<ChatTurn> &conversation,
                                     bool add_generation_prompt) {
    return text.tokenizer->encode(chat_prompt_text(text, conversation, add_generation_prompt),
                                  /*add_special_tokens=*/false);
}

std::vector<int32_t> chat_continuation_ids(const LlamaText &text, const std::vector<ChatTurn> &conversation,
                                           const std::vector<int32_t> &seen) {
    const std::string prompt = chat_prompt_text(text, conversation, true);
    const std::string seen_text = text.tokenizer->decode(seen);
    if (seen.empty() || prompt.compare(0, seen_text.size(), seen_text) != 0) {
        return text.tokenizer->encode(prompt, /*add_special_tokens=*/false);
    }
    std::vector<int32_t> ids = seen;
    const std::vector<int32_t> rest =
        text.tokenizer->encode(std::string_view(prompt).substr(seen_text.size()), /*add_special_tokens=*/false);
    ids.insert(ids.end(), rest.begin(), rest.end());
    return ids;
}

}  // namespace halogen
