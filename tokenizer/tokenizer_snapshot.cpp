// A built tokenizer as bytes and back (tokenizer_snapshot.h).
#include "tokenizer/tokenizer_snapshot.h"

#include <cstdint>
#include <cstring>
#include <limits>

#include "frontend/errors.h"

namespace halogen {

namespace {

constexpr std::string_view kMagic = "HLGNTS01";

class Writer {
public:
    std::string out;
    template <class T>
    void put(T v) {
        char b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));   // x86-64 and the other targets are little-endian
        out.append(b, sizeof(T));
    }
    void flag(bool v) { put<uint8_t>(v ? 1 : 0); }
    void str(std::string_view s) {
        put(static_cast<uint32_t>(s.size()));
        out.append(s);
    }
    void ids(const std::vector<int32_t> &v) {
        put(static_cast<uint32_t>(v.size()));
        for (const int32_t id : v) put(id);
    }
};

class Reader {
public:
    Reader(std::string_view bytes, const std::string &source) : b_(bytes), source_(source) {}
    [[noreturn]] void fail(const std::string &what) const {
        throw FormatError(source_ + ": not a tokenizer snapshot of this build: " + what);
    }
    std::string_view take(size_t n, const char *what) {
        if (n > b_.size() - pos_) fail(std::string(what) + " runs past the end");
        const std::string_view s = b_.substr(pos_, n);
        pos_ += n;
        return s;
    }
    template <class T>
    T get(const char *what) {
        T v;
        std::memcpy(&v, take(sizeof(T), what).data(), sizeof(T));
        return v;
    }
    bool flag(const char *what) {
        const auto v = get<uint8_t>(what);
        if (v > 1) fail(std::string(what) + " is not 0 or 1");
        return v == 1;
    }
    std::string str(const char *what) { return std::string(take(get<uint32_t>(what), what)); }
    // A count of items of at least `item_bytes` each, bounded by the bytes left.
    uint32_t count(size_t item_bytes, const char *what) {
        const auto n = get<uint32_t>(what);
        if (uint64_t{n} * item_bytes > b_.size() - pos_) fail(std::string(what) + ": " + std::to_string(n) + " items run past the end");
        return n;
    }
    std::vector<int32_t> ids(const char *what) {
        std::vector<int32_t> v(count(4, what));
        for (int32_t &id : v) id = get<int32_t>(what);
        return v;
    }
    bool done() const { return pos_ == b_.size(); }

private:
    std::string_view b_;
    size_t pos_ = 0;
    const std::string &source_;
};

}  // namespace

std::string tokenizer_snapshot(const TokenizerFiles &files, const Tokenizer &tokenizer) {
    const BpeVocab &v = files.vocab;
    const BpeModel &model = tokenizer.model();
    Writer w;
    w.out.append(kMagic);
    w.flag(v.ignore_merges);
    w.flag(v.fuse_unk);
    w.str(v.unk_token);
    w.put(static_cast<uint32_t>(v.pre_tokenizer.size()));
    for (const PreTokenizerStep &s : v.pre_tokenizer) {
        w.put(static_cast<uint8_t>(s.kind));
        w.str(s.pattern);
        w.flag(s.add_prefix_space);
        w.flag(s.use_regex);
        w.flag(s.trim_offsets);
        w.flag(s.individual_digits);
    }
    w.put(static_cast<uint32_t>(v.added.size()));
    for (const AddedToken &a : v.added) {
        w.put(a.id);
        w.str(a.content);
        for (const bool f : {a.special, a.lstrip, a.rstrip, a.single_word, a.normalized}) w.flag(f);
    }
    w.ids(v.prefix_ids);
    w.ids(v.suffix_ids);
    for (const int32_t id : {v.bos_id, v.eos_id, v.eot_id}) w.put(id);
    w.str(files.chat_template);
    w.str(files.bos_token);
    w.str(files.eos_token);
    w.put<uint8_t>(!files.add_bos_token ? 0 : *files.add_bos_token ? 2 : 1);
    w.put(static_cast<uint32_t>(model.size()));
    for (size_t i = 0; i < model.size(); ++i) w.put(static_cast<uint32_t>(model.token(static_cast<int32_t>(i)).size()));
    for (size_t i = 0; i < model.size(); ++i) w.out.append(model.token(static_cast<int32_t>(i)));
    const std::vector<BpeModel::IdMerge> merges = model.merges();
    w.put(static_cast<uint32_t>(merges.size()));
    for (const BpeModel::IdMerge &m : merges) {
        w.put(m.left);
        w.put(m.right);
        w.put(m.id);
        w.put(m.rank);
    }
    return std::move(w.out);
}

SnapshotTokenizer tokenizer_from_snapshot(std::string_view bytes, const std::string &source) {
    Reader r(bytes, source);
    if (r.take(kMagic.size(), "the header") != kMagic) r.fail("the header is not " + std::string(kMagic));
    SnapshotTokenizer out;
    BpeVocab &v = out.files.vocab;
    v.source = source;
    v.ignore_merges = r.flag("ignore_merges");
    v.fuse_unk = r.flag("fuse_unk");
    v.unk_token = r.str("unk_token");
    v.pre_tokenizer.resize(r.count(1 + 4 + 4, "the pre-tokenizer"));
    for (PreTokenizerStep &s : v.pre_tokenizer) {
        const auto kind = r.get<uint8_t>("a pre-tokenizer step");
        if (kind > static_cast<uint8_t>(PreTokenizerStep::Kind::Digits)) r.fail("a pre-tokenizer step of unknown kind");
        s.kind = static_cast<PreTokenizerStep::Kind>(kind);
        s.pattern = r.str("a pre-tokenizer pattern");
        s.add_prefix_space = r.flag("add_prefix_space");
        s.use_regex = r.flag("use_regex");
        s.trim_offsets = r.flag("trim_offsets");
        s.individual_digits = r.flag("individual_digits");
    }
    v.added.resize(r.count(4 + 4 + 5, "the added tokens"));
    for (AddedToken &a : v.added) {
        a.id = r.get<int32_t>("an added token");
        a.content = r.str("an added token");
        for (bool *f : {&a.special, &a.lstrip, &a.rstrip, &a.single_word, &a.normalized}) *f = r.flag("an added token's flag");
    }
    v.prefix_ids = r.ids("the prefix ids");
    v.suffix_ids = r.ids("the suffix ids");
    for (int32_t *id : {&v.bos_id, &v.eos_id, &v.eot_id}) *id = r.get<int32_t>("the special ids");
    out.files.chat_template = r.str("the chat template");
    out.files.bos_token = r.str("bos_token");
    out.files.eos_token = r.str("eos_token");
    if (const auto b = r.get<uint8_t>("add_bos_token"); b > 2) {
        r.fail("add_bos_token is not 0, 1 or 2");
    } else if (b > 0) {
        out.files.add_bos_token = b == 2;
    }
    std::vector<uint32_t> lengths(r.count(4, "the tokens"));
    for (uint32_t &n : lengths) n = r.get<uint32_t>("a token's length");
    std::vector<std::string> tokens(lengths.size());
    for (size_t i = 0; i < lengths.size(); ++i) tokens[i] = std::string(r.take(lengths[i], "a token"));
    std::vector<BpeModel::IdMerge> merges(r.count(16, "the merges"));
    for (BpeModel::IdMerge &m : merges) {
        m.left = r.get<int32_t>("a merge");
        m.right = r.get<int32_t>("a merge");
        m.id = r.get<int32_t>("a merge");
        m.rank = r.get<uint32_t>("a merge");
    }
    if (!r.done()) r.fail("bytes are left after the merges");
    out.tokenizer = std::make_unique<Tokenizer>(v, std::make_unique<BpeModel>(std::move(tokens), v, merges));
    return out;
}

}  // namespace halogen
