// Text out of a model (text_generation.h).
#include "models/llama/text_generation.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "tokenizer/stream_decoder.h"

namespace halogen {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Text waiting to be given out: complete characters that might still turn into a stop string.
class Outbox {
public:
    Outbox(const std::vector<std::string> &stops, std::string &given, const std::function<void(std::string_view)> &out)
        : stops_(stops), given_(given), out_(out) {}

    // Adds text; true when a stop string appeared (the text before it was given out).
    bool add(const std::string &text) {
        held_ += text;
        size_t first = std::string::npos;
        for (const std::string &s : stops_) {
            if (s.empty()) continue;
            first = std::min(first, held_.find(s));
        }
        if (first != std::string::npos) {
            give(held_.substr(0, first));
            held_.clear();
            return true;
        }
        const size_t wait = stop_prefix_length(held_, stops_);
        give(held_.substr(0, held_.size() - wait));
        held_.erase(0, held_.size() - wait);
        return false;
    }

    void flush() {
        give(held_);
        held_.clear();
    }

private:
    void give(const std::string &text) {
        if (text.empty()) return;
        given_ += text;
        if (out_) out_(text);
    }

    const std::vector<std::string> &stops_;
    std::string &given_;
    const std::function<void(std::string_view)> &out_;
    std::string held_;
};

}  // namespace

const char *finish_reason_name(FinishReason r) {
    switch (r) {
    case FinishReason::length: return "length";
    case FinishReason::eos: return "eos";
    case FinishReason::stop: return "stop";
    case FinishReason::context: return "context";
    }
    return "?";
}

size_t stop_prefix_length(std::string_view text, const std::vector<std::string> &stops) {
    size_t longest = 0;
    for (const std::string &s : stops) {
        for (size_t n = std::min(s.size() - (s.empty() ? 0 : 1), text.size()); n > longest; --n) {
            if (text.substr(text.size() - n) == std::string_view(s).substr(0, n)) {
                longest = n;
                break;
            }
        }
    }
    return longest;
}

Generation generate_text(TokenStep &model, const Tokenizer *tokenizer, Sampler &sampler,
                         const std::vector<int32_t> &prompt, std::vector<int32_t> &history,
                         const GenerationOptions &o, const std::function<void(std::string_view)> &on_text) {
    Generation g;
    if (prompt.empty()) throw ShapeError("generation: the prompt has no ids");
    if (!tokenizer && !o.stop.empty()) throw Error("generation: stop strings need the model's tokenizer");
    if (model.position() + int64_t(prompt.size()) > model.context()) {
        throw ShapeError(fmt::format("generation: a prompt of {} ids at position {} does not fit the context of {}",
                                     prompt.size(), model.position(), model.context()));
    }
    const auto t0 = Clock::now();
    std::vector<float> logits = model.step(prompt);
    history.insert(history.end(), prompt.begin(), prompt.end());
    g.prefill_seconds = seconds_since(t0);

    std::unique_ptr<StreamDecoder> decoder;
    if (tokenizer) decoder = std::make_unique<StreamDecoder>(*tokenizer, o.skip_special_tokens);
    Outbox outbox(o.stop, g.text, on_text);
    const auto t1 = Clock::now();
    for (int64_t k = 0;; ++k) {
        if (k == o.max_new) {
            g.finish = FinishReason::length;
            break;
        }
        const int32_t id = sampler.pick(logits, history);
        if (k == 0) g.first_pick = Clock::now();
        g.new_ids.push_back(id);
        history.push_back(id);
        if (!o.ignore_eos && std::find(o.end_ids.begin(), o.end_ids.end(), id) != o.end_ids.end()) {
            g.finish = FinishReason::eos;
            break;
        }
        if (decoder && outbox.add(decoder->push(id))) {
            g.finish = FinishReason::stop;
            break;
        }
        if (k + 1 == o.max_new) {
            g.finish = FinishReason::length;
            break;
        }
        if (model.position() >= model.context()) {   // no room for this id's step
            g.finish = FinishReason::context;
            break;
        }
        logits = model.step({id});
        ++g.decoded;
    }
    if (decoder && g.finish != FinishReason::stop && outbox.add(decoder->finish())) g.finish = FinishReason::stop;
    if (g.finish != FinishReason::stop) outbox.flush();
    g.decode_seconds = seconds_since(t1);
    return g;
}

}  // namespace halogen
