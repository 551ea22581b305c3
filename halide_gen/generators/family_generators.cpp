// The Halide generators: one per family, the variant chosen by a GeneratorParam. CMake runs them
// at build time (add_halide_library, one library per family and variant). Inputs are declared
// with their rank; every extent is read from the buffers at run time.
#include "halide_gen/generators/family_generator.h"

#include "frontend/errors.h"
#include "halide_gen/autoschedule.h"

namespace halogen {
namespace {

using Halide::Buffer;
using Halide::Expr;
using Halide::Func;

// Extents of an input in halogen axis order (Halide's dims are reversed).
template <typename In> std::vector<Expr> extents(const In &in) {
    std::vector<Expr> out;
    for (int h = in.dimensions() - 1; h >= 0; --h) out.push_back(in.dim(h).extent());
    return out;
}

// The generator's inputs by name, with their extents. With `clamped`, each input is read through
// repeat_edge: the autoschedulers tile intermediate Funcs with ShiftInwards, and below a tile's
// size that asks for input points outside the buffer (Halide's bounds check then rejects the
// call, e.g. `ids` at -7 for T = 1). Those points never reach an output point, so clamping them
// changes no result and lets an autoscheduled kernel take every extent the hand variants take.
template <typename... In>
std::map<std::string, std::pair<Func, std::vector<Expr>>> collect(bool clamped, In &...in) {
    std::map<std::string, std::pair<Func, std::vector<Expr>>> out;
    ((out[in.name()] = {clamped ? Halide::BoundaryConditions::repeat_edge(in) : Func(in), extents(in)}), ...);
    return out;
}

// One generator per family: declare the inputs, then build the chosen variant. A hand variant
// carries its schedule; an autoscheduled one gets its estimates, then its autoscheduler. A
// streamed twin's schedule may prefetch its inputs (ExternalInputs::prefetchable).
template <typename Out, typename... In>
void generate_family(Out &out, const std::string &variant, const Halide::Target &target, const std::string &family,
                     bool streamed, In &...in) {
    const std::string &autoscheduler = find_variant(family, variant).autoscheduler;
    std::map<std::string, Halide::ImageParam> prefetchable;
    if (streamed) ((prefetchable[in.name()] = Halide::ImageParam(in)), ...);
    Func f = build_for_generator(family, variant, collect(!autoscheduler.empty(), in...), target, prefetchable);
    if (!autoscheduler.empty()) {
        auto estimates = family_estimates(make_family(family), typical_extents(family));
        (in.set_estimates(estimates.at(in.name())), ...);
        f.set_estimates(estimates.at(""));
        autoschedule(f, autoscheduler, target);
    }
    out = f;
}

// The generator framework's own auto_schedule would run after generate(), too late to guard the
// output's tails (halide_gen/autoschedule.h), so the generators call the autoscheduler themselves.
// `streamed` builds a variant's streamed twin: the same pipeline, its schedule free to prefetch
// inputs, and halogen.generator's main rewrites the compiled stores and prefetches
// (generator_main.cpp).
#define HALOGEN_GENERATE(family, ...)                                                                    \
    Halide::GeneratorParam<bool> streamed{"streamed", false};                                          \
    void generate() {                                                                                  \
        if (this->auto_schedule) {                                                                     \
            throw halogen::Error(std::string(family) + ": leave auto_schedule false; the variant names the autoscheduler"); \
        }                                                                                              \
        generate_family(out, variant, this->get_target(), family, streamed, __VA_ARGS__);              \
    }

class EmbeddingGenerator : public Halide::Generator<EmbeddingGenerator> {
public:
    GeneratorParam<std::string> variant{"variant", "gather"};
    Input<Buffer<int32_t>> ids{"ids", 1};
    Input<Buffer<float>> weight{"weight", 2};
    Output<Buffer<float>> out{"out", 2};
    HALOGEN_GENERATE("embedding", ids, weight)
};

class LayerNormGenerator : public Halide::Generator<LayerNormGenerator> {
public:
    GeneratorParam<std::string> variant{"variant", "fused"};
    Input<Buffer<float>> x{"x", 2}, weight{"weight", 1}, bias{"bias", 1};
    Output<Buffer<float>> out{"out", 2};
    HALOGEN_GENERATE("layernorm", x, weight, bias)
};

class RmsNormGenerator : public Halide::Generator<RmsNormGenerator> {
public:
    GeneratorParam<std::string> variant{"variant", "fused"};
    Input<Buffer<float>> x{"x", 2}, weight{"weight", 1};
    Output<Buffer<float>> out{"out", 2};
    HALOGEN_GENERATE("rmsnorm", x, weight)
};

class BatchNormGenerator : public Halide::Generator<BatchNormGenerator> {
public:
    GeneratorParam<std::string> variant{"variant", "fused"};
    Input<Buffer<float>> x{"x", 3}, mean{"mean", 1}, var{"var", 1}, weight{"weight", 1}, bias{"bias", 1};
    Output<Buffer<float>> out{"out", 3};
    HALOGEN_GENERATE("batchnorm", x, mean, var, weight, bias)
};

class GroupNormGenerator : public Halide::Generator<GroupNormGenerator> {
public:
    GeneratorParam<std::string> variant{"variant", "fused"};
    Input<Buffer<float>> x{"x", 4}, weight{"weight", 2}, bias{"bias", 2};
    Output<Buffer<float>> out{"out", 4};
    HALOGEN_GENERATE("groupnorm", x, weight, bias)
};

template <int Rank> class ConvGenerator : public Halide::Generator<ConvGenerator<Rank>> {
public:
    template <typename T> using Input = typename Halide::Generator<ConvGenerator<Rank>>::template Input<T>;
    template <typename T> using Output = typename Halide::Generator<ConvGenerator<Rank>>::template Output<T>;
    Halide::GeneratorParam<std::string> variant{"variant", "tiled"};
    Input<Buffer<float>> x{"x", Rank + 2}, weight{"weight", Rank + 2}, bias{"bias", 1};
    Output<Buffer<float>> out{"out", Rank + 2};
    HALOGEN_GENERATE("conv" + std::to_string(Rank) + "d", x, weight, bias)
};

}  // namespace
}  // namespace halogen

HALIDE_REGISTER_GENERATOR(halogen::EmbeddingGenerator, embedding)
HALIDE_REGISTER_GENERATOR(halogen::LayerNormGenerator, layernorm)
HALIDE_REGISTER_GENERATOR(halogen::RmsNormGenerator, rmsnorm)
HALIDE_REGISTER_GENERATOR(halogen::BatchNormGenerator, batchnorm)
HALIDE_REGISTER_GENERATOR(halogen::GroupNormGenerator, groupnorm)
HALIDE_REGISTER_GENERATOR(halogen::ConvGenerator<1>, conv1d)
HALIDE_REGISTER_GENERATOR(halogen::ConvGenerator<2>, conv2d)
HALIDE_REGISTER_GENERATOR(halogen::ConvGenerator<3>, conv3d)
