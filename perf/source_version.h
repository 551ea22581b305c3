// The source version a benchmark run measured ("git describe --always --dirty" of the checkout
// the binary was built from), recorded in every run's JSON.
#pragma once

#include <string>

namespace halogen::perf {

std::string source_version();   // "unknown" when git or the checkout is not there

}  // namespace halogen::perf
