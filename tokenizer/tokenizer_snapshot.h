// A built tokenizer as bytes and back, so that a later start reads its tables instead of parsing
// tokenizer.json and resolving every merge by string look-ups (most of a large vocab's load).
// models/llama/llama_text.h keeps snapshots in the kernel cache's folder.
//
// What a snapshot holds: TokenizerFiles without the merges' strings (the vocab's tokens, the
// pre-tokenizer, the added tokens, the post-processor's ids, the BOS / EOS / end-of-turn ids, the
// chat template and token names) and the model's merges as ids (BpeModel::merges()). Layout, all
// integers little-endian:
//   "HLGNTS01"                                   the format and its version
//   flags u8 (ignore_merges, fuse_unk), unk_token
//   pre-tokenizer steps: u32 count, each kind u8, pattern, 4 flags u8
//   added tokens: u32 count, each id i32, content, 5 flags u8
//   prefix ids, suffix ids: u32 count + i32 each; bos, eos, eot i32
//   chat_template, bos_token, eos_token; add_bos_token u8 (0 unset, 1 false, 2 true)
//   tokens: u32 count, u32 length each, then their bytes
//   merges: u32 count, each left, right, id i32 and rank u32
// A string is a u32 length and its bytes. The snapshot carries no checksum: the cache entry
// that holds it does (halide_gen/runtime/kernel_cache.h).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "tokenizer/tokenizer.h"
#include "tokenizer/tokenizer_files.h"

namespace halogen {

std::string tokenizer_snapshot(const TokenizerFiles &files, const Tokenizer &tokenizer);

struct SnapshotTokenizer {
    TokenizerFiles files;   // vocab.tokens and vocab.merges empty: the tokenizer's model holds them
    std::unique_ptr<Tokenizer> tokenizer;
};

// FormatError naming `source` for bytes that are not a whole snapshot of this version (a wrong
// header, a length past the end, bytes left over) or whose tables are inconsistent.
SnapshotTokenizer tokenizer_from_snapshot(std::string_view bytes, const std::string &source);

}  // namespace halogen
