// The matmul families (schedules/matmul/): every variant, JIT-compiled (the hand schedules) and as
// its AOT kernel (every registered variant), against the reference interpreter on odd shapes
// (M in {1, 3, 17, 33}, K and N not multiples of 16, K = 1), with and without a bias, leading
// axes of x collapsed, on caller buffers of exactly their size that end at a page the process may
// not touch (a read or write past any buffer faults). Then the packing: its layout checked by hand
// and its round trip through the packed kernels; the errors of a call that does not fit; the gemv
// variant taking every call the tiled one takes; and the register tiles' inner loops as the AOT
// assembly has them.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "frontend/errors.h"
#include "frontend/halogen.h"
#include "frontend/nn/linear.h"
#include "halide_gen/compiler/host_target.h"
#include "schedules/aot/aot_kernels.h"
#include "schedules/kernel.h"
#include "schedules/matmul/matmul.h"
#include "schedules/reference.h"
#include "schedules/registry.h"
#include "tests/support/expect_error.h"
#include "tests/support/harness.h"

namespace halogen {
namespace {

using testing::arrays_near;
using Shapes = std::map<std::string, std::vector<int64_t>>;

// Caller memory of exactly `bytes` that ends where a PROT_NONE page begins: a kernel that reads
// or writes one element past the end faults. The start is then only as aligned as the size makes it.
class PageEndBuffer {
public:
    explicit PageEndBuffer(std::size_t bytes) {
        const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE)), body = (bytes + page - 1) / page * page;
        total_ = body + page;
        base_ = static_cast<uint8_t *>(mmap(nullptr, total_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        if (base_ == MAP_FAILED) throw std::runtime_error("mmap failed");
        mprotect(base_ + body, page, PROT_NONE);
        data_ = base_ + body - bytes;
    }
    ~PageEndBuffer() { munmap(base_, total_); }
    PageEndBuffer(const PageEndBuffer &) = delete;
    PageEndBuffer &operator=(const PageEndBuffer &) = delete;
    void *data() const { return data_; }

private:
    uint8_t *base_ = nullptr, *data_ = nullptr;
    std::size_t total_ = 0;
};

// The kernel's output for `in`, every input and the output in page-end memory.
Array run_exact(const FamilyKernel &k, const Inputs &in) {
    std::vector<std::unique_ptr<PageEndBuffer>> held;
    BufferRefs refs;
    Shapes shapes;
    for (const auto &[name, a] : in) {
        const std::size_t bytes = std::size_t(a.size()) * dtype_size(a.dtype());
        held.push_back(std::make_unique<PageEndBuffer>(bytes));
        if (bytes) std::memcpy(held.back()->data(), a.data<uint8_t>(), bytes);
        refs.emplace(name, BufferRef{held.back()->data(), a.dtype(), a.shape()});
        shapes[name] = a.shape();
    }
    const DType t = k.family().graph().outputs().at(0).dtype();
    Array out(t, k.output_shape(shapes));
    PageEndBuffer buf(std::size_t(out.size()) * dtype_size(t));
    k.run(refs, BufferRef{buf.data(), t, out.shape()});
    if (out.size()) std::memcpy(out.data<uint8_t>(), buf.data(), std::size_t(out.size()) * dtype_size(t));
    return out;
}

// JIT kernels are compiled once per test binary (the register tiles take seconds).
const FamilyKernel &jit(const std::string &family, const std::string &variant) {
    static std::map<std::string, std::unique_ptr<FamilyKernel>> made;
    auto &k = made[family + " " + variant];
    if (!k) k = std::make_unique<FamilyKernel>(FamilyKernel::jit(family, variant));
    return *k;
}

// Every kernel of a family: each hand-scheduled variant JIT-compiled, and every AOT kernel.
struct Kernel {
    std::string label;
    const FamilyKernel *kernel;
};
std::vector<Kernel> kernels_of(const std::string &family) {
    static std::map<std::string, std::unique_ptr<FamilyKernel>> aot;
    std::vector<Kernel> out;
    for (const Variant &v : variants_of(family)) {
        if (v.recipe.autoscheduler.empty()) out.push_back({v.name + " (JIT)", &jit(family, v.name)});
        auto &a = aot[family + " " + v.name];
        if (!a) a = std::make_unique<FamilyKernel>(FamilyKernel::aot(family, v.name));
        out.push_back({v.name + " (AOT)", a.get()});
    }
    return out;
}

// |error| allowed against the interpreter for inputs in [-3, 3): K products summed in another order.
double tolerance(int64_t K) { return 1e-5 + 2e-6 * double(K); }

// The caller's shapes of a multiplying family's inputs for M tokens (leading axes `lead`), K, N.
Shapes call_shapes(const std::string &family, std::vector<int64_t> lead, int64_t K, int64_t N) {
    std::vector<int64_t> x = std::move(lead);
    x.push_back(K);
    Shapes s = {{"x", x}};
    if (family.rfind("matmul_packed", 0) == 0) {
        s["packed"] = {N / matmuls::kPanelRows, K, matmuls::kPanelRows};
    } else {
        s["weight"] = {N, K};
    }
    if (family == "linear") s["bias"] = {N};
    return s;
}

struct OddShapes : ::testing::TestWithParam<std::string> {};

TEST_P(OddShapes, EveryVariantMatchesTheInterpreter) {
    const std::string family = GetParam();
    const Family &f = find_family(family);
    const bool packed = family.rfind("matmul_packed", 0) == 0;
    const std::vector<int64_t> Ns = packed ? std::vector<int64_t>{32, 96} : std::vector<int64_t>{1, 7, 19, 33};
    const auto kernels = kernels_of(family);
    uint32_t seed = 1;
    int checked = 0;
    for (int64_t M : {1, 3, 17, 33}) {
        for (int64_t K : {1, 5, 35, 100}) {
            for (int64_t N : Ns) {
                const Inputs in = testing::random_inputs_shaped(f.graph(), call_shapes(family, {M}, K, N), seed++);
                BufferRefs refs;
                for (const auto &[name, a] : in) refs.emplace(name, const_cast<Array &>(a).ref());
                const Array want = interpret_call(f, refs);
                for (const Kernel &k : kernels) {
                    EXPECT_TRUE(arrays_near(want, run_exact(*k.kernel, in), tolerance(K), 1e-5))
                        << family << " " << k.label << " M=" << M << " K=" << K << " N=" << N;
                    ++checked;
                }
            }
        }
    }
    EXPECT_GE(checked, 32 * 5);
}

TEST_P(OddShapes, LeadingAxesOfXAreTokens) {
    const std::string family = GetParam();
    const Family &f = find_family(family);
    const int64_t N = family.rfind("matmul_packed", 0) == 0 ? 64 : 13;
    const Inputs in = testing::random_inputs_shaped(f.graph(), call_shapes(family, {2, 3, 5}, 9, N), 7);
    BufferRefs refs;
    for (const auto &[name, a] : in) refs.emplace(name, const_cast<Array &>(a).ref());
    const Array want = interpret_call(f, refs);
    ASSERT_EQ(want.shape(), (std::vector<int64_t>{2, 3, 5, N}));
    for (const Kernel &k : kernels_of(family)) {
        EXPECT_TRUE(arrays_near(want, run_exact(*k.kernel, in), tolerance(9), 1e-5)) << family << " " << k.label;
    }
}

INSTANTIATE_TEST_SUITE_P(Matmul, OddShapes,
                         ::testing::Values("matmul", "linear", "matmul_packed", "matmul_packed_bf16"),
                         [](const auto &info) { return info.param; });

// ---- Packing ------------------------------------------------------------------------------------

// A distinct value for each index i, exact in bfloat16 (7 bits of mantissa): (1 + (i % 128) / 128)
// times 2^(i / 128 - 30), for i below 128 * 150.
double counting_value(int64_t i) { return std::ldexp(1.0 + double(i % 128) / 128, int(i / 128) - 30); }

// W [N, K] with W[n, k] = counting_value(n * K + k).
Array counting_weights(DType t, int64_t N, int64_t K) {
    Array w(t, {N, K});
    for (int64_t i = 0; i < N * K; ++i) w.set(i, counting_value(i));
    return w;
}

TEST(MatmulPack, PanelsHoldRowsSideBySideForEveryK) {
    for (const char *family : {"matmul_pack", "matmul_pack_bf16"}) {
        const DType t = std::string(family) == "matmul_pack" ? DType::Float32 : DType::BFloat16;
        for (const auto &[N, K] : {std::pair<int64_t, int64_t>{64, 35}, {32, 1}, {96, 17}}) {
            const Array w = counting_weights(t, N, K);
            for (const Kernel &k : kernels_of(family)) {
                const Array p = run_exact(*k.kernel, {{"weight", w}});
                ASSERT_EQ(p.shape(), (std::vector<int64_t>{N / 32, K, 32})) << family << " " << k.label;
                ASSERT_EQ(p.dtype(), t);
                int64_t wrong = 0;
                for (int64_t q = 0; q < N / 32; ++q) {
                    for (int64_t kk = 0; kk < K; ++kk) {
                        for (int64_t i = 0; i < 32; ++i) {
                            wrong += p.get((q * K + kk) * 32 + i) != counting_value((32 * q + i) * K + kk);
                        }
                    }
                }
                EXPECT_EQ(wrong, 0) << family << " " << k.label << " N=" << N << " K=" << K;
            }
        }
    }
}

TEST(MatmulPack, PackedKernelsMatchTheUnpackedLinear) {
    // The round trip: W packed by every packing kernel, multiplied by every packed kernel, equals
    // the interpreter's Linear on W as it was (float32 and bfloat16 weights).
    const int64_t M = 5, K = 37, N = 64;
    for (const DType t : {DType::Float32, DType::BFloat16}) {
        const bool bf16 = t == DType::BFloat16;
        const Tensor xt = input("x", DType::Float32, {M, K}), wt = input("weight", t, {N, K});
        const Inputs in = testing::random_inputs(Graph({nn::linear(xt, wt)}), {}, 3);
        const Array want = interpret(nn::linear(xt, wt), in);
        for (const Kernel &pack : kernels_of(bf16 ? "matmul_pack_bf16" : "matmul_pack")) {
            const Array packed = run_exact(*pack.kernel, {{"weight", in.at("weight")}});
            for (const Kernel &mm : kernels_of(bf16 ? "matmul_packed_bf16" : "matmul_packed")) {
                EXPECT_TRUE(arrays_near(want, run_exact(*mm.kernel, {{"x", in.at("x")}, {"packed", packed}}), tolerance(K), 1e-5))
                    << pack.label << " then " << mm.label;
            }
        }
    }
}

TEST(MatmulPack, RowsNotAMultipleOfThePanelAreRefusedByName) {
    const Array w(DType::Float32, {33, 8});
    Array out(DType::Float32, {1, 8, 32});
    testing::expect_error<BufferError>([&] { FamilyKernel::aot("matmul_pack", "transpose").run({{"weight", const_cast<Array &>(w).ref()}}, out.ref()); },
                                       {"matmul_pack", "'weight'", "[33, 8]", "[32*P, K]", "not a multiple of 32"});
    testing::expect_error<ShapeError>([] { find_family("matmul_packed").cases({{"n", "100"}}); },
                                      {"matmul_packed", "N = 100", "multiple of 32"});
    testing::expect_error<ShapeError>([] { nn::pack_panels(input("w", DType::Float32, {Dim::sym("N"), 4}), 32); },
                                      {"pack_panels", "[N, 4]", "multiple of 32"});
}

TEST(MatmulCalls, InputsThatDoNotFitAreTypedErrors) {
    Array x(DType::Float32, {3, 5}), w(DType::Float32, {7, 6}), out(DType::Float32, {3, 7});
    testing::expect_error<BufferError>([&] { FamilyKernel::aot("matmul", "dot").run({{"x", x.ref()}, {"weight", w.ref()}}, out.ref()); },
                                       {"matmul", "'weight'", "[7, 6]"});
    Array p(DType::Float32, {2, 5, 32}), y(DType::Float32, {3, 64});
    testing::expect_error<BufferError>([&] { FamilyKernel::aot("matmul_packed_bf16", "tiled").run({{"x", x.ref()}, {"packed", p.ref()}}, y.ref()); },
                                       {"matmul_packed_bf16", "'packed'", "float32", "bfloat16"});
    testing::expect_error<ShapeError>([] { nn::linear(input("x", DType::Float32, {2, 5}), input("w", DType::Float32, {3, 4})); },
                                      {"linear", "[2, 5]", "[3, 4]"});
    testing::expect_error<DTypeError>([] { nn::linear(input("x", DType::BFloat16, {2, 4}), input("w", DType::Float32, {3, 4})); },
                                      {"linear", "x bfloat16"});
}

// ---- gemv takes every call tiled takes ------------------------------------------------------------

TEST(MatmulPackedGemv, TakesEveryCallTheTiledKernelTakes) {
    for (const char *family : {"matmul_packed", "matmul_packed_bf16"}) {
        const Family &f = find_family(family);
        const FamilyKernel tiled = FamilyKernel::aot(family, "tiled"), gemv = FamilyKernel::aot(family, "gemv");
        int both = 0;
        uint32_t seed = 40;
        for (int64_t M : {0, 1, 2, 4, 5, 12, 13, 16, 17, 40, 100}) {
            for (int64_t K : {0, 1, 3, 257}) {
                for (int64_t N : {0, 32, 64}) {
                    const Inputs in = testing::random_inputs_shaped(f.graph(), call_shapes(family, {M}, K, N), seed++);
                    Array a, b;
                    try {
                        a = run_exact(tiled, in);
                    } catch (const Error &e) {
                        // Not a call tiled takes: only an empty input, which a clamped read rejects.
                        EXPECT_EQ(K, 0) << family << " M=" << M << " N=" << N << ": " << e.what();
                        continue;
                    }
                    EXPECT_NO_THROW(b = run_exact(gemv, in)) << family << " M=" << M << " K=" << K << " N=" << N;
                    EXPECT_TRUE(arrays_near(a, b, tolerance(K), 1e-5)) << family << " M=" << M << " K=" << K << " N=" << N;
                    ++both;
                }
            }
        }
        EXPECT_GE(both, 11 * 3 * 3) << family << ": tiled took every call with K > 0";
    }
}

// ---- The default's dispatch on M, in the AOT loop nest -------------------------------------------

std::string stmt_of(const std::string &family, const std::string &variant) {
    const AotKernel *k = find_aot_kernel(family, variant);
    if (!k) return "";
    std::ifstream file(k->stmt_path);
    EXPECT_TRUE(file) << k->stmt_path;
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// The tiles of a family's packed schedules on the build machine (matmul.h: panel_tiles).
matmuls::PanelTiles tiles_of(const std::string &family) {
    return matmuls::panel_tiles(halogen::host_target(), family == "matmul_packed_bf16" ? Halide::BFloat(16) : Halide::Float(32));
}

TEST(MatmulPackedTiled, UpToSixteenTokensRunsGemvTiles) {
    const int lanes = halogen::host_target().natural_vector_size(Halide::Float(32));
    for (const char *family : {"matmul_packed", "matmul_packed_bf16"}) {
        const std::string tiled = stmt_of(family, "tiled"), gemv = stmt_of(family, "gemv");
        EXPECT_NE(tiled.find("x.extent.1 <= 16"), std::string::npos) << family << " tiled: no branch on M <= 16";
        // A branch of its own up to 4 tokens where that tile differs (matmul.h: panel_tiles).
        const matmuls::PanelTiles tiles = tiles_of(family);
        const bool small = tiles.small != tiles.few;
        EXPECT_EQ(tiled.find("x.extent.1 <= 4") != std::string::npos, small) << family << " tiled: the branch on M <= 4";
        EXPECT_EQ(gemv.find("x.extent.1 <= 4") != std::string::npos, small) << family << " gemv: the branch on M <= 4";
        // A task stores kTaskPanels panels of outputs; a tile of fewer panels takes them one at a time.
        const std::string task = fmt::format("ni.ni, 0, {})", matmuls::kTaskPanels * matmuls::kPanelRows / lanes);
        EXPECT_NE(tiled.find(task), std::string::npos) << family << " tiled: no task of " << matmuls::kTaskPanels << " panels";
        EXPECT_NE(gemv.find(task), std::string::npos) << family << " gemv: no task of " << matmuls::kTaskPanels << " panels";
        const bool by_panel = tiles.few.panels < matmuls::kTaskPanels;
        EXPECT_EQ(gemv.find(fmt::format("panel, 0, {})", matmuls::kTaskPanels)) != std::string::npos, by_panel)
            << family << " gemv: a few tokens " << (by_panel ? "not " : "") << "panel by panel";
    }
}

// ---- The inner loops of the register tiles, in the AOT assembly ---------------------------------

// The basic blocks of the AOT kernel's assembly, each as its instructions (with their operands).
std::vector<std::vector<std::string>> blocks_of(const std::string &family, const std::string &variant) {
    const AotKernel *k = find_aot_kernel(family, variant);
    if (!k) return {};
    std::string path = k->stmt_path;
    path = path.substr(0, path.rfind('.')) + ".s";
    std::ifstream file(path);
    EXPECT_TRUE(file) << path;
    std::vector<std::vector<std::string>> blocks(1);
    const std::regex label(R"(^(\.LBB[0-9_]+:|# %bb\.))");   // a labelled block, or one only fallen into
    for (std::string line; std::getline(file, line);) {
        if (std::regex_search(line, label)) {
            blocks.emplace_back();
            continue;
        }
        const std::size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#' || line[first] == '.') continue;
        std::string instruction = line.substr(first, line.find('#', first) - first);   // no comment
        std::replace(instruction.begin(), instruction.end(), '\t', ' ');
        blocks.back().push_back(std::move(instruction));
    }
    return blocks;
}

int count_prefix(const std::vector<std::string> &ops, const std::string &prefix) {
    return int(std::count_if(ops.begin(), ops.end(), [&](const std::string &o) { return o.rfind(prefix, 0) == 0; }));
}

// Instructions that touch the stack: register spills and reloads.
int count_stack(const std::vector<std::string> &ops) {
    return int(std::count_if(ops.begin(), ops.end(), [](const std::string &o) { return o.find("(%rsp)") != std::string::npos; }));
}

// Vector registers spilled to or reloaded from the stack (an accumulator or operand of the tile
// that did not fit the registers).
int count_vector_stack(const std::vector<std::string> &ops) {
    return int(std::count_if(ops.begin(), ops.end(), [](const std::string &o) {
        return o.find("(%rsp)") != std::string::npos && o.find("mm") != std::string::npos;
    }));
}

// The register tiles are sized for the build machine's vector registers (matmul.h: dot_tile,
// panel_tiles); the AOT kernels are compiled for it.
int float_lanes() { return halogen::host_target().natural_vector_size(Halide::Float(32)); }

// Reads of memory other than broadcasts: the panel's vectors (a load, or an FMA's memory operand).
// An address computed (lea) reads nothing.
int panel_reads(const std::vector<std::string> &ops) {
    return int(std::count_if(ops.begin(), ops.end(), [](const std::string &o) {
        return o.find("(%") != std::string::npos && o.rfind("vbroadcastss", 0) != 0 && o.rfind("lea", 0) != 0 &&
               o.find("(%rsp)") == std::string::npos;
    }));
}

// The blocks of a kernel's assembly with `fmas` FMAs that read `reads` panel vectors.
std::vector<std::vector<std::string>> loops_with(const std::string &family, const std::string &variant, int fmas, int reads) {
    std::vector<std::vector<std::string>> found;
    for (const auto &block : blocks_of(family, variant)) {
        if (count_prefix(block, "vfmadd") == fmas && panel_reads(block) == reads) found.push_back(block);
    }
    return found;
}

// A panel of 32 outputs is 32 / lanes vectors: each step of the GEMM's loop loads the tile's panel
// vectors once, broadcasts x for each of its G tokens and issues one FMA per vector and token, no
// vector register spilled (AVX-512: both panels, 4 loads, 6 broadcasts, 24 FMAs). The tokens' row
// addresses may not all fit the 16 general registers beside the loop's counters: a few may be
// reloaded from the stack each step, scalar loads beside the FMAs.
TEST(MatmulAssembly, TiledInnerLoopIsPanelLoadsBroadcastsAndFmasOnly) {
    for (const char *family : {"matmul_packed", "matmul_packed_bf16"}) {
        const matmuls::PanelTile tile = tiles_of(family).tiles;
        const int vectors = 32 / float_lanes() * tile.panels, group = tile.tokens;
        const auto loops = loops_with(family, "tiled", vectors * group, vectors);
        ASSERT_FALSE(loops.empty()) << family << ": no loop of " << vectors * group << " FMAs reading the panel once";
        for (const std::vector<std::string> &loop : loops) {
            std::string text;
            for (const std::string &op : loop) text += op + " ";
            EXPECT_EQ(count_prefix(loop, "vbroadcastss"), group) << family << ": " << text;
            EXPECT_EQ(count_prefix(loop, "vgather") + count_prefix(loop, "vpgather") + count_prefix(loop, "vinsert") +
                          count_prefix(loop, "vpinsr"),
                      0)
                << family << ": " << text;
            EXPECT_EQ(count_vector_stack(loop), 0) << family << ": " << text;
            if (std::string(family) == "matmul_packed") {
                EXPECT_EQ(count_prefix(loop, "vmovups") + count_prefix(loop, "vmovaps"), vectors) << text;
            } else {   // bfloat16 widened on the load: a zero extension and a shift by 16
                EXPECT_EQ(count_prefix(loop, "vpmovzxwd"), vectors) << text;
                EXPECT_EQ(count_prefix(loop, "vpslld"), vectors) << text;
            }
        }
    }
}

// One token (decode) reads each panel as kDecodeStreams parts of K side by side, the task's panels
// side by side too (AVX-512): a step of its loop reads a row of each panel from each part,
// broadcasts x once per part and issues an FMA per vector and part, nothing spilled.
TEST(MatmulAssembly, OneTokenReadsThePanelInParts) {
    const int parts = matmuls::kDecodeStreams;
    for (const char *family : {"matmul_packed", "matmul_packed_bf16"}) {
        const int vectors = 32 / float_lanes() * tiles_of(family).one.panels;
        for (const char *variant : {"tiled", "gemv"}) {
            const auto loops = loops_with(family, variant, vectors * parts, vectors * parts);
            ASSERT_FALSE(loops.empty()) << family << " " << variant << ": no loop of " << vectors * parts
                                        << " FMAs reading " << parts << " parts of the panel";
            for (const std::vector<std::string> &loop : loops) {
                std::string text;
                for (const std::string &op : loop) text += op + " ";
                EXPECT_EQ(count_prefix(loop, "vbroadcastss"), parts) << family << " " << variant << ": " << text;
                EXPECT_EQ(count_stack(loop), 0) << family << " " << variant << ": " << text;
            }
        }
    }
}

// A few tokens run in gemv's tiles (AVX-512: 4 tokens against both of the task's panels up to 4
// tokens; above, float32 8 tokens a panel at a time and bfloat16 4 against both panels; 16
// accumulators each): each tile's inner loop is the panels' loads, a broadcast of x per token and
// an FMA per vector and token, no vector register spilled (a scalar such as the loop's bound may
// be reloaded from the stack).
TEST(MatmulAssembly, FewTokensRunGemvTiles) {
    for (const char *family : {"matmul_packed", "matmul_packed_bf16"}) {
        const matmuls::PanelTiles tiles = tiles_of(family);
        for (const char *variant : {"tiled", "gemv"}) {
            for (const matmuls::PanelTile &tile : {tiles.small, tiles.few}) {
                const int vectors = 32 / float_lanes() * tile.panels;
                const auto loops = loops_with(family, variant, vectors * tile.tokens, vectors);
                EXPECT_FALSE(loops.empty()) << family << " " << variant << ": no loop of " << vectors * tile.tokens
                                            << " FMAs reading " << vectors << " panel vectors";
                for (const auto &loop : loops) {
                    std::string text;
                    for (const std::string &op : loop) text += op + " ";
                    EXPECT_EQ(count_prefix(loop, "vbroadcastss"), tile.tokens) << family << " " << variant << ": " << text;
                    EXPECT_EQ(count_vector_stack(loop), 0) << family << " " << variant << ": " << text;
                }
            }
        }
    }
}

// Rows x tokens accumulators (AVX-512: 4 x 6 = 24; with the 4 rows' vectors and one of x they fit
// the 32 zmm registers; AVX2: 4 x 2 of 16): nothing touches the stack, and a step loads each row's
// vector and each token's once (AVX-512: 4 + 6 loads).
TEST(MatmulAssembly, DotInnerLoopIsDenseLoadsAndFmasOnly) {
    const matmuls::DotTile tile = matmuls::dot_tile(halogen::host_target());
    for (const char *family : {"matmul", "linear"}) {
        // The tile's loop: rows x tokens FMAs (one token's loop may have as many, from memory).
        int found = 0;
        std::string seen;
        for (const auto &loop : blocks_of(family, "dot")) {
            if (count_prefix(loop, "vfmadd") != tile.rows * tile.tokens) continue;
            std::string text;
            for (const std::string &op : loop) text += op + " ";
            seen += text + "\n";
            const int loads = count_prefix(loop, "vmovups") + count_prefix(loop, "vmovaps");
            if (loads == tile.rows + tile.tokens && count_stack(loop) == 0 &&
                count_prefix(loop, "vgather") + count_prefix(loop, "vinsert") == 0) {
                ++found;
            }
        }
        EXPECT_GE(found, 1) << family << ": no loop of " << tile.rows * tile.tokens << " FMAs, " << tile.rows + tile.tokens
                            << " loads and no stack access among\n" << seen;
    }
}

}  // namespace
}  // namespace halogen
