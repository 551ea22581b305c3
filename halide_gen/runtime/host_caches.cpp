// The last-level cache size from sysfs (host_caches.h).
#include "halide_gen/runtime/host_caches.h"

#include <fstream>
#include <string>

#include <fmt/format.h>

namespace halogen {

int64_t last_level_cache_bytes() {
    int64_t best_level = 0, bytes = 0;
    for (int index = 0; index < 8; ++index) {
        const std::string dir = fmt::format("/sys/devices/system/cpu/cpu0/cache/index{}/", index);
        std::ifstream level_file(dir + "level"), size_file(dir + "size");
        int64_t level = 0, size = 0;
        std::string unit;
        if (!(level_file >> level) || !(size_file >> size)) break;
        size_file >> unit;   // "32768K"
        const int64_t scale = unit == "M" ? (1 << 20) : unit == "G" ? (int64_t(1) << 30) : unit == "K" ? 1024 : 1;
        if (level >= best_level) {
            best_level = level;
            bytes = size * scale;
        }
    }
    return bytes;
}

}  // namespace halogen
