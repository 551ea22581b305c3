// A llama model's text side through the kernel cache's folder (llama_text_cache.h).
#include "cli/llama_text_cache.h"

#include <sys/stat.h>

#include <fmt/format.h>

#include "formats/file_bytes.h"
#include "frontend/errors.h"
#include "halide_gen/compiler/build_ids.h"
#include "halide_gen/runtime/kernel_cache.h"
#include "tokenizer/tokenizer_snapshot.h"

namespace halogen {

namespace {

// A file's size and the hash of its bytes ("absent" when it does not exist).
std::string content_key(const std::string &path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return "absent";
    const auto bytes = FileBytes::map(path);
    const std::string_view text(reinterpret_cast<const char *>(bytes->data()), bytes->size());
    return fmt::format("{} bytes, hash {:016x}", text.size(), std::hash<std::string_view>{}(text));
}

}  // namespace

LlamaText open_cached_llama_text(const std::string &model, const CompileCacheOptions &cache, TextFrom *from) {
    if (from) *from = TextFrom::built;
    if (!cache.enabled) return open_llama_text(model);
    return open_llama_text(model, [&](const std::string &folder) {
        const std::string json = folder + "/tokenizer.json";
        const std::string key = fmt::format("tokenizer snapshot\nhalogen {}\ntokenizer.json {}\ntokenizer_config.json {}\n",
                                            executable_build_id(), content_key(json),
                                            content_key(folder + "/tokenizer_config.json"));
        const KernelCache store(KernelCache::default_dir(cache.dir), "tokenizers");
        if (const CacheLookup found = store.find(key); found.kernel) {
            try {
                SnapshotTokenizer s = tokenizer_from_snapshot(found.kernel->library, json);
                if (from) *from = TextFrom::snapshot;
                return BuiltTokenizer{std::move(s.files), std::move(s.tokenizer)};
            } catch (const FormatError &) {
                // A snapshot this build cannot read: built anew below, and replaced.
            }
        }
        BuiltTokenizer built;
        built.files = read_tokenizer_files(folder);
        built.tokenizer = std::make_unique<Tokenizer>(built.files.vocab);
        // An unwritable folder only costs the next start the build again.
        (void)store.store(key, CachedKernel{"", tokenizer_snapshot(built.files, *built.tokenizer)});
        // As from a snapshot: the tokenizer's model holds the tokens and merges.
        built.files.vocab.tokens = {};
        built.files.vocab.merges = {};
        return built;
    });
}

}  // namespace halogen
