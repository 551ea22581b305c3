// Seconds since the process started (process_clock.h).
#include "cli/process_clock.h"

#include <time.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace halogen {

double seconds_since_process_start() {
    std::ifstream f("/proc/self/stat");
    std::string stat;
    std::getline(f, stat);
    // Field 22, starttime in clock ticks since boot; fields from 3 on follow the ')' that ends the command name.
    const auto close = stat.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream rest(stat.substr(close + 2));
    std::string field;
    for (int i = 3; i < 22 && (rest >> field); ++i) {
    }
    unsigned long long start_ticks = 0;
    if (!(rest >> start_ticks)) return 0;
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    const double ticks = double(sysconf(_SC_CLK_TCK));
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9 - double(start_ticks) / ticks;
}

}  // namespace halogen
