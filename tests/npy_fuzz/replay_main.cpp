// Replays the .npy fuzz corpus (tests/support/fuzz_replay.h).
#include <fmt/format.h>

#include "tests/npy_fuzz/npy_fuzz_target.h"
#include "tests/support/fuzz_replay.h"

int main(int argc, char **argv) {
    return halogen::fuzz::replay_main(argc, argv, "npy_fuzz_replay", [] {
        return fmt::format("{} parsed, {} rejected with NpyError", halogen::npy_fuzz::parsed(),
                           halogen::npy_fuzz::rejected());
    });
}
