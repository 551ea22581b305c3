// The compiled llama model: the step's parts (models/llama/llama_graph.h: the embedding, one
// decoder layer, the head) each grouped into kernels and compiled once by the JIT
// (halide_gen/compiler/program.h), then run over a bound checkpoint; where one-token steps gain
// from splitting attention's keys across the threads, the layer a second time for them. Every
// layer runs the one layer program with its own weights; the KV cache is preallocated for the
// context, head-major [G, context, d] per layer, and a step's kernels read each head's first S
// positions in place.
//
// What the model does itself is bookkeeping, no arithmetic: it stacks each layer's q, k and v
// weight rows into one [(H + 2G) * d, D] matrix at load (the layer's qkv projection), packs the
// projections' weights into panels of 32 rows (when the config fits them; the matmul family's
// `tiled` schedule reads them) or else copies the down projection's weight into blocks of K
// (llama_down_block), converts weights at load when asked (or when a tensor is F16), copies the
// step's new key and value rows
// out of the layer's qkv output into the cache, and slices the RoPE tables for the step's
// positions. Weights it keeps as they are stay in the checkpoint's mapping (no copy); the mapped
// pages of a weight it copied leave its resident memory (release_resident_pages).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/array.h"
#include "halide_gen/compiler/compile_cache.h"
#include "models/llama/llama_weights.h"
#include "models/llama/text_generation.h"

namespace halogen {

// Where the model's constructor stands, for a progress display: stage "compile" or "load" counts
// the programs compiled or loaded from the kernel cache (of 3, or 4 with the one-token steps' own
// layer program), stage "weights" the
// bytes of the checkpoint's tensors made ready so far (copied, converted, or read into memory
// where they stay in the mapping).
struct LlamaLoadProgress {
    std::string_view stage;
    uint64_t done = 0, total = 0;
};

struct LlamaModelOptions {
    // Positions the cache holds; 0: max_position_embeddings. ConfigError past that.
    int64_t context = 0;
    // The weights' dtype in the kernels: Float32 or BFloat16; none: BFloat16 when every tensor of
    // the checkpoint is BF16, else Float32. A tensor of another dtype is converted at load.
    std::optional<DType> weights;
    // The down projection's weight in blocks of this many columns (nn::block_columns), copied so
    // at load; 0: as the checkpoint stores it; none: llama_down_block(config).
    std::optional<int64_t> down_block;
    // The projections' weights packed in panels of 32 rows at load (nn::pack_panels), read by the
    // matmul family's panel kernels; none: when the config fits them (llama_fits_panels) and no
    // down_block is asked for. ConfigError when asked for on a config that does not fit them, or
    // together with a down_block.
    std::optional<bool> panels;
    // Which schedule of the attention family a one-token step's attention runs. `fused` has a task
    // per KV head, as in every other step; `decode` splits the keys across the threads, in a
    // layer program of its own (compiled with the others, a fourth program). none: that program
    // is compiled when the threads at construction (kernel_threads) are at least twice the KV
    // heads and the context reaches attention::kDecodeMinPositions, and a one-token step runs it
    // when attention::decode_is_faster says so for the threads of that step; true: every
    // one-token step runs it; false: none does.
    std::optional<bool> decode_attention;
    // Called after each program compiled and each weight read, from one thread at a time (the
    // programs compile on a thread of their own while the weights are read, so the two kinds
    // interleave); none: no reports.
    std::function<void(const LlamaLoadProgress &)> progress;
    // Where the programs come from: the kernel cache (halide_gen/compiler/compile_cache.h), or the
    // JIT when it is off.
    CompileCacheOptions cache;
};

// How the model was made ready: its programs loaded from the kernel cache or compiled, and the
// seconds each kind took (on a thread of their own), and the seconds the weights took beside them.
struct LlamaLoadReport {
    int loaded = 0, compiled = 0;
    double load_seconds = 0, compile_seconds = 0, weights_seconds = 0;
};

// LlamaModelOptions::decode_attention by its name on a command line: "auto" (none), or the
// attention family's schedule a one-token step runs, "fused" (false) or "decode" (true).
// ConfigError for another name. llama_decode_attention_names() lists the names it takes.
std::optional<bool> llama_decode_attention(const std::string &name);
std::vector<std::string> llama_decode_attention_names();

// The block the model copies the down projection's weight [D, I] into by default: 2048 columns
// when I is a larger multiple of it, else 0 (none). A decoded token's dot products then walk the
// weight block by block, each block one contiguous stream against 8 KiB of x that stays in the
// L1; with I = 8192, x is 32 KiB, as large as a Zen 4's L1, and is read from the L2 beside the
// weight's stream, which halved the read rate (perf/notes.md).
int64_t llama_down_block(const LlamaConfig &c);

class LlamaModel : public TokenStep {
public:
    // Compiles the programs (seconds) and prepares the weights, reading each one once (a
    // weight kept in the mapping has its pages read in, so the first step does not wait on the
    // file; not an untied embedding table, which steps only gather rows from). `w` and its checkpoint must outlive the model: weights kept as they are point into
    // the mapping.
    explicit LlamaModel(const LlamaWeights &w, const LlamaModelOptions &options = {});
    ~LlamaModel();
    LlamaModel(const LlamaModel &) = delete;
    LlamaModel &operator=(const LlamaModel &) = delete;

    // Runs ids at positions position() ... position()+T-1, appends their k/v to the cache and
    // returns the last one's logits [V]. ShapeError when they do not fit the context, or no ids;
    // an id outside [0, V) reads a row of zeros (the embedding's gather), as the reference does.
    std::vector<float> step(const std::vector<int32_t> &ids) override;
    std::vector<float> prefill(const std::vector<int32_t> &ids);   // forgets the cache first
    std::vector<float> decode(int32_t id);

    // The weights as the kernels read them, each once: in the mapping, or the model's own copies.
    std::vector<BufferRef> weight_buffers() const;

    int64_t position() const override;
    int64_t context() const override;
    // Goes back to an earlier position: the cache's rows from there on are written again by the
    // next step (a conversation's next turn reuses what its text shares). ShapeError past position().
    void rewind(int64_t position) override;
    DType weight_dtype() const;
    bool panels() const;   // the projections' weights are packed in panels
    // Kernels each part runs: the grouping pass's groups of the embedding, one layer and the head.
    int embed_kernels() const;
    int layer_kernels() const;
    int head_kernels() const;
    // The attention family's schedule ("fused" or "decode") that a step of T ids would run now, at
    // position() and with the kernels' current threads (LlamaModelOptions::decode_attention).
    std::string_view attention_schedule(int64_t T) const;
    const LlamaLoadReport &load_report() const;

private:
    // Whether a step of T ids runs the layer program with `decode` attention (attention_schedule).
    bool splits_keys(int64_t T) const;

    struct State;
    std::unique_ptr<State> s_;
};

}  // namespace halogen
