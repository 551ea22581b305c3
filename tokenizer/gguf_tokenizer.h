// A GGUF file's tokenizer: the tokenizer.ggml.* keys (llama.cpp's converter writes them) read into
// the same description a tokenizer.json gives (bpe_vocab.h), with the chat template and the
// names of the BOS and EOS tokens, as TokenizerFiles holds them for a model directory.
//
// Keys read: tokenizer.ggml.model (must be "gpt2": byte-level BPE; any other is a FormatError
// naming it), .tokens, .merges ("a b" strings), .token_type (CONTROL ids become special added
// tokens, USER_DEFINED ones plain added tokens), .pre (pre_tokenizer_for_gguf; absent: GPT-2's,
// as llama.cpp's loader falls back to; "llama-bpe" also means ignore_merges, as llama3's
// tokenizer.json has it and llama.cpp's loader implies it), .bos_token_id,
// .eos_token_id, .eot_token_id, .add_bos_token (default true, as llama.cpp's loader has it: the
// BOS is put before the text), and tokenizer.chat_template.
#pragma once

#include "formats/gguf.h"
#include "formats/gguf_writer.h"
#include "tokenizer/tokenizer_files.h"

namespace halogen {

TokenizerFiles read_gguf_tokenizer(const GgufFile &file);

// The same keys written from a tokenizer's description, as llama.cpp's converter writes them: every
// token by id (the added tokens in their places), CONTROL for special added tokens, USER_DEFINED
// for the others, NORMAL for the rest; the pre-tokenizer by its GGUF name (ConfigError for one
// that has none); add_bos_token when the post-processor puts the BOS first. What GGUF cannot say
// is lost: an added token's lstrip / rstrip / single_word, another post-processor than a BOS.
void write_gguf_tokenizer(const TokenizerFiles &files, GgufWriter &out);

}  // namespace halogen
