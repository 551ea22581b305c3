// Replays the safetensors fuzz corpus (tests/support/fuzz_replay.h).
#include <fmt/format.h>

#include "tests/safetensors_fuzz/safetensors_fuzz_target.h"
#include "tests/support/fuzz_replay.h"

int main(int argc, char **argv) {
    return halogen::fuzz::replay_main(argc, argv, "safetensors_fuzz_replay", [] {
        return fmt::format("{} parsed, {} rejected with FormatError", halogen::safetensors_fuzz::parsed(),
                           halogen::safetensors_fuzz::rejected());
    });
}
