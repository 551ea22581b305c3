// Command-line mistakes as one line (usage_error.h).
#include "cli/usage_error.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

namespace halogen {

namespace {

// The innermost command given that needs a subcommand and has none, or null.
const CLI::App *missing_subcommand(const CLI::App &app, std::string &path) {
    const CLI::App *at = &app;
    path = "halogen";
    for (;;) {
        const std::vector<CLI::App *> given = at->get_subcommands();
        if (given.empty()) break;
        at = given.front();
        path += " " + at->get_name();
    }
    return at->get_require_subcommand_min() > 0 && at->get_subcommands().empty() ? at : nullptr;
}

}  // namespace

std::string usage_error(const CLI::App &app, const CLI::Error &e) {
    std::string path;
    const CLI::App *command = dynamic_cast<const CLI::RequiredError *>(&e) ? missing_subcommand(app, path) : nullptr;
    if (command == nullptr) return fmt::format("halogen: {} (see halogen --help)\n", e.what());
    std::vector<std::string> names;
    for (const CLI::App *sub : command->get_subcommands([](const CLI::App *) { return true; })) {
        names.push_back(sub->get_name());
    }
    std::string word;
    for (const std::string &w : app.remaining(true)) {
        if (!w.empty() && w[0] != '-') {
            word = w;
            break;
        }
    }
    if (word.empty()) {
        const std::string who = command == &app ? "a command is needed" : command->get_name() + " needs a command";
        return fmt::format("halogen: {}: {} (see {} --help)\n", who, fmt::join(names, ", "), path);
    }
    return fmt::format("halogen: '{}' is not a command of {} (it takes {}; see {} --help)\n", word, path,
                       fmt::join(names, ", "), path);
}

}  // namespace halogen
