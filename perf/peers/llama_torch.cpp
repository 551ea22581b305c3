// halogen_llama_torch: the libtorch peer of `halogen llama bench`. The Hugging Face Llama math in
// ATen operators, as a PyTorch user's eager model runs it on the CPU: RMSNorm, the q, k, v
// projections (mm against the [out, in] weights transposed), RoPE by rotate_half on the same cos
// and sin tables halogen uses (models/llama/llama_rope.h), a KV cache preallocated for the
// context, repeat_kv, bmm, the causal mask, softmax, bmm, the o projection and the residual, the
// SwiGLU MLP, the final norm and the head on the last position only.
//
// It reads the same model directory (formats/checkpoint.h): float32 weights wrapped in
// place (at::from_blob, no copy), bfloat16 or float16 weights widened to float32 at load (1.13's
// CPU matmul on bfloat16 is not what a user would run). It prefills a prompt of the same made-up
// ids as `halogen llama bench`, decodes greedily, and prints the new ids (which must equal
// `halogen llama generate`'s on the same prompt), the BLAS libtorch called, and the prefill and
// decode tokens/s.
//
//   halogen_llama_torch --model DIR [--prompt 128] [--gen 32] [--threads 2] [--repetitions 3]
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <c10/core/InferenceMode.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "frontend/bfloat16.h"
#include "formats/checkpoint.h"
#include "models/llama/llama_config.h"
#include "models/llama/llama_rope.h"
#include "models/llama/llama_weights.h"
#include "perf/peers/blas_threads.h"

namespace {

using namespace halogen;

// A weight as a float32 tensor: the mapping itself for F32, else a widened copy kept in `owned`.
at::Tensor weight(const SafetensorsTensor *t, std::vector<at::Tensor> &owned) {
    if (t->dtype == SafetensorsDType::F32) {
        return at::from_blob(const_cast<uint8_t *>(t->data), t->shape, at::kFloat);
    }
    const auto type = t->dtype == SafetensorsDType::BF16 ? at::kBFloat16 : at::kHalf;
    at::Tensor wide = at::from_blob(const_cast<uint8_t *>(t->data), t->shape, type).to(at::kFloat);
    owned.push_back(wide);
    return wide;
}

struct Layer {
    at::Tensor in_norm, q, k, v, o, post_norm, gate, up, down;   // projections transposed: [in, out]
    at::Tensor k_cache, v_cache;                                  // [G, context, d], as HF's
};

class TorchLlama {
public:
    TorchLlama(const LlamaWeights &w, int64_t context) : c_(w.config), inv_freq_(rope_inverse_frequencies(w.config)) {
        embed_ = weight(w.embed_tokens, owned_);
        norm_ = weight(w.norm, owned_);
        head_t_ = weight(w.lm_head, owned_).t();
        const int64_t G = c_.num_key_value_heads, d = c_.head_dim;
        for (const LlamaLayerWeights &l : w.layers) {
            layers_.push_back({weight(l.input_layernorm, owned_), weight(l.q_proj, owned_).t(), weight(l.k_proj, owned_).t(),
                               weight(l.v_proj, owned_).t(), weight(l.o_proj, owned_).t(),
                               weight(l.post_attention_layernorm, owned_), weight(l.gate_proj, owned_).t(),
                               weight(l.up_proj, owned_).t(), weight(l.down_proj, owned_).t(),
                               at::zeros({G, context, d}), at::zeros({G, context, d})});
        }
        const RopeTables t = rope_tables(inv_freq_, 0, context);
        cos_ = at::from_blob(const_cast<float *>(t.cos.data()), {context, t.half}).clone();
        sin_ = at::from_blob(const_cast<float *>(t.sin.data()), {context, t.half}).clone();
    }

    at::Tensor step(const std::vector<int64_t> &ids, int64_t p0) {
        const int64_t T = int64_t(ids.size()), S = p0 + T, H = c_.num_attention_heads, G = c_.num_key_value_heads;
        const int64_t d = c_.head_dim, rep = H / G;
        at::Tensor x = embed_.index_select(0, at::tensor(ids, at::kLong));                  // [T, D]
        // cos/sin for the step's positions, repeated over both halves: [T, 1, d].
        const at::Tensor cos = at::cat({cos_.narrow(0, p0, T), cos_.narrow(0, p0, T)}, -1).unsqueeze(1);
        const at::Tensor sin = at::cat({sin_.narrow(0, p0, T), sin_.narrow(0, p0, T)}, -1).unsqueeze(1);
        const at::Tensor mask = at::full({T, S}, -std::numeric_limits<float>::infinity()).triu(p0 + 1);
        for (Layer &l : layers_) {
            at::Tensor h = rms_norm(x, l.in_norm);
            at::Tensor q = rope(at::mm(h, l.q).view({T, H, d}), cos, sin);
            at::Tensor k = rope(at::mm(h, l.k).view({T, G, d}), cos, sin);
            l.k_cache.narrow(1, p0, T).copy_(k.permute({1, 0, 2}));
            l.v_cache.narrow(1, p0, T).copy_(at::mm(h, l.v).view({T, G, d}).permute({1, 0, 2}));
            // repeat_kv: [G, S, d] -> [H, S, d], query head j reads KV head j / rep.
            at::Tensor keys = l.k_cache.narrow(1, 0, S).repeat_interleave(rep, 0);
            at::Tensor values = l.v_cache.narrow(1, 0, S).repeat_interleave(rep, 0);
            at::Tensor scores = at::bmm(q.permute({1, 0, 2}), keys.transpose(1, 2)) / std::sqrt(double(d)) + mask;
            at::Tensor attn = at::bmm(at::softmax(scores, -1), values).permute({1, 0, 2}).reshape({T, H * d});
            x = x + at::mm(attn, l.o);
            h = rms_norm(x, l.post_norm);
            x = x + at::mm(at::silu(at::mm(h, l.gate)) * at::mm(h, l.up), l.down);
        }
        return at::mm(rms_norm(x.narrow(0, T - 1, 1), norm_), head_t_).view({-1});
    }

private:
    at::Tensor rms_norm(const at::Tensor &x, const at::Tensor &w) const {
        return x * at::rsqrt(x.pow(2).mean(-1, true) + c_.rms_norm_eps) * w;
    }
    static at::Tensor rope(const at::Tensor &x, const at::Tensor &cos, const at::Tensor &sin) {
        const int64_t half = x.size(-1) / 2;
        const at::Tensor rotated = at::cat({-x.narrow(-1, half, half), x.narrow(-1, 0, half)}, -1);
        return x * cos + rotated * sin;
    }

    LlamaConfig c_;
    std::vector<float> inv_freq_;
    std::vector<at::Tensor> owned_;
    at::Tensor embed_, norm_, head_t_, cos_, sin_;
    std::vector<Layer> layers_;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int main(int argc, char **argv) {
    // ATen's OpenMP threads spin after each parallel region (GOMP's default wait policy) while
    // OpenBLAS's own threads want the same cores: at 2 threads that made decode 4x slower. libgomp
    // reads the policy when it loads, so the program sets it and starts again.
    if (!std::getenv("OMP_WAIT_POLICY")) {
        setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
        execv("/proc/self/exe", argv);
    }
    CLI::App app("The libtorch peer of `halogen llama bench`: the same model, prompt and greedy decode in ATen");
    std::string model;
    int64_t prompt = 128, gen = 32;
    int threads = 2, repetitions = 3;
    app.add_option("--model", model, "the model directory")->required();
    app.add_option("--prompt", prompt, "prompt tokens")->check(CLI::PositiveNumber);
    app.add_option("--gen", gen, "tokens decoded after the prompt")->check(CLI::PositiveNumber);
    app.add_option("--threads", threads, "ATen's threads")->check(CLI::PositiveNumber);
    app.add_option("--repetitions", repetitions, "prefill and decode runs (medians reported)")->check(CLI::PositiveNumber);
    CLI11_PARSE(app, argc, argv);
    try {
        const LlamaConfig c = read_llama_config(model);
        const Checkpoint ckpt = Checkpoint::open(model);
        const LlamaWeights w = bind_llama_weights(ckpt, c);
        at::set_num_threads(threads);
        c10::InferenceMode guard;
        at::mm(at::ones({2, 2}), at::ones({2, 2}));   // loads the BLAS
        const std::string blas = halogen::perf::set_blas_threads(threads);
        TorchLlama net(w, prompt + gen);
        std::vector<int64_t> ids(static_cast<std::size_t>(prompt));
        for (int64_t i = 0; i < prompt; ++i) ids[std::size_t(i)] = (1 + 7919 * i) % c.vocab_size;   // as llama bench
        auto argmax = [](const at::Tensor &logits) { return logits.argmax().item<int64_t>(); };
        net.step(ids, 0);   // touches every weight page once
        std::vector<double> prefill, decode;
        std::vector<int64_t> picks;
        using Clock = std::chrono::steady_clock;
        for (int r = 0; r < repetitions; ++r) {
            picks.clear();
            const auto a = Clock::now();
            at::Tensor logits = net.step(ids, 0);
            const auto b = Clock::now();
            for (int64_t k = 0; k < gen; ++k) {
                picks.push_back(argmax(logits));
                logits = net.step({picks.back()}, prompt + k);
            }
            const auto e = Clock::now();
            prefill.push_back(double(prompt) / std::chrono::duration<double>(b - a).count());
            decode.push_back(double(gen) / std::chrono::duration<double>(e - b).count());
        }
        fmt::print("libtorch {} threads ({}): prefill {:.1f} tokens/s, decode {:.2f} tokens/s (medians of {})\n",
                   threads, blas, median(prefill), median(decode), repetitions);
        fmt::print("new ids: {}\n", fmt::join(picks, ","));
    } catch (const std::exception &e) {
        fmt::print(stderr, "halogen_llama_torch: {}\n", e.what());
        return 1;
    }
    return 0;
}
