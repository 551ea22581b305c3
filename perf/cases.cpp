// The benchmark grid (cases.h).
#include "perf/cases.h"

#include <fmt/format.h>

#include "frontend/errors.h"
#include "schedules/registry.h"

namespace halogen::perf {

namespace {

std::vector<BenchCase> cases_for(const std::string &use, bool every_variant) {
    std::vector<BenchCase> out;
    for (const Family &f : families()) {
        for (Case &c : f.cases({})) {
            if (!c.uses.count(use)) continue;
            BenchCase b;
            b.name = fmt::format("{}:{}", c.family, c.label);
            b.reference = default_variant(f.name).name;
            if (every_variant) {
                for (const Variant &v : variants_of(f.name)) b.variants.push_back(v.name);
            } else {
                b.variants = {b.reference};
                if (use == "goal") b.variants.insert(b.variants.end(), c.goal_variants.begin(), c.goal_variants.end());
            }
            b.spec = std::move(c);
            out.push_back(std::move(b));
        }
    }
    return out;
}

}  // namespace

std::vector<BenchCase> benchmark_grid(bool quick) { return quick ? cases_for("quick", false) : cases_for("perf", true); }
std::vector<BenchCase> goals_grid() { return cases_for("goal", false); }
std::vector<BenchCase> streaming_sweep_grid() { return cases_for("sweep", false); }

BenchCase tiny_case(const std::string &family) {
    for (BenchCase &b : cases_for("tiny", false)) {
        if (b.family() == family) return b;
    }
    throw Error(fmt::format("perf: family '{}' catalogues no tiny case", family));
}

bool goal_reference(const std::string &family, const std::string &impl) {
    if (family == "embedding") return impl == "libtorch:index_select";
    if (family.rfind("conv", 0) == 0) return impl.rfind("onednn:conv (", 0) == 0;
    return impl.find(":reorder") == std::string::npos;
}

}  // namespace halogen::perf
