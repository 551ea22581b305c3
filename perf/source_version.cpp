// The source version of a run (source_version.h), asked of git at run time so that a binary built
// before a commit does not report the old one.
#include "perf/source_version.h"

#include <cstdio>

namespace halogen::perf {

std::string source_version() {
    std::string out;
    if (FILE *p = popen("git -C \"" HALOGEN_SOURCE_DIR "\" describe --always --dirty 2>/dev/null", "r")) {
        char buf[128];
        while (fgets(buf, sizeof buf, p)) out += buf;
        pclose(p);
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out.empty() ? "unknown" : out;
}

}  // namespace halogen::perf
