// --model's files (llama_model_files.h).
#include "cli/llama_model_files.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "frontend/errors.h"

namespace halogen {

namespace {

namespace fs = std::filesystem;

constexpr const char *kTakes =
    "--model takes a model directory (config.json and safetensors weights) or a .safetensors file with "
    "config.json beside it";

[[noreturn]] void not_a_model(const std::string &model, const std::string &what) {
    throw Error(fmt::format("{}: {}; {}", model, what, kTakes));
}

// A safetensors file begins with its header's length (8 bytes, little-endian) and the header's '{'.
bool looks_like_safetensors(const unsigned char *head, std::size_t n, uint64_t file_size) {
    if (n < 9 || head[8] != '{') return false;
    uint64_t length = 0;
    for (int k = 7; k >= 0; --k) length = (length << 8) | head[k];
    return length >= 2 && length <= file_size - 8;
}

}  // namespace

LlamaModelFiles llama_model_files(const std::string &model) {
    std::error_code ec;
    const fs::file_status status = fs::status(model, ec);
    if (!fs::exists(status)) {
        not_a_model(model, fmt::format("cannot read: {}", ec ? ec.message() : "No such file or directory"));
    }
    if (fs::is_directory(status)) {
        const std::string config = (fs::path(model) / "config.json").string();
        if (!fs::exists(config)) not_a_model(model, "a directory without config.json");
        return {config, model};
    }
    std::ifstream in(model, std::ios::binary);
    unsigned char head[9] = {};
    in.read(reinterpret_cast<char *>(head), sizeof head);
    const auto n = std::size_t(in.gcount());
    if (!in && !in.eof()) not_a_model(model, "cannot read");
    if (n >= 4 && std::memcmp(head, "GGUF", 4) == 0) not_a_model(model, "a GGUF file, which halogen does not read yet");
    const uint64_t size = fs::file_size(model, ec);
    if (!ec && looks_like_safetensors(head, n, size)) {
        const fs::path config = fs::path(model).parent_path() / "config.json";
        if (!fs::exists(config)) not_a_model(model, fmt::format("a safetensors file with no config.json beside it"));
        return {config.string(), model};
    }
    std::size_t first = 0;
    while (first < n && std::strchr(" \t\r\n", head[first])) ++first;
    if (first < n && head[first] == '{') not_a_model(model, "a JSON file, not a model (name the directory that holds it)");
    not_a_model(model, "neither a model directory nor a safetensors file");
}

}  // namespace halogen
