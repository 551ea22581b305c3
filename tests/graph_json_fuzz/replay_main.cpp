// Replays the JSON graph fuzz corpus (tests/support/fuzz_replay.h).
#include <fmt/format.h>

#include "tests/graph_json_fuzz/graph_json_fuzz_target.h"
#include "tests/support/fuzz_replay.h"

int main(int argc, char **argv) {
    return halogen::fuzz::replay_main(argc, argv, "graph_json_fuzz_replay", [] {
        return fmt::format("{} parsed and grouped, {} rejected with a halogen::Error",
                           halogen::graph_json_fuzz::grouped(), halogen::graph_json_fuzz::rejected());
    });
}
