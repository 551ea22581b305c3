// Linking an object file that Halide compiled (with its runtime) into a shared object the dynamic
// loader can open, with the system's C compiler driver: $HALOGEN_LINKER, else `cc` on the PATH.
#pragma once

#include <string>

namespace halogen {

// Links `object` into `shared_object`. Returns an empty string, or why it failed (no linker, the
// linker's own message).
std::string link_shared_object(const std::string &object, const std::string &shared_object);

}  // namespace halogen
