// The sampler (sampling.h).
#include "models/llama/sampling.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_set>

#include "frontend/errors.h"

namespace halogen {

namespace {

// The repetition penalty on a copy of the logits.
std::vector<float> penalized(const std::vector<float> &logits, const std::vector<int32_t> &history,
                             const SamplingOptions &o) {
    std::vector<float> out = logits;
    if (o.repeat_penalty == 1 || o.repeat_last_n == 0) return out;
    const auto n = std::min<int64_t>(o.repeat_last_n, int64_t(history.size()));
    std::unordered_set<int32_t> seen(history.end() - n, history.end());
    const auto penalty = float(o.repeat_penalty);
    for (int32_t id : seen) {
        if (id < 0 || size_t(id) >= out.size()) continue;
        float &l = out[size_t(id)];
        l = l < 0 ? l * penalty : l / penalty;
    }
    return out;
}

}  // namespace

int32_t argmax(const std::vector<float> &logits) {
    return static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

Sampler::Sampler(const SamplingOptions &options) : options_(options), random_(options.seed) {
    const SamplingOptions &o = options;
    if (!(o.temperature >= 0) || !std::isfinite(o.temperature)) {
        throw ConfigError(fmt::format("sampling: the temperature must be a finite number >= 0, got {}", o.temperature));
    }
    if (!(o.top_p > 0 && o.top_p <= 1)) throw ConfigError(fmt::format("sampling: top-p must be in (0, 1], got {}", o.top_p));
    if (o.top_k < 0) throw ConfigError(fmt::format("sampling: top-k must be >= 0 (0: off), got {}", o.top_k));
    if (!(o.min_p >= 0 && o.min_p <= 1)) throw ConfigError(fmt::format("sampling: min-p must be in [0, 1], got {}", o.min_p));
    if (!(o.repeat_penalty > 0) || !std::isfinite(o.repeat_penalty)) {
        throw ConfigError(fmt::format("sampling: the repeat penalty must be a finite number > 0, got {}", o.repeat_penalty));
    }
    if (o.repeat_last_n < 0) {
        throw ConfigError(fmt::format("sampling: repeat-last-n must be >= 0, got {}", o.repeat_last_n));
    }
}

int32_t Sampler::pick(const std::vector<float> &raw, const std::vector<int32_t> &history) {
    const std::vector<float> logits = penalized(raw, history, options_);
    if (options_.temperature == 0 || logits.size() < 2) return argmax(logits);
    // The tokens by logit, the largest first (the first of equal ones first).
    std::vector<int32_t> order(logits.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return logits[a] > logits[b]; });
    size_t keep = order.size();
    if (options_.top_k > 0 && size_t(options_.top_k) < keep) {   // ties with the k-th stay
        const float kth = logits[order[size_t(options_.top_k) - 1]];
        keep = size_t(options_.top_k);
        while (keep < order.size() && logits[order[keep]] >= kth) ++keep;
    }
    // Probabilities of logits / temperature over what is kept, in double.
    const double top = logits[order[0]];
    std::vector<double> p(keep);
    for (size_t k = 0; k < keep; ++k) p[k] = std::exp((double(logits[order[k]]) - top) / options_.temperature);
    double total = std::accumulate(p.begin(), p.end(), 0.0);
    if (options_.top_p < 1) {   // the shortest prefix whose mass reaches top_p
        size_t n = 0;
        double mass = 0;
        while (n < keep && (n == 0 || mass < options_.top_p * total)) mass += p[n++];
        keep = n;
        total = mass;
    }
    if (options_.min_p > 0) {   // p[0] is the largest: 1 before normalizing
        size_t n = 1;
        while (n < keep && p[n] / total >= options_.min_p * p[0] / total) ++n;
        keep = n;
        total = std::accumulate(p.begin(), p.begin() + long(keep), 0.0);
    }
    double draw = std::uniform_real_distribution<double>(0, total)(random_);
    for (size_t k = 0; k < keep; ++k) {
        draw -= p[k];
        if (draw < 0) return order[k];
    }
    return order[keep - 1];
}

}  // namespace halogen
