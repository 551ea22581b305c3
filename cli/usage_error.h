// One line for a command-line mistake CLI11 finds, as every other error is one line. Where a
// command needs a subcommand, the line names the word given in its place and the commands it
// takes ("halogen: 'foo' is not a command of halogen (seed, groups, ...)"), not CLI11's "A
// subcommand is required".
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace halogen {

// The line for `e`, raised while `app` (the program, halogen) parsed its arguments.
std::string usage_error(const CLI::App &app, const CLI::Error &e);

}  // namespace halogen
