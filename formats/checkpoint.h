// A model checkpoint as Hugging Face saves one: a directory holding either one model.safetensors,
// or model.safetensors.index.json ({"metadata": {...}, "weight_map": {tensor: shard file}}) and the
// shard files it names; or the path of a single .safetensors file. Every file is opened (mapped,
// headers validated) at once, and the index is checked against the shards both ways: each listed
// tensor is in its shard, each shard's tensor is listed there. Problems are FormatErrors naming the
// file and the tensor or shard.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "formats/safetensors.h"

namespace halogen {

class Checkpoint {
public:
    // As transformers looks for them: model.safetensors first, then the index.
    static Checkpoint open(const std::string &path);

    const std::string &path() const { return path_; }
    bool sharded() const { return sharded_; }
    const std::vector<SafetensorsFile> &files() const { return files_; }   // the shards, by file name

    const SafetensorsTensor *find(std::string_view name) const;    // null when absent
    const SafetensorsTensor &at(std::string_view name) const;      // FormatError naming tensor and checkpoint
    std::vector<std::string> names() const;                        // sorted
    size_t size() const { return where_.size(); }

    // The index's "metadata" (e.g. total_size), each value as its JSON text unless it is a string;
    // empty for a single file (whose own metadata is files()[0].metadata()).
    const std::map<std::string, std::string> &index_metadata() const { return index_metadata_; }

private:
    std::string path_;
    bool sharded_ = false;
    std::vector<SafetensorsFile> files_;
    std::unordered_map<std::string, std::pair<size_t, size_t>> where_;   // name -> (file, tensor) positions
    std::map<std::string, std::string> index_metadata_;
};

}  // namespace halogen
