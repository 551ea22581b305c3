// Replays the chat-template fuzz corpus (tests/support/fuzz_replay.h).
#include <fmt/format.h>

#include "tests/jinja_fuzz/jinja_fuzz_target.h"
#include "tests/support/fuzz_replay.h"

int main(int argc, char **argv) {
    return halogen::fuzz::replay_main(argc, argv, "jinja_fuzz_replay", [] {
        return fmt::format("{} rendered, {} rejected with TemplateError", halogen::jinja_fuzz::rendered(),
                           halogen::jinja_fuzz::rejected());
    });
}
