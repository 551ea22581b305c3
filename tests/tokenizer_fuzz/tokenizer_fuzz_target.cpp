// libFuzzer target for the tokenizer (tokenizer/): the tokenizer.json reader and encode/decode of
// arbitrary bytes. The first byte of an input picks what the rest is:
//   % 3 == 0  a tokenizer.json: it either builds a Tokenizer or throws one FormatError whose
//             message is one line starting "fuzz.json: "; a tokenizer it builds then encodes a
//             short text, its ids decode without error, and the tokenizer read back from its
//             snapshot (tokenizer_snapshot.h) encodes the text the same;
//   % 3 == 1  text for a fixed random llama3-style tokenizer (random_tokenizer.h);
//   % 3 == 2  text for the same vocab with SmolLM2's pre-tokenizer and added tokens that use
//             lstrip, rstrip and single_word.
// For text, whatever the bytes (invalid UTF-8 included): encoding never fails, every id is in the
// vocab, decode_bytes gives the bytes back (unless an lstrip / rstrip token took white space),
// decode equals the lossy conversion of them, and the streaming decoder, fed token by token,
// gives the same text.
// Any other exception, or a broken contract, aborts (a crash). Built with clang's libFuzzer by
// scripts/fuzz_tokenizer.sh and with the project's compiler plus replay_main.cpp (ctest
// tokenizer_fuzz.replay_corpus), which feeds it every file of tests/tokenizer_fuzz/corpus/.
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <typeinfo>

#include "frontend/errors.h"
#include "tests/support/fuzz_target.h"
#include "tests/tokenizer_fuzz/tokenizer_fuzz_target.h"
#include "tokenizer/hf_tokenizer_json.h"
#include "tokenizer/random_tokenizer.h"
#include "tokenizer/stream_decoder.h"
#include "tokenizer/tokenizer.h"
#include "tokenizer/tokenizer_files.h"
#include "tokenizer/tokenizer_snapshot.h"
#include "tokenizer/utf8.h"

namespace {

using namespace halogen;

int64_t g_read = 0, g_rejected = 0, g_texts = 0;

[[noreturn]] void crash(const char *what, const std::string &detail) { fuzz::crash("tokenizer_fuzz", what, detail); }

const Tokenizer &fixed(int which) {
    static const std::unique_ptr<Tokenizer> llama3 = [] {
        return std::make_unique<Tokenizer>(parse_hf_tokenizer_json(random_tokenizer_files(700, 11).tokenizer_json));
    }();
    static const std::unique_ptr<Tokenizer> smollm = [] {
        BpeVocab v = parse_hf_tokenizer_json(random_tokenizer_files(700, 11).tokenizer_json);
        v.pre_tokenizer = smollm_pre_tokenizer();
        v.ignore_merges = false;
        const auto next = static_cast<int32_t>(v.tokens.size() + v.added.size());
        AddedToken mask{next, "<mask>", true, true, false, false, false};
        AddedToken sep{next + 1, "<sep>", true, false, true, false, false};
        AddedToken word{next + 2, "[W]", false, false, false, true, true};
        v.added.insert(v.added.end(), {mask, sep, word});
        return std::make_unique<Tokenizer>(v);
    }();
    return which == 1 ? *llama3 : *smollm;
}

void check_text(const Tokenizer &t, const std::string &text) {
    const std::vector<int32_t> ids = t.encode(text, false);
    for (const int32_t id : ids)
        if (!t.has_id(id)) crash("encode gave an id outside the vocab", std::to_string(id));
    // lstrip / rstrip tokens take the white space around them, so only text without them comes back whole.
    const bool strips = text.find("<mask>") != std::string::npos || text.find("<sep>") != std::string::npos;
    const std::string bytes = t.decode_bytes(ids);
    if (!strips && bytes != text) crash("decode_bytes(encode(text)) != text", bytes);
    const std::string whole = t.decode(ids);
    if (whole != utf8::lossy(bytes)) crash("decode(ids) != lossy(decode_bytes(ids))", whole);
    StreamDecoder stream(t);
    std::string pieces;
    for (const int32_t id : ids) pieces += stream.push(id);
    pieces += stream.finish();
    if (pieces != whole) crash("streaming decode differs from decode", pieces);
    ++g_texts;
}

void check_json(const std::string &text) {
    std::unique_ptr<Tokenizer> t;
    TokenizerFiles files;
    try {
        files.vocab = parse_hf_tokenizer_json(text, "fuzz.json");
        t = std::make_unique<Tokenizer>(files.vocab);
    } catch (const FormatError &e) {
        ++g_rejected;
        const std::string msg = e.what();
        if (msg.rfind("fuzz.json: ", 0) != 0 || msg.size() == 11 || msg.find('\n') != std::string::npos)
            crash("FormatError message is not one line naming the file", msg);
        return;
    }
    ++g_read;
    // A pattern read from the file may exhaust PCRE2's match limits: that is an Error naming the
    // pre-tokenizer, not a crash.
    // Its snapshot read back (tokenizer_snapshot.h) must encode the same.
    const SnapshotTokenizer back = tokenizer_from_snapshot(tokenizer_snapshot(files, *t), "fuzz.snapshot");
    try {
        const char *sample = "Hello, world! 123 \xF0\x9F\x98\x80 x\r\n";
        const auto ids = t->encode(sample, true);
        t->decode(ids);
        if (back.tokenizer->encode(sample, true) != ids) crash("the snapshot's tokenizer encodes differently", sample);
    } catch (const Error &e) {
        if (std::string(e.what()).rfind("pre-tokenizer: ", 0) != 0) throw;
    }
}

}  // namespace

namespace halogen::tokenizer_fuzz {
int64_t files_read() { return g_read; }
int64_t files_rejected() { return g_rejected; }
int64_t texts_encoded() { return g_texts; }
}  // namespace halogen::tokenizer_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const std::string rest(reinterpret_cast<const char *>(data) + 1, size - 1);
    try {
        switch (data[0] % 3) {
        case 0: check_json(rest); break;
        case 1: check_text(fixed(1), rest); break;
        default: check_text(fixed(2), rest); break;
        }
    } catch (const std::exception &e) {
        crash("unexpected exception", std::string(typeid(e).name()) + ": " + e.what());
    } catch (...) {
        crash("non-standard exception", "(unknown type)");
    }
    return 0;
}
