// The last Halide run-time error (halide_errors.h).
#include "halide_gen/runtime/halide_errors.h"

#include <mutex>

namespace halogen {

namespace {
std::mutex error_mutex;
std::string last_error;
}  // namespace

void record_halide_error(void *, const char *message) {
    const std::lock_guard<std::mutex> lock(error_mutex);
    last_error = message;
}

std::string last_halide_error() {
    const std::lock_guard<std::mutex> lock(error_mutex);
    return last_error;
}

}  // namespace halogen
