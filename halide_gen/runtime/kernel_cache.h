// The on-disk cache of compiled kernels: one file per key, under a folder that every halogen process
// of the user shares, so that a program compiled once is loaded on later runs instead of being
// compiled again (halide_gen/compiler/compile_cache.h makes the keys and the entries).
//
// The folder: --cache-dir when a command is given one; else $HALOGEN_CACHE_DIR; else
// $XDG_CACHE_HOME/halogen; else $HOME/.cache/halogen. An entry is the file
// `kernels/<16 hex digits of the key's hash>.hkc` (another folder than kernels/ for other
// things kept the same way: tokenizer snapshots, cli/llama_text_cache.h):
//   "HLGNKC01"                      8 bytes, the format and its version
//   key, metadata, library lengths  3 x uint64 little-endian
//   key, metadata, library          the bytes
//   checksum                        uint64, FNV-1a over everything before it
// The whole key is stored and compared, so two keys with one hash never mix. An entry is written
// to a temporary file in the same folder and renamed into place: a reader sees the old file, the
// new one, or none, never a torn one; two processes filling one entry both succeed, the last
// rename wins, and both files were valid. A file that is truncated, fails its checksum, or holds
// another key is reported and replaced by the caller's new entry.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace halogen {

// What a cache entry holds besides its key: the compiled library (a shared object's bytes) and
// a text the compiler writes and reads back (the program's arguments, its kernel count).
struct CachedKernel {
    std::string metadata;
    std::string library;
};

// A lookup's outcome. `problem` says what was wrong with an entry that exists but cannot be used
// ("truncated: 1200 of 53000 bytes", "checksum mismatch", "holds another key", "unreadable: ...").
struct CacheLookup {
    std::optional<CachedKernel> kernel;
    std::string problem;   // empty for a hit or an absent entry
};

class KernelCache {
public:
    // The folder described above; `dir` non-empty overrides the environment.
    static std::string default_dir(const std::string &dir = "");

    // Entries go in `dir`/`folder`: kernels/ for compiled kernels; cli/llama_text_cache.h keeps
    // tokenizer snapshots in tokenizers/, as entries of the same form.
    explicit KernelCache(std::string dir, std::string folder = "kernels");
    const std::string &dir() const { return dir_; }
    std::string path_of(const std::string &key) const;   // the entry's file

    CacheLookup find(const std::string &key) const;
    // Writes the entry atomically. Returns an empty string, or why it could not (an unwritable
    // folder, a full disk): the caller warns and goes on without the cache.
    std::string store(const std::string &key, const CachedKernel &kernel) const;

private:
    std::string dir_, folder_;
};

// FNV-1a, 64 bits: the entries' checksum and the hash in their names.
uint64_t fnv1a64(const void *data, std::size_t n, uint64_t hash = 0xcbf29ce484222325ull);

}  // namespace halogen
