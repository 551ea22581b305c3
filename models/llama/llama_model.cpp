// The compiled llama model (llama_model.h): weights prepared once, three programs compiled once
// (four with the one-token steps' layer program), each step's buffers bound by name and the parts
// run in order.
#include "models/llama/llama_model.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <future>
#include <map>
#include <mutex>
#include <tuple>

#include "frontend/errors.h"
#include "frontend/bfloat16.h"
#include "models/llama/llama_graph.h"
#include "models/llama/llama_rope.h"
#include "halide_gen/compiler/compile_cache.h"
#include "halide_gen/runtime/kernel_pool.h"
#include "halide_gen/runtime/page_buffer.h"
#include "models/llama/llama_recipe.h"
#include "models/llama/panel_packing.h"
#include "schedules/attention/attention.h"

namespace halogen {

namespace {

// A weight as the kernels read it: in the mapping, or in an array of its own that `ref` points
// into (so a Weight moves, never copies).
struct Weight {
    BufferRef ref;
    Array owned;          // empty when ref points into the mapping or the weight is packed
    PageBuffer packed;    // a packed weight's memory
    Weight() = default;
    Weight(Weight &&) = default;
    Weight &operator=(Weight &&) = default;
    Weight(const Weight &) = delete;
    Weight &operator=(const Weight &) = delete;
};

bool is(const SafetensorsTensor &t, DType d) {
    return (d == DType::Float32 && t.dtype == SafetensorsDType::F32) || (d == DType::BFloat16 && t.dtype == SafetensorsDType::BF16);
}

// n values of tensor t from element `at` on, in dtype d (Float32 or BFloat16), written to dst.
// `wide` holds the values as float32 on their way to BFloat16 (resized as needed: a caller that
// converts row after row passes the same one).
void convert(const SafetensorsTensor &t, size_t at, size_t n, DType d, void *dst, std::vector<float> &wide) {
    const size_t out_size = d == DType::Float32 ? 4 : 2;
    const size_t in_size = t.dtype == SafetensorsDType::F32 ? 4 : 2;
    const uint8_t *src = t.data + at * in_size;
    if (is(t, d)) return void(std::memcpy(dst, src, n * out_size));
    if (d == DType::BFloat16 && wide.size() < n) wide.resize(n);
    float *f = d == DType::Float32 ? static_cast<float *>(dst) : wide.data();
    switch (t.dtype) {
    case SafetensorsDType::F32: std::memcpy(f, src, n * 4); break;
    case SafetensorsDType::BF16: bfloat16_to_float(src, f, n); break;
    case SafetensorsDType::F16: float16_to_float(src, f, n); break;
    default: throw DTypeError(fmt::format("llama model: tensor '{}' is not F32, BF16 or F16", t.name));
    }
    if (d == DType::BFloat16) float_to_bfloat16(f, dst, n);
}

// Rows of the tensors one after another, in dtype d, into `out` (sized for them all).
void convert_rows(const std::vector<const SafetensorsTensor *> &tensors, DType d, Array &out) {
    const size_t size = d == DType::Float32 ? 4 : 2;
    size_t at = 0;
    std::vector<float> wide;
    for (const SafetensorsTensor *t : tensors) {
        const size_t n = static_cast<size_t>(t->numel());
        convert(*t, 0, n, d, static_cast<uint8_t *>(out.ref().data) + at * size, wide);
        at += n;
    }
}

// Bytes of the checkpoint's tensors read so far, reported as LlamaLoadProgress "weights".
struct WeightsRead {
    std::function<void(const LlamaLoadProgress &)> report;
    uint64_t done = 0, total = 0;
    void add(const std::vector<const SafetensorsTensor *> &tensors) {
        for (const SafetensorsTensor *t : tensors) done += t->bytes();
        if (report) report({"weights", done, total});
    }
};

// The weight as the kernels read it: the mapped tensor when it is one of dtype d (its pages read
// in when `read_pages`), else a copy in d.
Weight prepare(const std::vector<const SafetensorsTensor *> &tensors, DType d, WeightsRead &read, bool read_pages = true) {
    Weight w;
    std::vector<int64_t> shape = tensors[0]->shape;
    for (size_t k = 1; k < tensors.size(); ++k) shape[0] += tensors[k]->shape[0];
    if (tensors.size() == 1 && is(*tensors[0], d)) {
        w.ref = BufferRef{const_cast<uint8_t *>(tensors[0]->data), d, shape};
        if (read_pages) read_resident_pages(*tensors[0]);
        read.add(tensors);
        return w;
    }
    w.owned = Array(d, shape);
    convert_rows(tensors, d, w.owned);
    w.ref = w.owned.ref();
    for (const SafetensorsTensor *t : tensors) release_resident_pages(*t);   // the copy is what the kernels read
    read.add(tensors);
    return w;
}

// `w` [N, B*b] copied into blocks of b columns, [B, N, b] (nn::block_columns); the pages of the
// checkpoint's mapping it was read from leave the resident memory.
Weight blocked(Weight w, const SafetensorsTensor &t, int64_t b) {
    const int64_t N = w.ref.shape[0], K = w.ref.shape[1];
    const size_t size = w.ref.dtype == DType::Float32 ? 4 : 2;
    Weight out;
    out.owned = Array(w.ref.dtype, {K / b, N, b});
    const auto *src = static_cast<const uint8_t *>(w.ref.data);
    auto *dst = static_cast<uint8_t *>(out.owned.ref().data);
    for (int64_t n = 0; n < N; ++n) {
        for (int64_t j = 0; j < K / b; ++j) std::memcpy(dst + ((j * N + n) * b) * size, src + (n * K + j * b) * size, b * size);
    }
    out.ref = out.owned.ref();
    if (w.ref.data == static_cast<const void *>(t.data)) release_resident_pages(t);   // it read the mapping
    return out;
}

static_assert(kPanelRows == kLlamaPanelRows);

// The rows of the tensors stacked, [32*P, K], in dtype d, copied into panels [P, K, 32]
// (nn::pack_panels: panel p holds rows 32p ... 32p+31 side by side for each k). Rows already in d
// (and aligned for it) are read in place; others are converted (or copied) 32 at a time into a
// small buffer of the thread's first.
template <typename T> struct PanelPacking {
    const std::vector<const SafetensorsTensor *> *tensors = nullptr;
    std::vector<int64_t> first;   // the stacked row at which each tensor starts
    DType d = DType::Float32;
    int64_t K = 0;
    T *out = nullptr;
    mutable std::mutex failing;
    mutable std::exception_ptr failure;   // a task's exception, rethrown on the caller

    void pack(int64_t p) const {
        constexpr int64_t R = kLlamaPanelRows;
        thread_local std::vector<T> converted;
        thread_local std::vector<float> wide;
        if (converted.size() < size_t(R * K)) converted.resize(size_t(R * K));
        const T *rows[R];
        size_t tensor = 0;
        for (int64_t i = 0; i < R; ++i) {
            const int64_t r = p * R + i;
            while (tensor + 1 < first.size() && r >= first[tensor + 1]) ++tensor;
            const SafetensorsTensor &t = *(*tensors)[tensor];
            if (is(t, d) && reinterpret_cast<uintptr_t>(t.data) % alignof(T) == 0) {   // the file's offsets may be odd
                rows[i] = reinterpret_cast<const T *>(t.data) + (r - first[tensor]) * K;
            } else {
                convert(t, size_t((r - first[tensor]) * K), size_t(K), d, converted.data() + i * K, wide);
                rows[i] = converted.data() + i * K;
            }
        }
        pack_panel(rows, out + p * K * R, K);
    }
    static int task(void *, int p, uint8_t *closure) {
        const auto &self = *reinterpret_cast<const PanelPacking *>(closure);
        try {
            self.pack(p);
            return 0;
        } catch (...) {
            const std::lock_guard<std::mutex> lock(self.failing);
            if (!self.failure) self.failure = std::current_exception();
            return 1;
        }
    }
};

// The panels are packed on the kernels' threads, a panel a task: each thread reads its rows and
// brings in the pages it writes, so the copy and the page faults of both sides are shared out.
template <typename T>
void pack_rows(const std::vector<const SafetensorsTensor *> &tensors, DType d, int64_t N, int64_t K, T *out) {
    PanelPacking<T> packing;
    packing.tensors = &tensors;
    packing.d = d;
    packing.K = K;
    packing.out = out;
    int64_t at = 0;
    for (const SafetensorsTensor *t : tensors) {
        packing.first.push_back(at);
        at += t->shape[0];
    }
    kernel_do_par_for(nullptr, &PanelPacking<T>::task, 0, int(N / kLlamaPanelRows), reinterpret_cast<uint8_t *>(&packing));
    if (packing.failure) std::rethrow_exception(packing.failure);
}

// The tensors' rows packed as pack_rows does, in memory of the model's own; the pages of the
// checkpoint's mapping they were read from leave the resident memory.
Weight packed(const std::vector<const SafetensorsTensor *> &tensors, DType d, WeightsRead &read) {
    const int64_t K = tensors[0]->shape[1];
    int64_t N = 0;
    for (const SafetensorsTensor *t : tensors) N += t->shape[0];
    Weight w;
    w.packed = PageBuffer(size_t(N * K) * (d == DType::Float32 ? 4 : 2));
    if (d == DType::Float32) pack_rows(tensors, d, N, K, static_cast<float *>(w.packed.data()));
    else pack_rows(tensors, d, N, K, static_cast<uint16_t *>(w.packed.data()));
    w.ref = BufferRef{w.packed.data(), d, {N / kLlamaPanelRows, K, kLlamaPanelRows}};
    for (const SafetensorsTensor *t : tensors) release_resident_pages(*t);   // the copy is what the kernels read
    read.add(tensors);
    return w;
}

// BFloat16 when every tensor is BF16 (norm weights too: the graph widens them), else Float32.
DType default_dtype(const LlamaWeights &w) {
    const std::vector<const SafetensorsTensor *> all = w.tensors();
    const bool bf16 = std::all_of(all.begin(), all.end(), [](const SafetensorsTensor *t) { return t->dtype == SafetensorsDType::BF16; });
    return bf16 ? DType::BFloat16 : DType::Float32;
}

// The buffers of `all` that program p reads.
BufferRefs inputs_of(const CompiledGraph &p, const BufferRefs &all) {
    BufferRefs out;
    for (const Node *n : p.graph().inputs()) out[n->name] = all.at(n->name);
    return out;
}

}  // namespace

struct LlamaModel::State {
    LlamaConfig config;
    DType dtype = DType::Float32;
    bool panels = false;                                        // the projections' weights packed in panels
    int64_t context = 0, position = 0;
    std::unique_ptr<CompiledGraph> embed, layer, head;
    std::unique_ptr<CompiledGraph> layer_decode;                // the layer with `decode` attention, or none
    LlamaLoadReport load_report;
    std::optional<bool> decode_attention;                       // LlamaModelOptions::decode_attention

    std::map<std::string, Weight> globals;                      // by the parts' input names
    std::vector<std::map<std::string, Weight>> layers;         // per layer, by the layer part's input names
    std::vector<float> cos, sin;                                // [context, d/2]
    std::vector<Array> k_cache, v_cache;                        // per layer [G, context, d]
    Array hidden_a, hidden_b, qkv;                              // [context, D] x 2, [context, H + 2G, d]
    Array logits;                                               // [1, V]
};

LlamaModel::LlamaModel(const LlamaWeights &w, const LlamaModelOptions &options) : s_(std::make_unique<State>()) {
    State &s = *s_;
    s.config = w.config;
    s.dtype = options.weights.value_or(default_dtype(w));
    if (s.dtype != DType::Float32 && s.dtype != DType::BFloat16) {
        throw DTypeError(fmt::format("llama model: weights must be float32 or bfloat16, got {}", dtype_name(s.dtype)));
    }
    s.context = options.context > 0 ? options.context : w.config.max_position_embeddings;
    const LlamaConfig &c = s.config;
    // max_position_embeddings is as far as the checkpoint's positions go: a longer context is
    // refused, not run past them (and a cache for it not allocated).
    if (s.context > c.max_position_embeddings) {
        throw ConfigError(fmt::format("llama model: a context of {} positions is past the config's max_position_embeddings ({})",
                                      s.context, c.max_position_embeddings));
    }

    // Panels by default where they fit, unless blocks of K are asked for (the two do not mix:
    // build_llama_parts names both when asked for together).
    const bool blocks_asked = options.down_block.value_or(0) > 0;
    s.panels = options.panels.value_or(llama_fits_panels(c) && !blocks_asked);
    const int64_t down_block = options.down_block.value_or(s.panels ? 0 : llama_down_block(c));
    const LlamaParts parts = build_llama_parts(c, s.dtype, down_block, s.panels);
    const auto part = llama_part_input_name;
    // The programs compile on a thread of their own while this one makes the weights ready: the
    // compiler is single-threaded and the weights are read from memory or the file, so on two
    // cores the model is ready in about the longer of the two instead of their sum. The reports
    // of both come through one lock.
    std::mutex reporting;
    const auto report = [&](const LlamaLoadProgress &p) {
        if (!options.progress) return;
        const std::lock_guard<std::mutex> lock(reporting);
        options.progress(p);
    };
    s.decode_attention = options.decode_attention;
    const bool layer_decode = options.decode_attention.value_or(
        attention::decode_is_faster(1, s.context, c.num_key_value_heads, kernel_threads()));
    std::future<void> compiling = std::async(std::launch::async, [&] {
        std::vector<std::tuple<std::unique_ptr<CompiledGraph> *, const Graph *, Recipe>> programs = {
            {&s.embed, &parts.embed, llama_recipe()},
            {&s.layer, &parts.layer, llama_recipe()},
            {&s.head, &parts.head, llama_recipe()}};
        if (layer_decode) programs.emplace_back(&s.layer_decode, &parts.layer, llama_recipe(true));
        int compiled = 0;
        for (const auto &[program, graph, recipe] : programs) {
            *program = std::make_unique<CompiledGraph>(compile_graph(*graph, recipe, options.cache));
            const CompiledGraph &p = **program;
            (p.from() == CompiledFrom::cache ? s.load_report.loaded : s.load_report.compiled) += 1;
            (p.from() == CompiledFrom::cache ? s.load_report.load_seconds : s.load_report.compile_seconds) +=
                p.seconds();
            report({p.from() == CompiledFrom::cache ? "load" : "compile", uint64_t(++compiled), uint64_t(programs.size())});
        }
    });

    const auto weights_start = std::chrono::steady_clock::now();
    WeightsRead read{report};
    for (const SafetensorsTensor *t : w.tensors()) read.total += t->bytes();
    // An untied embedding is only gathered from: its pages come in with the ids that read them.
    s.globals[part("model.embed_tokens.weight")] = prepare({w.embed_tokens}, s.dtype, read, w.tied());
    s.globals[part("model.norm.weight")] = prepare({w.norm}, s.dtype, read);
    if (!w.tied()) s.globals[part("lm_head.weight")] = prepare({w.lm_head}, s.dtype, read);
    // A projection's weight, stacked rows of the tensors: as the kernels read it, packed into
    // panels when the layer takes them (a packed copy reads the weight itself).
    const auto projection = [&](const std::vector<const SafetensorsTensor *> &tensors) {
        return s.panels ? packed(tensors, s.dtype, read) : prepare(tensors, s.dtype, read);
    };
    for (const LlamaLayerWeights &l : w.layers) {
        std::map<std::string, Weight> m;
        m[part("input_layernorm.weight")] = prepare({l.input_layernorm}, s.dtype, read);
        m[part(kLlamaQkvWeight)] = projection({l.q_proj, l.k_proj, l.v_proj});
        m[part("self_attn.o_proj.weight")] = projection({l.o_proj});
        m[part("post_attention_layernorm.weight")] = prepare({l.post_attention_layernorm}, s.dtype, read);
        m[part("mlp.gate_proj.weight")] = projection({l.gate_proj});
        m[part("mlp.up_proj.weight")] = projection({l.up_proj});
        // A blocked copy reads the weight itself.
        m[part("mlp.down_proj.weight")] = down_block > 0 ? blocked(prepare({l.down_proj}, s.dtype, read, false), *l.down_proj, down_block)
                                                         : projection({l.down_proj});
        s.layers.push_back(std::move(m));
    }
    s.load_report.weights_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - weights_start).count();
    compiling.get();   // rethrows a compile error

    const RopeTables tables = rope_tables(rope_inverse_frequencies(c), 0, s.context);
    s.cos = tables.cos;
    s.sin = tables.sin;
    const int64_t G = c.num_key_value_heads, d = c.head_dim, heads = c.num_attention_heads + 2 * G;
    for (int64_t i = 0; i < c.num_hidden_layers; ++i) {
        s.k_cache.emplace_back(DType::Float32, std::vector<int64_t>{G, s.context, d});
        s.v_cache.emplace_back(DType::Float32, std::vector<int64_t>{G, s.context, d});
    }
    s.hidden_a = Array(DType::Float32, {s.context, c.hidden_size});
    s.hidden_b = Array(DType::Float32, {s.context, c.hidden_size});
    s.qkv = Array(DType::Float32, {s.context, heads, d});
    s.logits = Array(DType::Float32, {1, c.vocab_size});
}

LlamaModel::~LlamaModel() = default;

std::vector<std::string> llama_decode_attention_names() { return {"auto", "fused", "decode"}; }

std::optional<bool> llama_decode_attention(const std::string &name) {
    if (name == "auto") return std::nullopt;
    if (name == "fused" || name == "decode") return name == "decode";
    throw ConfigError(fmt::format("llama model: no one-token attention schedule '{}' ({})", name,
                                  fmt::join(llama_decode_attention_names(), ", ")));
}

int64_t llama_down_block(const LlamaConfig &c) {
    constexpr int64_t kBlock = 2048;
    return c.intermediate_size > kBlock && c.intermediate_size % kBlock == 0 ? kBlock : 0;
}

std::vector<float> LlamaModel::step(const std::vector<int32_t> &ids) {
    State &s = *s_;
    const LlamaConfig &c = s.config;
    const auto T = static_cast<int64_t>(ids.size()), p0 = s.position, S = p0 + T;
    if (T == 0 || S > s.context) {
        throw ShapeError(fmt::format("llama model: {} ids at position {} do not fit the context of {}", T, p0, s.context));
    }
    const int64_t G = c.num_key_value_heads, H = c.num_attention_heads, d = c.head_dim, half = d / 2;
    auto rows = [](Array &a, int64_t n) {   // the first n rows of a, as a buffer
        std::vector<int64_t> shape = a.shape();
        shape[0] = n;
        return BufferRef{a.data<float>(), DType::Float32, shape};
    };

    BufferRef id_ref{const_cast<int32_t *>(ids.data()), DType::Int32, {T}};
    BufferRefs in{{"ids", id_ref}};
    for (const auto &[name, w] : s.globals) in[name] = w.ref;
    Array *x = &s.hidden_a, *y = &s.hidden_b;
    s.embed->run(inputs_of(*s.embed, in), {rows(*x, T)});

    BufferRef cos{s.cos.data() + p0 * half, DType::Float32, {T, half}};
    BufferRef sin{s.sin.data() + p0 * half, DType::Float32, {T, half}};
    const Bindings positions{{"S", S}};   // the caches hold the context; the step reads S positions
    const CompiledGraph &layer_program = splits_keys(T) ? *s.layer_decode : *s.layer;
    for (int64_t i = 0; i < c.num_hidden_layers; ++i) {
        BufferRefs layer{{"hidden", rows(*x, T)}, {"rope_cos", cos}, {"rope_sin", sin},
                         {"k_cache", s.k_cache[i].ref()}, {"v_cache", s.v_cache[i].ref()}};
        for (const auto &[name, w] : s.layers[i]) layer[name] = w.ref;
        layer_program.run(layer, {rows(*y, T), rows(s.qkv, T)}, positions);
        // The step's keys and values, heads [H, H + G) and [H + G, H + 2G) of each qkv row, go to
        // positions p0 ... p0+T-1 of each KV head.
        const float *qkv = s.qkv.data<float>();
        for (int64_t t = 0; t < T; ++t) {
            const float *row = qkv + t * (H + 2 * G) * d;
            for (int64_t g = 0; g < G; ++g) {
                const int64_t at = (g * s.context + p0 + t) * d;
                std::memcpy(s.k_cache[i].data<float>() + at, row + (H + g) * d, d * 4);
                std::memcpy(s.v_cache[i].data<float>() + at, row + (H + G + g) * d, d * 4);
            }
        }
        std::swap(x, y);
    }

    BufferRefs head{{"hidden", rows(*x, T)}};
    for (const auto &[name, w] : s.globals) head[name] = w.ref;
    s.head->run(inputs_of(*s.head, head), {s.logits.ref()});
    s.position = S;
    return std::vector<float>(s.logits.data<float>(), s.logits.data<float>() + c.vocab_size);
}

std::vector<float> LlamaModel::prefill(const std::vector<int32_t> &ids) {
    s_->position = 0;
    return step(ids);
}

std::vector<float> LlamaModel::decode(int32_t id) { return step({id}); }

std::vector<BufferRef> LlamaModel::weight_buffers() const {
    std::vector<BufferRef> out;
    for (const auto &[name, w] : s_->globals) out.push_back(w.ref);
    for (const auto &layer : s_->layers) {
        for (const auto &[name, w] : layer) out.push_back(w.ref);
    }
    return out;
}

int64_t LlamaModel::position() const { return s_->position; }
void LlamaModel::rewind(int64_t position) {
    if (position < 0 || position > s_->position) {
        throw ShapeError(fmt::format("llama model: cannot rewind to position {} from {}", position, s_->position));
    }
    s_->position = position;
}
int64_t LlamaModel::context() const { return s_->context; }
DType LlamaModel::weight_dtype() const { return s_->dtype; }
bool LlamaModel::panels() const { return s_->panels; }
int LlamaModel::embed_kernels() const { return s_->embed->kernel_count(); }
int LlamaModel::layer_kernels() const { return s_->layer->kernel_count(); }
int LlamaModel::head_kernels() const { return s_->head->kernel_count(); }
const LlamaLoadReport &LlamaModel::load_report() const { return s_->load_report; }

bool LlamaModel::splits_keys(int64_t T) const {
    const State &s = *s_;
    if (!s.layer_decode || T != 1) return false;
    return s.decode_attention.value_or(
        attention::decode_is_faster(T, s.position + T, s.config.num_key_value_heads, kernel_threads()));
}

std::string_view LlamaModel::attention_schedule(int64_t T) const { return splits_keys(T) ? "decode" : "fused"; }

}  // namespace halogen
