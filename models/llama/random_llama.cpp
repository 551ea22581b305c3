// Random llama model directories (see random_llama.h).
#include "models/llama/random_llama.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>

#include "frontend/bfloat16.h"
#include "formats/safetensors_writer.h"
#include "tokenizer/hf_tokenizer_json.h"
#include "tokenizer/random_tokenizer.h"

namespace halogen {

namespace {

namespace fs = std::filesystem;

constexpr double kInitializerRange = 0.02;   // transformers' LlamaConfig.initializer_range
constexpr double kNormNoise = 0.05;

// splitmix64's finalizer: a bijection of 64-bit words that mixes every input bit into every output bit.
uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// One key per (seed, tensor name): FNV-1a of the name, mixed with the seed.
uint64_t tensor_key(uint64_t seed, const std::string &name) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (unsigned char ch : name) h = (h ^ ch) * 0x100000001B3ull;
    return mix(h ^ mix(seed + 0x9E3779B97F4A7C15ull));
}

size_t element_bytes(SafetensorsDType t) { return t == SafetensorsDType::BF16 ? 2 : 4; }

// Shards as transformers cuts them: in order, a new shard when the next tensor would take the
// current one over the limit.
std::vector<std::vector<size_t>> shard(const std::vector<LlamaTensorSpec> &specs, size_t elem, uint64_t limit) {
    std::vector<std::vector<size_t>> shards;
    uint64_t in_current = 0;
    for (size_t i = 0; i < specs.size(); ++i) {
        uint64_t bytes = uint64_t(specs[i].numel()) * elem;
        if (shards.empty() || (!shards.back().empty() && in_current + bytes > limit)) {
            shards.emplace_back();
            in_current = 0;
        }
        shards.back().push_back(i);
        in_current += bytes;
    }
    return shards;
}

// Removes the weight files of an earlier model in `dir`.
void remove_old_model(const fs::path &dir) {
    static const std::regex shard_name(R"(model-\d{5}-of-\d{5}\.safetensors)");
    std::error_code ec;
    std::vector<fs::path> old;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::string name = it->path().filename().string();
        if (name == "model.safetensors" || name == "model.safetensors.index.json" || std::regex_match(name, shard_name) ||
            name == "tokenizer.json" || name == "tokenizer_config.json" || name == "generation_config.json")
            old.push_back(it->path());
    }
    if (ec) throw FormatError(fmt::format("{}: cannot list the directory: {}", dir.string(), ec.message()));
    for (const fs::path &p : old)
        if (!fs::remove(p, ec) && ec)
            throw FormatError(fmt::format("{}: cannot remove the earlier model's file: {}", p.string(), ec.message()));
}

void write_index(const fs::path &path, uint64_t total, const std::map<std::string, std::string> &weight_map) {
    nlohmann::json j;
    j["metadata"] = {{"total_size", total}};
    j["weight_map"] = weight_map;
    std::ofstream out(path, std::ios::binary);
    out << j.dump(2) << "\n";
    out.close();
    if (!out) throw FormatError(fmt::format("{}: cannot write", path.string()));
}

}  // namespace

void random_llama_values(const LlamaTensorSpec &spec, uint64_t seed, int64_t first, int64_t count, float *out) {
    const uint64_t key = tensor_key(seed, spec.name);
    int64_t pair = -1;
    double radius = 0, angle = 0;
    for (int64_t j = 0; j < count; ++j) {
        const int64_t i = first + j;
        // Box-Muller on one 64-bit hash per pair of elements: u1 in (0, 1) from the upper half,
        // u2 in [0, 1) from the lower; the pair's elements are r cos and r sin of the angle.
        if (i / 2 != pair) {
            pair = i / 2;
            uint64_t h = mix(key ^ mix(uint64_t(pair)));
            double u1 = (double(h >> 32) + 0.5) * 0x1p-32, u2 = double(h & 0xFFFFFFFFu) * 0x1p-32;
            radius = std::sqrt(-2.0 * std::log(u1));
            angle = 2.0 * M_PI * u2;
        }
        double z = radius * (i % 2 ? std::sin(angle) : std::cos(angle));
        out[j] = spec.kind == LlamaTensorSpec::Kind::Norm ? float(1.0 + kNormNoise * z) : float(kInitializerRange * z);
    }
}

// The tokenizer's files and generation_config.json; c's bos and eos ids become its special tokens'.
void write_random_text(const std::string &dir, LlamaConfig &c, uint64_t seed) {
    write_random_tokenizer(dir, c.vocab_size, seed);
    const BpeVocab vocab = read_hf_tokenizer_json((fs::path(dir) / "tokenizer.json").string());
    const auto id_of = [&](const char *token) {
        for (const AddedToken &a : vocab.added) {
            if (a.content == token) return int64_t(a.id);
        }
        throw ConfigError(fmt::format("llama init: the random tokenizer has no {}", token));
    };
    c.bos_token_id = id_of("<|begin_of_text|>");
    c.eos_token_ids = {id_of("<|end_of_text|>")};
    nlohmann::json g = {{"bos_token_id", *c.bos_token_id},
                        {"eos_token_id", {id_of("<|end_of_text|>"), id_of("<|eot_id|>")}},
                        {"do_sample", false}};
    const std::string path = (fs::path(dir) / "generation_config.json").string();
    std::ofstream f(path);
    if (!(f << g.dump(2) << "\n")) throw FormatError(fmt::format("{}: cannot write", path));
}

RandomLlamaFiles write_random_llama(const LlamaConfig &config, const std::string &dir, SafetensorsDType dtype,
                                    uint64_t seed, const RandomLlamaOptions &options) {
    if (dtype != SafetensorsDType::F32 && dtype != SafetensorsDType::BF16)
        throw DTypeError(fmt::format("llama init: dtype {} is not supported (F32 or BF16)", safetensors_dtype_name(dtype)));
    if (options.max_shard_bytes == 0) throw ConfigError("llama init: the maximum shard size must be positive");
    LlamaConfig c = config;
    c.torch_dtype = dtype == SafetensorsDType::BF16 ? "bfloat16" : "float32";
    const std::vector<LlamaTensorSpec> specs = llama_tensor_specs(c);
    const size_t elem = element_bytes(dtype);

    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir)) throw FormatError(fmt::format("{}: cannot create the directory: {}", dir,
                                                                    ec ? ec.message() : "a file is in the way"));
    remove_old_model(dir);
    RandomLlamaFiles files;
    if (options.tokenizer && c.vocab_size >= kRandomTokenizerMinVocab) {
        write_random_text(dir, c, seed);
        files.tokenizer = true;
    }
    write_llama_config((fs::path(dir) / "config.json").string(), c);

    files.tensors = specs.size();
    for (const LlamaTensorSpec &s : specs) files.data_bytes += uint64_t(s.numel()) * elem;
    const std::vector<std::vector<size_t>> shards = shard(specs, elem, options.max_shard_bytes);
    files.sharded = shards.size() > 1;

    // One F32 scratch buffer for the BF16 conversion, shared by every fill (pieces come one at a time).
    auto scratch = std::make_shared<std::vector<float>>();
    uint64_t written = 0;
    std::map<std::string, std::string> weight_map;
    for (size_t k = 0; k < shards.size(); ++k) {
        std::string name = files.sharded ? fmt::format("model-{:05d}-of-{:05d}.safetensors", k + 1, shards.size())
                                         : "model.safetensors";
        std::vector<SafetensorsSource> sources;
        for (size_t i : shards[k]) {
            const LlamaTensorSpec &spec = specs[i];
            weight_map[spec.name] = name;
            auto fill = [&spec, &options, &written, &files, scratch, seed, dtype, elem](uint64_t at, void *dst, uint64_t n) {
                const int64_t first = int64_t(at / elem), count = int64_t(n / elem);
                if (dtype == SafetensorsDType::F32) {
                    random_llama_values(spec, seed, first, count, static_cast<float *>(dst));
                } else {
                    scratch->resize(size_t(count));
                    random_llama_values(spec, seed, first, count, scratch->data());
                    float_to_bfloat16(scratch->data(), dst, size_t(count));
                }
                written += n;
                if (options.progress) options.progress(written, files.data_bytes);
            };
            sources.push_back({spec.name, dtype, spec.shape, uint64_t(spec.numel()) * elem, fill});
        }
        write_safetensors_streamed((fs::path(dir) / name).string(), sources, {{"format", "pt"}});
        files.weight_files.push_back(name);
    }
    if (files.sharded) write_index(fs::path(dir) / "model.safetensors.index.json", files.data_bytes, weight_map);
    return files;
}

}  // namespace halogen
