// The corpus replay driver every fuzz target shares (fuzz_replay.cpp): feeds every file named on
// the command line (every regular file, sorted, for a directory) to LLVMFuzzerTestOneInput, which
// aborts on a crash. Built with the project's toolchain, so a corpus runs in the normal and the
// sanitizer build; libFuzzer builds of the same targets (scripts/fuzz_*.sh) find new inputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace halogen::fuzz {

// Replays argv[1..] and prints "<name>: N files replayed, <summary()>, 0 crashes". Returns the
// process's exit code: 0, or 2 for a missing or unreadable file or nothing to replay.
int replay_main(int argc, char **argv, const char *name, const std::function<std::string()> &summary);

}  // namespace halogen::fuzz
