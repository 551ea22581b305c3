// Tests of checkpoints (formats/checkpoint.h): one model.safetensors, an index with shards, a file
// path; lookups across shards; and every inconsistency between the index and the shards, each a
// FormatError naming the index (or the shard) and the tensor.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "formats/checkpoint.h"
#include "formats/safetensors_writer.h"

namespace {

using halogen::Checkpoint;
using halogen::FormatError;
using halogen::SafetensorsDType;
namespace fs = std::filesystem;

struct TempDir {
    fs::path path;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "halogen_ckpt_XXXXXX").string();
        path = mkdtemp(tmpl.data());
    }
    ~TempDir() { fs::remove_all(path); }
    std::string file(const std::string &name) const { return (path / name).string(); }
    std::string index() const { return file("model.safetensors.index.json"); }
};

void write_text(const std::string &path, const std::string &text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// A shard holding the named F32 tensors, each [2] with values {i, -i} for the tensor's position i.
void write_shard(const std::string &path, const std::vector<std::string> &names) {
    static std::vector<std::vector<float>> data;
    std::vector<halogen::SafetensorsEntry> entries;
    data.clear();
    data.reserve(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
        data.push_back({float(i + 1), -float(i + 1)});
        entries.push_back({names[i], SafetensorsDType::F32, {2}, data.back().data(), 8});
    }
    halogen::write_safetensors(path, entries, {{"format", "pt"}});
}

void expect_error(const std::function<void()> &f, const std::string &file, const std::string &needle) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one containing: " << needle;
    } catch (const FormatError &e) {
        std::string msg = e.what();
        EXPECT_EQ(msg.rfind(file + ": ", 0), 0u) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg << "\nexpected to contain: " << needle;
    }
}

// Two shards: a = {embed, layer0}, b = {layer1, norm}.
void write_sharded(const TempDir &dir) {
    write_shard(dir.file("model-00001-of-00002.safetensors"), {"embed", "layer0"});
    write_shard(dir.file("model-00002-of-00002.safetensors"), {"layer1", "norm"});
    write_text(dir.index(), R"({"metadata": {"total_size": 32, "note": "x"},
        "weight_map": {"embed": "model-00001-of-00002.safetensors", "layer0": "model-00001-of-00002.safetensors",
                       "layer1": "model-00002-of-00002.safetensors", "norm": "model-00002-of-00002.safetensors"}})");
}

TEST(Checkpoint, SingleFileDirectory) {
    TempDir dir;
    write_shard(dir.file("model.safetensors"), {"w", "b"});
    Checkpoint c = Checkpoint::open(dir.path.string());
    EXPECT_FALSE(c.sharded());
    EXPECT_EQ(c.size(), 2u);
    EXPECT_EQ(c.names(), (std::vector<std::string>{"b", "w"}));
    EXPECT_EQ(halogen::to_float32(c.at("w")), (std::vector<float>{1, -1}));
    EXPECT_EQ(c.files().at(0).metadata().at("format"), "pt");
    EXPECT_TRUE(c.index_metadata().empty());
    EXPECT_EQ(c.find("absent"), nullptr);
    expect_error([&] { c.at("absent"); }, dir.path.string(), "no tensor 'absent' in the checkpoint (2 tensors in 1 file(s))");
}

TEST(Checkpoint, APathToOneFile) {
    TempDir dir;
    write_shard(dir.file("weights.safetensors"), {"w"});
    Checkpoint c = Checkpoint::open(dir.file("weights.safetensors"));
    EXPECT_EQ(c.names(), (std::vector<std::string>{"w"}));
}

TEST(Checkpoint, ShardedFindsEveryTensorInItsShard) {
    TempDir dir;
    write_sharded(dir);
    Checkpoint c = Checkpoint::open(dir.path.string());
    EXPECT_TRUE(c.sharded());
    ASSERT_EQ(c.files().size(), 2u);
    EXPECT_EQ(c.names(), (std::vector<std::string>{"embed", "layer0", "layer1", "norm"}));
    EXPECT_EQ(halogen::to_float32(c.at("layer0")), (std::vector<float>{2, -2}));
    EXPECT_EQ(halogen::to_float32(c.at("norm")), (std::vector<float>{2, -2}));
    EXPECT_EQ(halogen::to_float32(c.at("layer1")), (std::vector<float>{1, -1}));
    EXPECT_EQ(c.index_metadata().at("total_size"), "32");
    EXPECT_EQ(c.index_metadata().at("note"), "x");
    // A copy answers the same (it shares the mappings).
    Checkpoint copy = c;
    c = Checkpoint::open(dir.file("model-00001-of-00002.safetensors"));
    EXPECT_EQ(halogen::to_float32(copy.at("norm")), (std::vector<float>{2, -2}));
}

TEST(Checkpoint, SingleFileWinsOverAnIndex) {
    TempDir dir;
    write_sharded(dir);
    write_shard(dir.file("model.safetensors"), {"only"});
    EXPECT_EQ(Checkpoint::open(dir.path.string()).names(), (std::vector<std::string>{"only"}));
}

TEST(Checkpoint, NothingToOpen) {
    TempDir dir;
    expect_error([&] { Checkpoint::open(dir.path.string()); }, dir.path.string(),
                 "neither model.safetensors nor model.safetensors.index.json");
    expect_error([&] { Checkpoint::open(dir.file("absent")); }, dir.file("absent"), "no such file or directory");
}

TEST(Checkpoint, BadIndexes) {
    TempDir dir;
    write_shard(dir.file("s.safetensors"), {"a"});
    auto with_index = [&](const std::string &text, const std::string &needle) {
        write_text(dir.index(), text);
        expect_error([&] { Checkpoint::open(dir.path.string()); }, dir.index(), needle);
    };
    with_index("{", "not valid JSON");
    with_index(std::string("{}\0", 3), "not valid JSON (NUL byte at 2)");
    with_index("[]", "the index is a JSON array, not an object");
    with_index("{}", "no 'weight_map'");
    with_index(R"({"weight_map": []})", "weight_map is a JSON array, not an object");
    with_index(R"({"metadata": 3, "weight_map": {}})", "metadata is not an object");
    with_index(R"({"weight_map": {"a": 1}})", "weight_map: tensor 'a' maps to a JSON number, not a file name");
    with_index(R"({"weight_map": {"a": "s.safetensors", "a": "s.safetensors"}})", "key 'a' appears twice");
    with_index(R"({"weight_map": {"a": "../s.safetensors"}})", "tensor 'a' names shard '../s.safetensors', not a file name");
    with_index(R"({"weight_map": {"a": "/etc/passwd"}})", "not a file name");
    with_index(R"({"weight_map": {"a": ".."}})", "not a file name");
    with_index(R"({"weight_map": {"a": "s.safetensors", "b": "missing.safetensors"}})",
               "shard 'missing.safetensors' (listed for 1 tensor(s), e.g. 'b') does not exist");
    with_index(R"({"weight_map": {"a": "s.safetensors", "b": "s.safetensors"}})",
               "tensor 'b' is listed in shard 's.safetensors', which does not hold it");
    // An empty weight_map is an empty checkpoint (a defined result, not an error).
    write_text(dir.index(), R"({"weight_map": {}, "metadata": null})");
    EXPECT_EQ(Checkpoint::open(dir.path.string()).size(), 0u);
}

TEST(Checkpoint, ShardsThatDisagreeWithTheIndex) {
    TempDir dir;
    write_sharded(dir);
    // The index forgets "norm", which shard 2 holds.
    write_text(dir.index(), R"({"weight_map": {"embed": "model-00001-of-00002.safetensors",
        "layer0": "model-00001-of-00002.safetensors", "layer1": "model-00002-of-00002.safetensors"}})");
    expect_error([&] { Checkpoint::open(dir.path.string()); }, dir.index(),
                 "shard 'model-00002-of-00002.safetensors' holds tensor 'norm', which the index does not list");
    // Shard 2 also holds "layer0", which the index puts in shard 1.
    write_shard(dir.file("model-00002-of-00002.safetensors"), {"layer0", "layer1", "norm"});
    write_text(dir.index(), R"({"weight_map": {"embed": "model-00001-of-00002.safetensors",
        "layer0": "model-00001-of-00002.safetensors", "layer1": "model-00002-of-00002.safetensors",
        "norm": "model-00002-of-00002.safetensors"}})");
    expect_error([&] { Checkpoint::open(dir.path.string()); }, dir.index(),
                 "shard 'model-00002-of-00002.safetensors' holds tensor 'layer0', which the index lists in shard "
                 "'model-00001-of-00002.safetensors'");
    // A shard that is not a safetensors file: its own error, naming it.
    write_text(dir.file("model-00002-of-00002.safetensors"), "garbage");
    expect_error([&] { Checkpoint::open(dir.path.string()); }, dir.file("model-00002-of-00002.safetensors"),
                 "7 bytes, too short");
}

}  // namespace
