// Seconds since this process started, as the kernel counts it (from /proc/self/stat's start time,
// so the dynamic loading before main counts too; 10 ms resolution). The llama commands report
// their time to first token from it.
#pragma once

namespace halogen {

double seconds_since_process_start();

}  // namespace halogen
