// The --threads flag (threads_flag.h).
#include "cli/threads_flag.h"

#include <iostream>

#include <fmt/format.h>

#include "cli/flag_checks.h"
#include "halide_gen/runtime/kernel_pool.h"

namespace halogen {

CLI::Option *add_threads_flag(CLI::App &command, int &threads) {
    return command.add_option("--threads", threads, "threads the kernels run on, at most one per core (default: one per core)")
        ->check(at_least(1));
}

int resolve_threads(const std::string &command, int asked) {
    const int cores = host_cores();
    if (asked <= 0) return cores;
    if (asked > cores) {
        std::cerr << fmt::format("{}: --threads {} is more than the {} cores this process may run on; running {}\n",
                                 command, asked, cores, cores);
        return cores;
    }
    return asked;
}

int use_threads(const std::string &command, int asked) {
    const int n = resolve_threads(command, asked);
    set_kernel_threads(n);
    return n;
}

}  // namespace halogen
