// Interpreting a tokenizer.json (hf_tokenizer_json.h): the components, field by field, after
// tokenizer_json_parts.h has read the file.
#include "tokenizer/hf_tokenizer_json.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "formats/printable_text.h"
#include "frontend/errors.h"
#include "tokenizer/regex.h"
#include "tokenizer/tokenizer_json_parts.h"

namespace halogen {

namespace {

using json = nlohmann::json;

class Reader {
public:
    explicit Reader(const std::string &name) : name_(name) {}

    [[noreturn]] void fail(const std::string &what) const { throw FormatError(name_ + ": " + what); }

    const json *field(const json &obj, const char *key) const {
        const auto it = obj.find(key);
        return it == obj.end() ? nullptr : &*it;
    }
    bool boolean(const json &obj, const char *key, bool fallback, const std::string &where) const {
        const json *v = field(obj, key);
        if (!v || v->is_null()) return fallback;
        if (!v->is_boolean()) fail(where + "." + key + " must be true or false");
        return v->get<bool>();
    }
    std::string string(const json &obj, const char *key, const std::string &where) const {
        const json *v = field(obj, key);
        if (!v || !v->is_string()) fail(where + "." + key + " must be a string");
        return v->get<std::string>();
    }
    const json &object(const json &obj, const char *key, const std::string &where) const {
        const json *v = field(obj, key);
        if (!v || !v->is_object()) fail(where + "." + key + " must be an object");
        return *v;
    }
    std::string type(const json &component, const std::string &where) const {
        if (!component.is_object()) fail(where + " must be an object or null");
        return string(component, "type", where);
    }
    [[noreturn]] void unsupported(const std::string &where, const std::string &type) const {
        fail(where + " '" + printable_text(type, 60) + "' is not supported");
    }
    int32_t id(const json &v, const std::string &where) const {
        if (!v.is_number_unsigned() || v.get<uint64_t>() > 0x7fffffffu) fail(where + " must be an id (0 .. 2^31-1)");
        return static_cast<int32_t>(v.get<uint64_t>());
    }

    void pre_tokenizer_step(const json &c, const std::string &where, PreTokenizerSpec &out) const {
        const std::string t = type(c, where);
        PreTokenizerStep s;
        if (t == "Sequence") {
            const json *list = field(c, "pretokenizers");
            if (!list || !list->is_array()) fail(where + ".pretokenizers must be a list");
            for (size_t i = 0; i < list->size(); ++i)
                pre_tokenizer_step((*list)[i], where + ".pretokenizers[" + std::to_string(i) + "]", out);
            return;
        } else if (t == "Split") {
            s.kind = PreTokenizerStep::Kind::Split;
            const json &pattern = object(c, "pattern", where);
            if (pattern.size() != 1) fail(where + ".pattern must hold one of Regex or String");
            if (const json *re = field(pattern, "Regex")) {
                if (!re->is_string()) fail(where + ".pattern.Regex must be a string");
                s.pattern = re->get<std::string>();
            } else if (const json *lit = field(pattern, "String")) {
                if (!lit->is_string()) fail(where + ".pattern.String must be a string");
                s.pattern = "\\Q" + lit->get<std::string>() + "\\E";
                if (lit->get<std::string>().find("\\E") != std::string::npos)
                    fail(where + ".pattern.String containing \\E is not supported");
            } else {
                fail(where + ".pattern must hold one of Regex or String");
            }
            const std::string behavior = string(c, "behavior", where);
            if (behavior != "Isolated") fail(where + ".behavior '" + printable_text(behavior, 40) + "' is not supported (only Isolated)");
            if (boolean(c, "invert", false, where)) fail(where + ".invert true is not supported");
            Regex check(s.pattern, name_ + ": " + where);   // a bad pattern fails here, named
        } else if (t == "ByteLevel") {
            s.kind = PreTokenizerStep::Kind::ByteLevel;
            s.add_prefix_space = boolean(c, "add_prefix_space", true, where);
            s.trim_offsets = boolean(c, "trim_offsets", true, where);
            s.use_regex = boolean(c, "use_regex", true, where);
        } else if (t == "Digits") {
            s.kind = PreTokenizerStep::Kind::Digits;
            if (!boolean(c, "individual_digits", false, where))
                fail(where + ".individual_digits false is not supported");
        } else {
            unsupported(where, t);
        }
        out.push_back(std::move(s));
    }

    void post_processor(const json &c, const std::string &where, BpeVocab &v) const {
        const std::string t = type(c, where);
        if (t == "Sequence") {
            const json *list = field(c, "processors");
            if (!list || !list->is_array()) fail(where + ".processors must be a list");
            for (size_t i = 0; i < list->size(); ++i)
                post_processor((*list)[i], where + ".processors[" + std::to_string(i) + "]", v);
        } else if (t == "ByteLevel") {
            // Adjusts offsets only.
        } else if (t == "TemplateProcessing") {
            if (!v.prefix_ids.empty() || !v.suffix_ids.empty()) fail(where + ": a second TemplateProcessing is not supported");
            const json *single = field(c, "single");
            if (!single || !single->is_array()) fail(where + ".single must be a list");
            const json &specials = object(c, "special_tokens", where);
            bool seen_sequence = false;
            for (const json &item : *single) {
                if (!item.is_object() || item.size() != 1) fail(where + ".single: each item must be {\"SpecialToken\": ...} or {\"Sequence\": ...}");
                if (const json *seq = field(item, "Sequence")) {
                    if (!seq->is_object() || string(*seq, "id", where + ".single.Sequence") != "A" || seen_sequence)
                        fail(where + ".single must hold the sequence A once");
                    seen_sequence = true;
                } else if (const json *sp = field(item, "SpecialToken")) {
                    if (!sp->is_object()) fail(where + ".single.SpecialToken must be an object");
                    const std::string name = string(*sp, "id", where + ".single.SpecialToken");
                    const json *entry = field(specials, name.c_str());
                    if (!entry || !entry->is_object()) fail(where + ": special token '" + printable_text(name, 60) + "' is not in special_tokens");
                    const json *ids = field(*entry, "ids");
                    if (!ids || !ids->is_array()) fail(where + ".special_tokens." + printable_text(name, 60) + ".ids must be a list");
                    for (const json &i : *ids) (seen_sequence ? v.suffix_ids : v.prefix_ids).push_back(id(i, where + ".special_tokens ids"));
                } else {
                    fail(where + ".single: each item must be {\"SpecialToken\": ...} or {\"Sequence\": ...}");
                }
            }
            if (!seen_sequence) fail(where + ".single must hold the sequence A once");
        } else {
            unsupported(where, t);
        }
    }

    void model(const json &m, TokenizerJsonParts &parts, BpeVocab &v) const {
        if (!m.is_object()) fail("model must be an object");
        const std::string t = type(m, "model");
        if (t != "BPE") unsupported("model", t);
        if (const json *d = field(m, "dropout"); d && !d->is_null() && !(d->is_number() && d->get<double>() == 0.0))
            fail("model.dropout is not supported (only null or 0)");
        if (boolean(m, "byte_fallback", false, "model")) fail("model.byte_fallback true is not supported");
        for (const char *key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
            const json *f = field(m, key);
            if (f && !f->is_null() && !(f->is_string() && f->get<std::string>().empty()))
                fail(std::string("model.") + key + " is not supported (only null or \"\")");
        }
        v.ignore_merges = boolean(m, "ignore_merges", false, "model");
        v.fuse_unk = boolean(m, "fuse_unk", false, "model");
        if (const json *u = field(m, "unk_token"); u && !u->is_null()) {
            if (!u->is_string()) fail("model.unk_token must be a string or null");
            v.unk_token = u->get<std::string>();
        }
        if (!parts.has_vocab) fail("model.vocab is missing (it must be an object of token: id)");
        if (!parts.has_merges) fail("model.merges is missing (it must be a list)");
        for (const char *key : {"vocab", "merges"})
            if (field(m, key)) fail(std::string("model.") + key + " has the wrong type");
        // Ids 0 .. N-1, each once.
        const size_t n = parts.vocab.size();
        v.tokens.assign(n, std::string());
        std::vector<char> seen(n, 0);
        for (const auto &[token, i] : parts.vocab) {
            if (i < 0 || static_cast<uint64_t>(i) >= n)
                fail("model.vocab: id " + std::to_string(i) + " of '" + printable_text(token, 60) + "' is outside 0.." +
                     std::to_string(n - 1) + " (ids must be 0..N-1)");
            if (seen[static_cast<size_t>(i)]) fail("model.vocab: id " + std::to_string(i) + " is given twice");
            seen[static_cast<size_t>(i)] = 1;
        }
        for (auto &[token, i] : parts.vocab) v.tokens[static_cast<size_t>(i)] = std::move(token);
        v.merges = std::move(parts.merges);
    }

    void added_tokens(const json &list, BpeVocab &v) const {
        if (!list.is_array()) fail("added_tokens must be a list");
        for (size_t i = 0; i < list.size(); ++i) {
            const std::string where = "added_tokens[" + std::to_string(i) + "]";
            const json &e = list[i];
            if (!e.is_object()) fail(where + " must be an object");
            AddedToken t;
            const json *idv = field(e, "id");
            if (!idv) fail(where + ".id is missing");
            t.id = id(*idv, where + ".id");
            t.content = string(e, "content", where);
            t.special = boolean(e, "special", false, where);
            t.lstrip = boolean(e, "lstrip", false, where);
            t.rstrip = boolean(e, "rstrip", false, where);
            t.single_word = boolean(e, "single_word", false, where);
            t.normalized = boolean(e, "normalized", true, where);
            v.added.push_back(std::move(t));
        }
    }

private:
    const std::string &name_;
};

}  // namespace

BpeVocab parse_hf_tokenizer_json(std::string_view text, const std::string &name) {
    TokenizerJsonParts parts = parse_tokenizer_json_parts(text, name);
    const Reader r(name);
    const json &root = parts.rest;
    if (!root.is_object()) r.fail("the top level must be an object");
    BpeVocab v;
    v.source = name;
    if (const json *ver = r.field(root, "version"); ver && !(ver->is_string() && ver->get<std::string>() == "1.0"))
        r.fail("version " + printable_text(ver->dump(), 40) + " is not supported (only \"1.0\")");
    for (const char *key : {"truncation", "padding"})
        if (const json *f = r.field(root, key); f && !f->is_null()) r.fail(std::string(key) + " is not supported (only null)");
    if (const json *n = r.field(root, "normalizer"); n && !n->is_null()) r.unsupported("normalizer", r.type(*n, "normalizer"));
    if (const json *p = r.field(root, "pre_tokenizer"); p && !p->is_null()) r.pre_tokenizer_step(*p, "pre_tokenizer", v.pre_tokenizer);
    const json *model = r.field(root, "model");
    if (!model) r.fail("model is missing");
    r.model(*model, parts, v);
    if (const json *a = r.field(root, "added_tokens"); a && !a->is_null()) r.added_tokens(*a, v);
    if (const json *p = r.field(root, "post_processor"); p && !p->is_null()) r.post_processor(*p, "post_processor", v);
    const json *decoder = r.field(root, "decoder");
    if (!decoder || decoder->is_null()) r.fail("decoder null is not supported (only ByteLevel)");
    if (const std::string t = r.type(*decoder, "decoder"); t != "ByteLevel") r.unsupported("decoder", t);
    if (v.prefix_ids.size() == 1) v.bos_id = v.prefix_ids[0];
    return v;
}

BpeVocab read_hf_tokenizer_json(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) throw FormatError(path + ": cannot read: " + std::strerror(errno));
    std::string text;
    f.seekg(0, std::ios::end);
    const std::streamoff size = f.tellg();
    if (size < 0) throw FormatError(path + ": cannot read: not a regular file");
    text.resize(static_cast<size_t>(size));
    f.seekg(0, std::ios::beg);
    if (!f.read(text.data(), size)) throw FormatError(path + ": cannot read: " + std::strerror(errno));
    return parse_hf_tokenizer_json(text, path);
}

}  // namespace halogen
