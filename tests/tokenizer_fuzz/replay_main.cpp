// Replays the tokenizer fuzz corpus (tests/support/fuzz_replay.h).
#include <fmt/format.h>

#include "tests/support/fuzz_replay.h"
#include "tests/tokenizer_fuzz/tokenizer_fuzz_target.h"

int main(int argc, char **argv) {
    return halogen::fuzz::replay_main(argc, argv, "tokenizer_fuzz_replay", [] {
        namespace t = halogen::tokenizer_fuzz;
        return fmt::format("{} tokenizer.json read, {} rejected with FormatError, {} texts encoded", t::files_read(),
                           t::files_rejected(), t::texts_encoded());
    });
}
