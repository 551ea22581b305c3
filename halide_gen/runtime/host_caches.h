// The caches of the machine halogen runs on, as Linux describes them in sysfs
// (/sys/devices/system/cpu/cpu0/cache), which is what lscpu and Google Benchmark report too.
// sysconf(_SC_LEVEL3_CACHE_SIZE) is not used: on a VM it can report a size the CPU does not have
// (320 MiB on the AMD EPYC VM whose sysfs, lscpu and CPUID say 32 MiB).
#pragma once

#include <cstdint>

namespace halogen {

// Bytes of the highest cache level cpu0 has, or 0 when sysfs cannot be read.
int64_t last_level_cache_bytes();

}  // namespace halogen
