// Helpers of the llama tests: a temporary directory, and an expectation on an error's one-line
// message.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <functional>
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

// Expects `f` to throw an E whose message is one line starting "<prefix>: " and containing each needle.
template <typename E>
void expect_error(const std::function<void()> &f, const std::string &prefix, std::initializer_list<std::string> needles) {
    try {
        f();
        ADD_FAILURE() << "no error; expected one starting with " << prefix;
    } catch (const E &e) {
        std::string msg = e.what();
        EXPECT_EQ(msg.rfind(prefix + ": ", 0), 0u) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        for (const std::string &needle : needles)
            EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg << "\nexpected to contain: " << needle;
    }
}

}  // namespace halogen_test
