// The embedding family's graph, layouts and cases (embedding.h): llama3-8B's table by default.
#include <algorithm>
#include <cstring>
#include <mutex>

#include <fmt/format.h>

#include "frontend/errors.h"
#include "frontend/nn/embedding.h"
#include "frontend/primitives.h"
#include "frontend/random_arrays.h"
#include "halide_gen/runtime/host_caches.h"
#include "schedules/case_args.h"
#include "schedules/embedding/embedding.h"

namespace halogen::embedding {

namespace {

constexpr int64_t kLlamaVocab = 128256, kLlamaDim = 4096;   // llama3-8B's table, 2 GiB in float32

// A table of V x D floats, made once while something holds it. Tables of D = 4096 and at most
// llama3's vocabulary are prefixes of one shared table, so the cases of a run fill it once.
std::pair<std::shared_ptr<Array>, BufferRef> table(int64_t V, int64_t D) {
    static std::mutex mutex;
    static std::map<std::pair<int64_t, int64_t>, std::weak_ptr<Array>> made;
    const bool prefix = D == kLlamaDim && V <= kLlamaVocab;
    const auto key = prefix ? std::make_pair(kLlamaVocab, kLlamaDim) : std::make_pair(V, D);
    std::lock_guard<std::mutex> lock(mutex);
    std::shared_ptr<Array> t = made[key].lock();
    if (!t) {
        made[key] = t = std::make_shared<Array>(random_floats({key.first, key.second}, 7));
    }
    BufferRef ref = t->ref();
    ref.shape[0] = V;
    return {t, ref};
}

// Bytes of table rows that fresh id sets touch together: twice the last-level cache, and at least
// 128 MiB (128 MiB of the 2 GiB llama3-8B table on a 32 MiB L3), so that a set's rows have left
// every cache when its turn comes again.
int64_t fresh_id_bytes() { return std::max<int64_t>(int64_t(128) << 20, 2 * last_level_cache_bytes()); }

// ids: "hot" (one set: the same rows every call), "fresh" (sets that together touch
// fresh_id_bytes() of rows, one per call: the rows come from DRAM), or a bound N (one set drawn
// from [0, N)).
Case make_case(int64_t V, int64_t D, int64_t T, const std::string &ids) {
    const bool fresh = ids == "fresh";
    const int64_t ids_max = ids == "hot" || fresh ? V : std::stoll(ids.substr(1));
    if (V < 1 || D < 1 || T < 0 || ids_max < 1 || ids_max > V) {
        throw ShapeError(fmt::format("embedding: needs V >= 1, D >= 1, T >= 0 and ids in [1, V]; got V {}, D {}, "
                                     "T {}, ids {}", V, D, T, ids_max));
    }
    Case c;
    c.family = "embedding";
    c.label = fmt::format("V={},D={},T={},ids={}", V, D, T, ids);
    c.bytes = 2.0 * double(T) * double(D) * 4 + double(T) * 4;   // rows read, rows written, ids
    c.interpreter_work = 4.0 * double(T) * double(V) * double(D);   // the one-hot [T, V, D] and its views
    c.tolerance = 0;                                             // a copy of rows
    c.work = [=](const Variant &v) {
        return v.probe_first ? si_number(double(T) * double(V) * double(D)) + " MAC" : si_number(double(T) * double(D)) + " copies";
    };
    const int64_t rows = std::min(V, (fresh_id_bytes() + D * 4 - 1) / (D * 4));
    const int64_t sets = fresh && T > 0 ? std::max<int64_t>(4, (rows + T - 1) / T) : 1;
    c.make = [=] {
        auto [t, weight] = table(V, D);
        auto pool = std::make_shared<Array>(random_ids(sets * T, ids_max, 11));
        auto ids_now = std::make_shared<Array>(DType::Int32, std::vector<int64_t>{T});
        CaseInputs in;
        in.refs = {{"ids", ids_now->ref()}, {"weight", weight}};
        in.owners = {t, pool, ids_now};
        in.out_shape = {T, D};
        in.sets = sets;
        in.use_set = [pool, ids_now, T](int64_t k) {
            if (T > 0) std::memcpy(ids_now->data<int32_t>(), pool->data<int32_t>() + k * T, std::size_t(T) * 4);
        };
        in.use_set(0);
        return in;
    };
    // One token, scaled to the whole call; a variant whose cost grows with the vocabulary (the
    // one-hot sums) over at most 1024 rows, scaled by the vocabulary too.
    c.probe = [V, D, T](const CaseInputs &in, const Variant &v) {
        const int64_t part = v.probe_first ? std::min<int64_t>(V, 1024) : V;
        Probe p;
        p.refs = in.refs;
        p.refs.at("ids").shape = {1};
        p.refs.at("weight").shape[0] = part;
        p.out_shape = {1, D};
        p.scale = double(T) * double(V) / double(part);
        return p;
    };
    return c;
}

// The case of compare's flags, its ids hot or drawn from a bound (--ids-max), or fresh (`dram`).
std::vector<Case> cases(const CaseArgs &args, bool dram) {
    const int64_t V = arg_int(args, "vocab", kLlamaVocab), D = arg_int(args, "dim", kLlamaDim);
    const int64_t T = arg_int(args, "tokens", 16), ids_max = arg_int(args, "ids-max", V);
    if (dram && ids_max != V) throw ShapeError("embedding: fresh ids are drawn from the whole table, not below --ids-max");
    const std::string ids = dram ? "fresh" : ids_max == V ? "hot" : fmt::format("<{}", ids_max);
    return {make_case(V, D, T, ids)};
}

}  // namespace

Family family() {
    const Dim T = Dim::sym("T"), V = Dim::sym("V"), D = Dim::sym("D");
    Tensor out = nn::embedding(input("ids", DType::Int32, {T}), input("weight", DType::Float32, {V, D}));
    Family f;
    f.name = "embedding";
    f.home = "embedding";
    f.op = nn::ops::kEmbedding;
    f.contract = Contract("embedding", Graph({out}), {{"ids", "[*T]"}, {"weight", ""}, {"out", "[*T, D]"}});
    f.typical = {{"T", 16}, {"V", kLlamaVocab}, {"D", kLlamaDim}};
    f.notes = "an id outside [0, V) gives a zero row (the one-hot meaning; run --strict-ids refuses it)";
    f.ids_out_of_range = [](const BufferRefs &in) {
        const BufferRef &ids = in.at("ids"), &w = in.at("weight");
        int64_t n = 1, outside = 0;
        for (int64_t d : ids.shape) n *= d;
        const int64_t V = w.shape.empty() ? 0 : w.shape[0];
        const int32_t *p = static_cast<const int32_t *>(ids.data);
        for (int64_t k = 0; k < n; ++k) outside += p[k] < 0 || p[k] >= V;
        return std::make_pair(outside, fmt::format("[0, {})", V));
    };
    f.options = {{"vocab", "vocabulary size V (default 128256)"},
                 {"dim", "embedding dim D (default 4096)"},
                 {"tokens", "tokens T (default 16)"},
                 {"ids-max", "ids drawn uniformly from [0, N) (default V)"}};
    f.cases = [](const CaseArgs &args) { return cases(args, false); };
    f.dram_cases = [](const CaseArgs &args) { return cases(args, true); };
    // A token, a few and a prefill's worth over llama3-8B's table; a batch drawn from the first
    // 1024 ids; a small table.
    f.compare_cases = {{{"tokens", "1"}}, {{"tokens", "16"}}, {{"tokens", "2048"}}, {{"ids-max", "1024"}},
                       {{"vocab", "1024"}}};
    f.tiny_case = {{"vocab", "8"}, {"dim", "4"}, {"tokens", "2"}};
    return f;
}

}  // namespace halogen::embedding
