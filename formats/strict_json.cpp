// A JSON text parsed with nlohmann-json, a NUL byte and a key repeated in one object rejected
// (see strict_json.h).
#include "formats/strict_json.h"

#include <fmt/format.h>

#include <set>
#include <vector>

#include "formats/printable_text.h"

namespace halogen {

nlohmann::json parse_strict_json(const std::string &text) {
    using json = nlohmann::json;
    using Kind = StrictJsonError::Kind;
    if (const size_t nul = text.find('\0'); nul != std::string::npos) {
        throw StrictJsonError(Kind::NulByte, fmt::format("not valid JSON (NUL byte at {})", nul));
    }
    std::vector<std::set<std::string>> keys;   // of each object being parsed, innermost last
    auto unique_keys = [&keys](int, json::parse_event_t event, json &parsed) {
        if (event == json::parse_event_t::object_start) keys.emplace_back();
        if (event == json::parse_event_t::object_end) keys.pop_back();
        if (event == json::parse_event_t::key && !keys.back().insert(parsed.get<std::string>()).second) {
            const std::string key = parsed.get<std::string>();
            throw StrictJsonError(Kind::RepeatedKey, fmt::format("key '{}' appears twice", printable_text(key)), key);
        }
        return true;
    };
    try {
        return json::parse(text, unique_keys);
    } catch (const json::exception &e) {
        const std::string reason = printable_text(json_exception_reason(e), 160);
        throw StrictJsonError(Kind::Syntax, "not valid JSON: " + reason, {}, reason);
    }
}

std::string json_exception_reason(const std::exception &e) {
    const std::string what = e.what();
    const size_t tag_end = what.find("] ");
    return tag_end == std::string::npos ? what : what.substr(tag_end + 2);
}

}  // namespace halogen
