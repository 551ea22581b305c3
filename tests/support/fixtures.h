// Golden fixtures made by PyTorch (tests/fixtures/generate.py): one JSON file per case, loaded
// into halogen Arrays. A malformed file raises FixtureError naming the file and what is wrong.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "frontend/halogen.h"

namespace halogen::testing {

struct FixtureError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Fixture {
    std::string path;
    std::string name;
    std::string op;
    nlohmann::json params;          // an object; {} when the file has none
    Inputs inputs;                  // name -> array, in the fixture's shapes
    Array output;
    double atol = 0, rtol = 0;

    // The fixture's "symbolic" entry for `input`: one symbol name (or "" for a constant axis) per
    // axis; empty when the input has no symbolic axes.
    std::vector<std::string> symbolic_axes(const std::string &input) const;
};

// Parses one fixture file; FixtureError on unreadable files, invalid JSON, missing or mistyped fields,
// data whose length does not match its shape, or values that do not fit the dtype.
Fixture load_fixture(const std::string &path);

// Every *.json file in `dir`, sorted by name (FixtureError if `dir` cannot be read).
std::vector<std::string> fixture_files(const std::string &dir);

}  // namespace halogen::testing
