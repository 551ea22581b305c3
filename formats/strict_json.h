// JSON text read strictly, for every JSON file halogen reads (a checkpoint's index, a model's
// config.json, a graph): nlohmann-json keeps the last of a key given twice in one object and takes
// a NUL byte for the end of the input; JSON allows neither, and a reader that accepts them reads
// something other than what the file says.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

namespace halogen {

// Why a text is not strict JSON. what() is one printable line: "not valid JSON (NUL byte at 2)",
// "key 'a' appears twice", or "not valid JSON: " and nlohmann's reason. Callers rethrow it as
// their own typed error (frontend/errors.h), naming the file.
struct StrictJsonError : std::runtime_error {
    enum class Kind { NulByte, RepeatedKey, Syntax };
    Kind kind;
    std::string key;      // RepeatedKey: the key, as the text spells it once unescaped
    std::string reason;   // Syntax: nlohmann's reason without its "[json.exception...]" tag, printable
    StrictJsonError(Kind k, const std::string &what, std::string key_ = {}, std::string reason_ = {})
        : std::runtime_error(what), kind(k), key(std::move(key_)), reason(std::move(reason_)) {}
};

// The JSON value of `text`; StrictJsonError at the first NUL byte, repeated key or syntax error.
nlohmann::json parse_strict_json(const std::string &text);

// An nlohmann-json exception's message without its "[json.exception.parse_error.101] " tag.
std::string json_exception_reason(const std::exception &e);

}  // namespace halogen
