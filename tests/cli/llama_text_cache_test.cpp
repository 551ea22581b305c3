// A model's text side through the kernel cache's folder (cli/llama_text_cache.h): the first
// open builds the tokenizer and stores a snapshot, the second reads it and tokenizes as the first;
// a changed tokenizer.json or tokenizer_config.json is a new key; a damaged entry is built anew and
// replaced; the cache off writes nothing; an unwritable folder still gives the tokenizer.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "cli/llama_text_cache.h"
#include "tests/llama/llama_test_support.h"
#include "tokenizer/random_tokenizer.h"

namespace {

using namespace halogen;
namespace fs = std::filesystem;

std::vector<fs::path> entries(const fs::path &cache) {
    std::vector<fs::path> out;
    if (fs::exists(cache / "tokenizers"))
        for (const auto &e : fs::directory_iterator(cache / "tokenizers")) out.push_back(e.path());
    return out;
}

const char *kText = "Hello there, general text 123! <|eot_id|> and more";

struct Opened {
    std::vector<int32_t> ids;
    TextFrom from;
    std::string chat_template;
};

Opened open(const std::string &model, const CompileCacheOptions &cache) {
    Opened o;
    const LlamaText t = open_cached_llama_text(model, cache, &o.from);
    o.ids = t.tokenizer->encode(kText);
    o.chat_template = t.files.chat_template;
    return o;
}

// A model folder holding a random tokenizer, and an empty cache folder.
struct Folders {
    halogen_test::TempDir model, cache;
    CompileCacheOptions options;
    Folders(int64_t vocab, uint64_t seed) {
        write_random_tokenizer(model.str(), vocab, seed);
        options.dir = cache.str();
    }
};

TEST(CachedText, SecondOpenReadsTheSnapshotAndTokenizesTheSame) {
    Folders f(2000, 4);
    const auto &[model, cache, options] = std::tie(f.model, f.cache, f.options);
    const Opened first = open(model.str(), options);
    EXPECT_EQ(first.from, TextFrom::built);
    ASSERT_EQ(entries(cache.path).size(), 1u);
    const Opened second = open(model.str(), options);
    EXPECT_EQ(second.from, TextFrom::snapshot);
    EXPECT_EQ(second.ids, first.ids);
    EXPECT_EQ(second.chat_template, first.chat_template);
    EXPECT_EQ(second.chat_template, random_tokenizer_chat_template());
    EXPECT_EQ(first.ids.front(), 1995);   // the BOS of the random tokenizer's post-processor

    // Another tokenizer in the same folder: its own entry, its own ids.
    write_random_tokenizer(model.str(), 2000, 5);
    const Opened other = open(model.str(), options);
    EXPECT_EQ(other.from, TextFrom::built);
    EXPECT_NE(other.ids, first.ids);
    EXPECT_EQ(entries(cache.path).size(), 2u);
    // Only the config changed: a new key too.
    {
        std::ofstream(model.file("tokenizer_config.json")) << R"({"chat_template": "{{ bos_token }}", "bos_token": "<|begin_of_text|>"})";
    }
    const Opened config_changed = open(model.str(), options);
    EXPECT_EQ(config_changed.from, TextFrom::built);
    EXPECT_EQ(config_changed.chat_template, "{{ bos_token }}");
    EXPECT_EQ(open(model.str(), options).chat_template, "{{ bos_token }}");
}

TEST(CachedText, DamagedEntriesAreBuiltAnewAndReplaced) {
    Folders f(1500, 8);
    const auto &[model, cache, options] = std::tie(f.model, f.cache, f.options);
    const Opened good = open(model.str(), options);
    ASSERT_EQ(entries(cache.path).size(), 1u);
    const fs::path entry = entries(cache.path)[0];
    const auto size = fs::file_size(entry);
    for (const char *damage : {"truncate", "flip", "garbage"}) {
        if (std::string(damage) == "truncate") fs::resize_file(entry, size / 2);
        if (std::string(damage) == "flip") {
            std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(static_cast<std::streamoff>(size / 3));
            f.put('\x5a');
        }
        if (std::string(damage) == "garbage") std::ofstream(entry, std::ios::binary) << "not a cache entry";
        const Opened again = open(model.str(), options);
        EXPECT_EQ(again.from, TextFrom::built) << damage;
        EXPECT_EQ(again.ids, good.ids) << damage;
        EXPECT_EQ(fs::file_size(entry), size) << damage;   // replaced by a whole entry
        EXPECT_EQ(open(model.str(), options).from, TextFrom::snapshot) << damage;
    }
}

TEST(CachedText, CacheOffWritesNothingAndAnUnwritableFolderStillGivesTheTokenizer) {
    Folders f(1200, 2);
    const auto &[model, cache] = std::tie(f.model, f.cache);
    CompileCacheOptions off;
    off.enabled = false;
    off.dir = cache.str();
    const Opened a = open(model.str(), off);
    EXPECT_EQ(a.from, TextFrom::built);
    EXPECT_TRUE(entries(cache.path).empty());
    // A file where the folder should be: nothing can be stored, the tokenizer is built each time.
    CompileCacheOptions blocked;
    blocked.dir = cache.file("a_file");
    { std::ofstream(blocked.dir) << "x"; }
    for (int i = 0; i < 2; ++i) {
        const Opened b = open(model.str(), blocked);
        EXPECT_EQ(b.from, TextFrom::built);
        EXPECT_EQ(b.ids, a.ids);
    }
}

}  // namespace
