// The llama recipe (llama_recipe.h).
#include "models/llama/llama_recipe.h"

#include "halide_gen/compiler/schedule.h"
#include "schedules/attention/attention.h"
#include "schedules/matmul/matmul.h"

namespace halogen {

Recipe llama_recipe(bool decode_attention) {
    Recipe r;
    r.name = "llama";
    r.rewrite_one_hot = true;
    // The matmul schedule computes whole register tiles at the edges, reading rows past the end
    // clamped (Recipe::clamp_inputs); every other schedule reads the same values either way.
    r.clamp_inputs = true;
    r.schedule = [decode_attention](LoweredGraph &lg, const Halide::Target &target) {
        if (lg.has_func("linear_sum")) return matmuls::projections(lg, target);   // with their prologue and epilogue
        if (lg.has_func("attn_scores")) {                                         // the attention
            return decode_attention ? attention::decode(lg, target) : attention::fused(lg, target);
        }
        apply_schedule(lg, "simd", target);                               // the embedding
    };
    return r;
}

}  // namespace halogen
