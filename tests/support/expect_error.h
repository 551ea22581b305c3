// expect_error<E>(fn, parts): fn must throw an E (not merely some exception) whose message
// contains every string of `parts` -- the project's rule that errors are typed and name the op
// and the shapes.
#pragma once

#include <exception>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace halogen::testing {

template <typename E, typename Fn> void expect_error(Fn fn, const std::vector<std::string> &parts) {
    try {
        fn();
        ADD_FAILURE() << "no exception";
    } catch (const E &e) {
        const std::string msg = e.what();
        for (const auto &p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    } catch (const std::exception &e) {
        ADD_FAILURE() << "wrong exception type, message: " << e.what();
    }
}

// The same, and the message is one line starting "<prefix>: " (the file or checkpoint it names).
template <typename E, typename Fn>
void expect_one_line_error(Fn fn, const std::string &prefix, const std::vector<std::string> &parts) {
    try {
        fn();
        ADD_FAILURE() << "no exception; expected one starting with " << prefix;
    } catch (const E &e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind(prefix + ": ", 0), 0u) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
        for (const auto &p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    } catch (const std::exception &e) {
        ADD_FAILURE() << "wrong exception type, message: " << e.what();
    }
}

}  // namespace halogen::testing
