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

}  // namespace halogen::testing
