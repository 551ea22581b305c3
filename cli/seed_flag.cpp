// --seed (seed_flag.h).
#include "cli/seed_flag.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <random>

#include "frontend/errors.h"

namespace halogen {

namespace {

bool parse_seed(const std::string &text, uint64_t &out) {
    if (text.empty() || text[0] < '0' || text[0] > '9') return false;   // strtoull would take "-2" as 2^64 - 2
    char *end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
    if (errno != 0 || end != text.c_str() + text.size()) return false;
    out = v;
    return true;
}

}  // namespace

void add_seed_flag(CLI::App &command, std::string &text, const std::string &help) {
    command.add_option("--seed", text, help + " (-1: a random seed, printed on stderr)")
        ->default_val("0")
        ->check(CLI::Validator(
            [](std::string &t) -> std::string {
                uint64_t v = 0;
                if (t == "-1" || parse_seed(t, v)) return "";
                return fmt::format("must be -1 (a random seed) or an integer from 0 to {}, got '{}'", UINT64_MAX, t);
            },
            "SEED"));
}

uint64_t resolve_seed(const std::string &command, const std::string &text) {
    uint64_t seed = 0;
    if (parse_seed(text, seed)) return seed;
    if (text != "-1") throw Error(fmt::format("{}: --seed '{}' is not a seed", command, text));
    std::random_device device;
    seed = (uint64_t(device()) << 32) | uint64_t(device());
    std::cerr << fmt::format("{}: seed: {}\n", command, seed) << std::flush;
    return seed;
}

}  // namespace halogen
