// Helpers of the llama tests: a temporary directory.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace halogen_test {

// A temporary directory, removed with everything in it.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "halogen_llama_XXXXXX").string();
        path = mkdtemp(tmpl.data());
    }
    ~TempDir() { std::filesystem::remove_all(path); }
    std::string str() const { return path.string(); }
    std::string file(const std::string &name) const { return (path / name).string(); }
};

}  // namespace halogen_test
