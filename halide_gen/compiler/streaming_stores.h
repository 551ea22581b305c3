// Streaming (non-temporal) stores for an AOT kernel's output, which Halide 14 has no schedule
// directive for. A store through the cache first reads the line it writes (a read for ownership)
// and leaves it in the cache, so a kernel that streams a large output moves three lines per line
// written; a non-temporal store writes the line without reading it (`halogen_perf
// --streaming-sweep` times both entries of each kernel, perf/notes.md *Streaming stores*).
//
// The rewrite works on the LLVM module Halide generates, after Halide's own optimization: every
// vector store whose TBAA tag names an output buffer becomes
//     if (address % store_size == 0) non-temporal aligned store  else  the original store
// (a non-temporal vector store needs an aligned address, and Halide cannot prove one for a buffer
// whose strides are known only at run time), and every function holding such stores ends with an
// sfence, so the stores are visible before the kernel returns to its caller or thread pool.
// Masked and scalar stores (tails) stay as they are.
//
// A twin's schedule may also prefetch (LayerNorm's and RMSNorm's, schedules/norms/schedules.cpp).
// Halide 14 emits every prefetch with the non-temporal hint (prefetchnta), which on a Zen 4 made
// LayerNorm slower, as did prefetcht0 (into the L1, where the task's own rows are); the twin's
// prefetches become prefetcht1, which fills the L2 (perf/notes.md, *Next rows prefetched*).
#pragma once

#include <string>
#include <vector>

#include <Halide.h>

namespace llvm {
class Module;
}

namespace halogen {

// Rewrites the vector stores into `output_buffers` (names as in the LLVM module's TBAA tags, i.e.
// the Halide pipeline's output arguments). Returns how many stores were rewritten.
int stream_output_stores(llvm::Module &module, const std::vector<std::string> &output_buffers);

// Sets every llvm.prefetch in `module` to fill the L2 (locality 2: prefetcht1 on x86). Returns how
// many there were.
int prefetch_into_l2(llvm::Module &module);

// Compiles `module` (a Halide AOT module for a CPU target) to an object file and, unless
// `assembly_path` is empty, an assembly listing, with its outputs' vector stores streamed and its
// prefetches into the L2.
// Returns how many stores were rewritten.
int compile_with_streaming_stores(const Halide::Module &module, const std::string &object_path,
                                  const std::string &assembly_path);

}  // namespace halogen
