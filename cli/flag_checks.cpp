// The command line's number checks (flag_checks.h).
#include "cli/flag_checks.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace halogen {

namespace {

// The whole text as an integer, or false (empty, trailing characters, out of int64's range).
bool parse_integer(const std::string &text, int64_t &out) {
    if (text.empty()) return false;
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno != 0 || end != text.c_str() + text.size()) return false;
    out = v;
    return true;
}

}  // namespace

CLI::Validator at_least(int64_t minimum) {
    return CLI::Validator(
        [minimum](std::string &text) -> std::string {
            int64_t v = 0;
            if (!parse_integer(text, v)) return fmt::format("must be an integer >= {}, got '{}'", minimum, text);
            if (v < minimum) return fmt::format("must be >= {}, got {}", minimum, v);
            return "";
        },
        fmt::format("INT>={}", minimum));
}

CLI::Validator above_zero() {
    return CLI::Validator(
        [](std::string &text) -> std::string {
            char *end = nullptr;
            const double v = text.empty() ? NAN : std::strtod(text.c_str(), &end);
            if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
                return fmt::format("must be a number > 0, got '{}'", text);
            if (v <= 0) return fmt::format("must be a number > 0, got {}", text);
            return "";
        },
        "NUMBER>0");
}

CLI::Validator not_empty() {
    return CLI::Validator(
        [](std::string &text) -> std::string { return text.empty() ? "an empty item in the list" : ""; }, "");
}

}  // namespace halogen
