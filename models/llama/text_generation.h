// Text out of a model: new ids picked by a sampler after a prompt, decoded into text as they come,
// until an end id, a stop string, the count asked for, or the end of the context. What runs the
// steps is any TokenStep (the compiled model, llama_model.h, or the reference model,
// llama_reference.h), so generation is tested without compiling anything.
//
// The text goes out as it is complete: a token that ends in the middle of a UTF-8 character waits
// for the next (tokenizer/stream_decoder.h), and text that might be the start of a stop string
// waits until it is known not to be (as OpenAI's API and llama.cpp's server, the stop string
// itself is never given out). An end id ends generation and is not decoded; it is the last of
// the new ids. Special tokens the model picks otherwise are decoded (shown) unless asked not to.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "models/llama/sampling.h"
#include "tokenizer/tokenizer.h"

namespace halogen {

// What generation needs of a model: steps that append ids at the model's position and give the
// last one's logits, and the position, the context and going back to an earlier position (the
// cache beyond it is forgotten: a conversation's later turns reuse what their text shares).
class TokenStep {
public:
    virtual ~TokenStep() = default;
    virtual std::vector<float> step(const std::vector<int32_t> &ids) = 0;
    virtual int64_t position() const = 0;
    virtual int64_t context() const = 0;
    virtual void rewind(int64_t position) = 0;   // ShapeError past the current position
};

enum class FinishReason { length, eos, stop, context };
const char *finish_reason_name(FinishReason r);   // "length", "eos", "stop", "context"

struct GenerationOptions {
    int64_t max_new = 32;                    // new ids at most
    std::vector<int32_t> end_ids;            // ids that end generation (the model's EOS / EOT)
    bool ignore_eos = false;                 // end ids are decoded like any other
    std::vector<std::string> stop;           // strings that end generation, not given out
    bool skip_special_tokens = false;        // special tokens decode to nothing
};

struct Generation {
    std::vector<int32_t> new_ids;   // the picks, an end id included
    std::string text;               // what was given out
    FinishReason finish = FinishReason::length;
    double prefill_seconds = 0, decode_seconds = 0;
    int64_t decoded = 0;            // steps of one id
    std::chrono::steady_clock::time_point first_pick;   // when the first new id was picked
};

// Feeds `prompt` (at least one id) at the model's position, then picks and feeds ids. `history`
// is the ids the model has seen (for the repetition penalty): the prompt and each pick are
// appended to it. `on_text` gets each piece of text as it is given out. Without a tokenizer
// (null) only ids come out, and stop strings are an Error.
Generation generate_text(TokenStep &model, const Tokenizer *tokenizer, Sampler &sampler,
                         const std::vector<int32_t> &prompt, std::vector<int32_t> &history,
                         const GenerationOptions &options, const std::function<void(std::string_view)> &on_text = {});

// The longest tail of `text` that is the start of one of `stops` (what must wait), in bytes.
size_t stop_prefix_length(std::string_view text, const std::vector<std::string> &stops);

}  // namespace halogen
