// The sampler (sampling.h).
#include "models/llama/sampling.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "frontend/errors.h"

namespace halogen {

int32_t argmax(const std::vector<float> &logits) {
    return static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

Sampler::Sampler(const SamplingOptions &options) : options_(options), random_(options.seed) {
    if (!(options.temperature >= 0) || !std::isfinite(options.temperature)) {
        throw ConfigError(fmt::format("sampling: the temperature must be a finite number >= 0, got {}", options.temperature));
    }
    if (!(options.top_p > 0 && options.top_p <= 1)) {
        throw ConfigError(fmt::format("sampling: top-p must be in (0, 1], got {}", options.top_p));
    }
}

int32_t Sampler::pick(const std::vector<float> &logits) {
    if (options_.temperature == 0 || logits.size() < 2) return argmax(logits);
    // Probabilities of logits / temperature, in double, the largest first.
    const double top = *std::max_element(logits.begin(), logits.end());
    std::vector<double> p(logits.size());
    for (size_t k = 0; k < p.size(); ++k) p[k] = std::exp((double(logits[k]) - top) / options_.temperature);
    const double total = std::accumulate(p.begin(), p.end(), 0.0);
    std::vector<int32_t> order(p.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return p[a] > p[b]; });
    // The nucleus: the shortest prefix whose mass reaches top_p (at least one token).
    size_t keep = 0;
    double mass = 0;
    while (keep < order.size() && (keep == 0 || mass < options_.top_p * total)) mass += p[order[keep++]];
    double draw = std::uniform_real_distribution<double>(0, mass)(random_);
    for (size_t k = 0; k < keep; ++k) {
        draw -= p[order[k]];
        if (draw < 0) return order[k];
    }
    return order[keep - 1];
}

}  // namespace halogen
