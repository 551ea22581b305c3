// The variant registry.
#include "schedules/variants.h"

#include <fmt/format.h>

#include "frontend/errors.h"

namespace halogen {

namespace {

std::vector<Variant> with_autoschedulers(std::vector<Variant> v) {
    v.push_back({"adams2019", "Halide's Adams2019 autoscheduler", false, true, "Adams2019", nullptr});
    v.push_back({"mullapudi2016", "Halide's Mullapudi2016 autoscheduler", false, true, "Mullapudi2016", nullptr});
    v.push_back({"li2018", "Halide's Li2018 autoscheduler", false, true, "Li2018", nullptr});
    return v;
}

std::string family_kind(const std::string &family) {
    if (family == "layernorm" || family == "rmsnorm" || family == "batchnorm" || family == "groupnorm") return "norms";
    if (family == "conv1d" || family == "conv2d" || family == "conv3d") return "conv";
    return family;
}

}  // namespace

const std::vector<Variant> &variants_of(const std::string &family) {
    static const std::vector<Variant> embedding = with_autoschedulers({
        {"onehot", "fused one-hot sum, comparison stored per row: O(T*V*D)", false, true, "", schedule_embedding_onehot},
        {"onehot_permuted", "tokens parallel, vocab as the reduction, dim innermost vectorized: O(T*V*D)", false, true, "",
         schedule_embedding_onehot_permuted},
        {"onehot_inline", "comparison inlined, Halide trims the vocab loop to one row: O(T*D)", false, true, "",
         schedule_embedding_onehot_inline},
        {"gather", "one-hot rewrite to a gather: O(T*D); streaming stores when large", true, true, "",
         schedule_embedding_gather, /*streaming_stores=*/true},
    });
    static const std::vector<Variant> norms = with_autoschedulers({
        {"naive", "one kernel per reduction plus one for the normalization", false, false, "", schedule_norm_naive},
        {"fused", "one kernel, per-row statistics, vectorized, parallel; streaming stores when large", false, true,
         "", schedule_norm_fused, /*streaming_stores=*/true},
    });
    static const std::vector<Variant> conv = with_autoschedulers({
        {"naive", "the fused group, unscheduled", false, true, "", nullptr},
        {"tiled", "channel/spatial register tiles, vectorized, window unrolled, parallel", false, true, "",
         schedule_conv_tiled},
    });
    const std::string kind = family_kind(family);
    if (kind == "embedding") return embedding;
    if (kind == "norms") return norms;
    if (kind == "conv") return conv;
    throw Error(fmt::format("variants: unknown family '{}' (known: embedding, layernorm, rmsnorm, batchnorm, "
                            "groupnorm, conv1d, conv2d, conv3d)",
                            family));
}

const Variant &find_variant(const std::string &family, const std::string &name) {
    const auto &all = variants_of(family);
    for (const Variant &v : all) {
        if (v.name == name) return v;
    }
    std::vector<std::string> names;
    for (const Variant &v : all) names.push_back(v.name);
    throw Error(fmt::format("variants: family '{}' has no variant '{}' (known: {})", family, name, fmt::join(names, ", ")));
}

}  // namespace halogen
