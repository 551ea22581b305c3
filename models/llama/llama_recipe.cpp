// The llama recipe (llama_recipe.h).
#include "models/llama/llama_recipe.h"

#include "halide_gen/compiler/schedule.h"

namespace halogen {

Recipe llama_recipe() {
    Recipe r;
    r.name = "llama";
    r.rewrite_one_hot = true;
    r.schedule = [](LoweredGraph &lg, const Halide::Target &target) { apply_schedule(lg, "simd", target); };
    return r;
}

}  // namespace halogen
