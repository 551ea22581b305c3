// A tokenizer.json read in one pass: model.vocab and model.merges, which hold nearly all of a
// 9 MB file, are scanned by hand straight into flat lists (nlohmann-json's parsers take most of
// the load-time budget on them alone); every other value's text is handed to the strict JSON
// reader (formats/strict_json.h) and becomes a small JSON value for hf_tokenizer_json.cpp to
// interpret. As strict as that reader everywhere: a NUL byte, a key repeated in one object, a bad
// escape, a lone surrogate, a control character or ill-formed UTF-8 in a string is an error (a
// token repeated in model.vocab is caught when the vocab is built).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace halogen {

struct TokenizerJsonParts {
    nlohmann::json rest;   // the whole file except model.vocab and model.merges
    bool has_vocab = false, has_merges = false;
    std::vector<std::pair<std::string, int64_t>> vocab;                 // token, id, in file order
    std::vector<std::pair<std::string, std::string>> merges;            // by rank
};

// FormatError "<name>: ..." for text that is not JSON, or whose vocab or merges are malformed.
TokenizerJsonParts parse_tokenizer_json_parts(std::string_view text, const std::string &name);

}  // namespace halogen
