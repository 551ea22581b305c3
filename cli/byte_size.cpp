// Byte counts on the command line (see byte_size.h).
#include "cli/byte_size.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "frontend/errors.h"

namespace halogen {

uint64_t parse_byte_size(const std::string &text, const std::string &flag) {
    auto bad = [&](const std::string &why) {
        return Error(fmt::format("{}: '{}' {} (bytes, or e.g. 2GB, 500MB, 1GiB)", flag, text, why));
    };
    size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
    if (digits == 0) throw bad("is not a byte count");
    std::string unit = text.substr(digits);
    std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    static const std::vector<std::pair<std::string, uint64_t>> units = {
        {"", 1}, {"B", 1}, {"KB", 1000}, {"MB", 1000'000}, {"GB", 1000'000'000}, {"TB", 1000'000'000'000},
        {"KIB", 1ull << 10}, {"MIB", 1ull << 20}, {"GIB", 1ull << 30}, {"TIB", 1ull << 40}};
    auto it = std::find_if(units.begin(), units.end(), [&](const auto &u) { return u.first == unit; });
    if (it == units.end()) throw bad("has no unit halogen knows");
    uint64_t n = 0;
    for (size_t i = 0; i < digits; ++i)
        if (__builtin_mul_overflow(n, 10u, &n) || __builtin_add_overflow(n, uint64_t(text[i] - '0'), &n))
            throw bad("is more than 2^64 bytes");
    if (__builtin_mul_overflow(n, it->second, &n)) throw bad("is more than 2^64 bytes");
    if (n == 0) throw bad("is not positive");
    return n;
}

std::string format_byte_size(uint64_t bytes) {
    static const char *names[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 999.5 && u < 6) {
        v /= 1000;
        ++u;
    }
    if (u == 0) return fmt::format("{} B", bytes);
    return fmt::format("{:.{}f} {}", v, v < 9.995 ? 2 : v < 99.95 ? 1 : 0, names[u]);
}

}  // namespace halogen
