// Replays the GGUF fuzz corpus (tests/support/fuzz_replay.h).
#include <fmt/format.h>

#include "tests/gguf_fuzz/gguf_fuzz_target.h"
#include "tests/support/fuzz_replay.h"

int main(int argc, char **argv) {
    return halogen::fuzz::replay_main(argc, argv, "gguf_fuzz_replay", [] {
        return fmt::format("{} opened, {} rejected with FormatError, {} tensors decoded", halogen::gguf_fuzz::opened(),
                           halogen::gguf_fuzz::rejected(), halogen::gguf_fuzz::blocks_decoded());
    });
}
