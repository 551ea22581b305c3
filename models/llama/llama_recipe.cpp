// The llama recipe (llama_recipe.h).
#include "models/llama/llama_recipe.h"

#include "frontend/nn/attention.h"
#include "frontend/nn/linear.h"
#include "halide_gen/compiler/schedule.h"
#include "schedules/attention/attention.h"
#include "schedules/matmul/matmul.h"

namespace halogen {

Recipe llama_recipe(bool decode_attention) {
    Recipe r;
    r.name = decode_attention ? "llama (decode attention)" : "llama";   // a name per schedule: recipe.h
    r.rewrite_one_hot = true;
    // The matmul schedule computes whole register tiles at the edges, reading rows past the end
    // clamped (Recipe::clamp_inputs); every other schedule reads the same values either way.
    r.clamp_inputs = true;
    r.schedule = [decode_attention](LoweredGraph &lg, const Halide::Target &target) {
        // The projections with their prologue and epilogue, the attention, the embedding.
        if (lg.has_func(nn::names::kLinearSum)) return matmuls::projections(lg, target);
        if (lg.has_func(nn::names::kAttnScores)) {
            return decode_attention ? attention::decode(lg, target) : attention::fused(lg, target);
        }
        apply_schedule(lg, "simd", target);
    };
    return r;
}

}  // namespace halogen
