// The GNU build ids of the code running in this process: the executable's (which holds halogen's
// compiler and schedules) and a shared library's (libHalide). A build id changes whenever the
// linked code changes, so the compile cache (compile_cache.h) keys entries on them.
#pragma once

#include <string>

namespace halogen {

// Hex digits of the build id of the executable, or of the first loaded library whose path holds
// `library` ("libHalide"); when the object has no build id: its path, size and modification time.
std::string executable_build_id();
std::string library_build_id(const std::string &library);

}  // namespace halogen
