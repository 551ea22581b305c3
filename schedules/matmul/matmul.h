// The matmul families: torch's Linear, y[M, N] = x[M, K] . W[N, K]^T (+ bias[N]), the leading axes
// of x collapsed into M (frontend/nn/linear.h). Weights come as checkpoints store them ([N, K]:
// `matmul`, `linear`), or packed once at load time into panels of kPanelRows outputs
// ([P, K, 32], `matmul_pack`, `matmul_pack_bf16`) that the fast kernels stream
// (`matmul_packed`, `matmul_packed_bf16`: float32 or bfloat16 weights, float32 arithmetic).
#pragma once

#include "halide_gen/compiler/lower.h"
#include "schedules/family.h"

namespace halogen::matmuls {

// Outputs per panel of packed weights: two AVX-512 vectors of float32. Every llama3 and SmolLM2
// projection has a multiple of 32 outputs.
constexpr int64_t kPanelRows = 32;
// Panels per task of the packed schedules: one token and a few tokens read that many panels side
// by side, more streams of W at once than one panel gives (panels.cpp).
constexpr int64_t kTaskPanels = 2;
// One token's dot products (decode) read each panel as this many parts of K side by side (panels.cpp).
constexpr int kDecodeStreams = 2;

Family matmul();              // x [*M, K], weight [N, K] -> [*M, N]
Family linear();              // the same plus bias [N]
Family pack();                // weight [32*P, K] -> [P, K, 32], float32
Family pack_bf16();           // the same, bfloat16
Family packed();              // x [*M, K], packed [P, K, 32] float32 -> [*M, 32*P]
Family packed_bf16();         // the same, bfloat16 panels

// The register tiles of the hand schedules on a target (vector_registers: 32 or 16), which the
// assembly tests check against.
struct DotTile {
    int rows, tokens;   // dot: weight rows x tokens, one accumulator each
};
DotTile dot_tile(const Halide::Target &target);
// A register tile of the packed schedules: `tokens` tokens against the vectors of `panels` of the
// task's panels side by side, an accumulator per token and vector.
struct PanelTile {
    int tokens, panels;
    bool operator==(const PanelTile &o) const { return tokens == o.tokens && panels == o.panels; }
    bool operator!=(const PanelTile &o) const { return !(*this == o); }
};
// The tiles for float32 or bfloat16 panels: one token (its K in kDecodeStreams parts), up to 4
// tokens, up to 16 tokens (`gemv`'s above that too), and `tiled`'s GEMM.
struct PanelTiles {
    PanelTile one, small, few, tiles;
};
PanelTiles panel_tiles(const Halide::Target &target, Halide::Type weights);

// Hand schedules (schedules.cpp, panels.cpp); `naive` is Halide's defaults.
void dot(LoweredGraph &lg, const Halide::Target &target);         // unpacked W: register tile along K
void transpose(LoweredGraph &lg, const Halide::Target &target);   // the packing: blocks of a panel
void gemv(LoweredGraph &lg, const Halide::Target &target);        // packed W, few tokens: a panel at a time
void tiled(LoweredGraph &lg, const Halide::Target &target);       // packed W: register-blocked GEMM
// A group of Linears with what they feed (a norm before, RoPE, SiLU times up, a residual add
// after), by its weights' layout: `tiled` when every Linear reads panels, else `dot`.
void projections(LoweredGraph &lg, const Halide::Target &target);

}  // namespace halogen::matmuls
