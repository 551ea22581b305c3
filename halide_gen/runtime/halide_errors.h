// Halide's run-time errors as messages for halogen's exceptions: the AOT kernels' runtime and each
// compiled kernel library's own runtime report through record_halide_error (installed as their
// error handler); the call that failed reads the message into the Error it throws.
#pragma once

#include <string>

namespace halogen {

void record_halide_error(void *user_context, const char *message);
std::string last_halide_error();   // the last message recorded

}  // namespace halogen
