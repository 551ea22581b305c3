// Checkpoints: one safetensors file, or an index and its shards (see checkpoint.h).
#include "formats/checkpoint.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "formats/printable_text.h"
#include "formats/strict_json.h"

namespace halogen {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr const char *kSingleFile = "model.safetensors";
constexpr const char *kIndexFile = "model.safetensors.index.json";
constexpr uint64_t kMaxIndexBytes = 100'000'000;

[[noreturn]] void fail(const std::string &file, const std::string &problem) {
    throw FormatError(file + ": " + problem);
}

// The index's JSON, read strictly (no NUL byte, no key twice in one object: strict_json.h).
json parse_index(const std::string &path) {
    std::error_code ec;
    uint64_t size = fs::file_size(path, ec);
    if (ec) fail(path, fmt::format("cannot read: {}", ec.message()));
    if (size > kMaxIndexBytes) fail(path, fmt::format("{} bytes, more than an index may hold ({})", size, kMaxIndexBytes));
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) fail(path, "cannot read");

    try {
        return parse_strict_json(text);
    } catch (const StrictJsonError &e) {
        fail(path, e.what());
    }
}

// A shard's name must be a plain file name in the checkpoint's directory.
void check_shard_name(const std::string &index, const std::string &tensor, const std::string &shard) {
    if (shard.empty() || shard == "." || shard == ".." || shard.find('/') != std::string::npos ||
        shard.find('\\') != std::string::npos || shard.find('\0') != std::string::npos)
        fail(index, fmt::format("weight_map: tensor '{}' names shard '{}', not a file name in the directory",
                                printable_text(tensor), printable_text(shard)));
}

}  // namespace

Checkpoint Checkpoint::open(const std::string &path) {
    Checkpoint c;
    c.path_ = path;
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
        c.files_.push_back(SafetensorsFile::open(path));
    } else if (!fs::is_directory(path, ec)) {
        fail(path, "no such file or directory");
    } else if (fs::exists(fs::path(path) / kSingleFile, ec)) {
        c.files_.push_back(SafetensorsFile::open((fs::path(path) / kSingleFile).string()));
    } else if (fs::exists(fs::path(path) / kIndexFile, ec)) {
        c.sharded_ = true;
        std::string index = (fs::path(path) / kIndexFile).string();
        json j = parse_index(index);
        if (!j.is_object()) fail(index, fmt::format("the index is a JSON {}, not an object", j.type_name()));
        if (j.contains("metadata") && !j["metadata"].is_null()) {
            if (!j["metadata"].is_object()) fail(index, "metadata is not an object");
            for (const auto &[k, v] : j["metadata"].items())
                c.index_metadata_[k] = v.is_string() ? v.get<std::string>() : v.dump();
        }
        if (!j.contains("weight_map")) fail(index, "no 'weight_map'");
        const json &map = j["weight_map"];
        if (!map.is_object()) fail(index, fmt::format("weight_map is a JSON {}, not an object", map.type_name()));

        // The shards, each opened once, in file-name order; the tensors each should hold.
        std::map<std::string, std::vector<std::string>> listed;   // shard -> tensors
        for (const auto &[tensor, shard] : map.items()) {
            if (!shard.is_string())
                fail(index, fmt::format("weight_map: tensor '{}' maps to a JSON {}, not a file name",
                                        printable_text(tensor), shard.type_name()));
            check_shard_name(index, tensor, shard.get<std::string>());
            listed[shard.get<std::string>()].push_back(tensor);
        }
        for (const auto &[shard, tensors] : listed) {
            fs::path file = fs::path(path) / shard;
            if (!fs::exists(file, ec))
                fail(index, fmt::format("shard '{}' (listed for {} tensor(s), e.g. '{}') does not exist",
                                        printable_text(shard), tensors.size(), printable_text(tensors.front())));
            c.files_.push_back(SafetensorsFile::open(file.string()));
            const SafetensorsFile &f = c.files_.back();
            for (const auto &t : tensors)
                if (!f.find(t))
                    fail(index, fmt::format("tensor '{}' is listed in shard '{}', which does not hold it",
                                            printable_text(t), printable_text(shard)));
            for (const auto &t : f.tensors()) {
                auto it = map.find(t.name);
                if (it == map.end())
                    fail(index, fmt::format("shard '{}' holds tensor '{}', which the index does not list",
                                            printable_text(shard), printable_text(t.name)));
                if (it->get<std::string>() != shard)
                    fail(index, fmt::format("shard '{}' holds tensor '{}', which the index lists in shard '{}'",
                                            printable_text(shard), printable_text(t.name),
                                            printable_text(it->get<std::string>())));
            }
        }
    } else {
        fail(path, fmt::format("neither {} nor {} is in the directory", kSingleFile, kIndexFile));
    }
    for (size_t i = 0; i < c.files_.size(); ++i)
        for (size_t j = 0; j < c.files_[i].tensors().size(); ++j)
            c.where_.emplace(c.files_[i].tensors()[j].name, std::make_pair(i, j));
    return c;
}

const SafetensorsTensor *Checkpoint::find(std::string_view name) const {
    auto it = where_.find(std::string(name));
    return it == where_.end() ? nullptr : &files_[it->second.first].tensors()[it->second.second];
}

const SafetensorsTensor &Checkpoint::at(std::string_view name) const {
    if (const SafetensorsTensor *t = find(name)) return *t;
    fail(path_, fmt::format("no tensor '{}' in the checkpoint ({} tensors in {} file(s))", printable_text(name),
                            where_.size(), files_.size()));
}

std::vector<std::string> Checkpoint::names() const {
    std::vector<std::string> out;
    out.reserve(where_.size());
    for (const auto &[name, _] : where_) out.push_back(name);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace halogen
