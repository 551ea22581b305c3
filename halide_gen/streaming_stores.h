// Streaming (non-temporal) stores for an AOT kernel's output, which Halide 14 has no schedule
// directive for. A store through the cache first reads the line it writes (a read for ownership)
// and leaves it in the cache, so a kernel that streams a large output moves three lines per line
// written; a non-temporal store writes the line without reading it. On the AMD EPYC VM of session
// 9, LayerNorm 1x2048x4096 at 1 thread took 4.49 ms with cached stores and 2.77 ms with
// streaming ones (perf/notes.md, *Streaming stores*).
//
// The rewrite works on the LLVM module Halide generates, after Halide's own optimization: every
// vector store whose TBAA tag names an output buffer becomes
//     if (address % store_size == 0) non-temporal aligned store  else  the original store
// (a non-temporal vector store needs an aligned address, and Halide cannot prove one for a buffer
// whose strides are known only at run time), and every function holding such stores ends with an
// sfence, so the stores are visible before the kernel returns to its caller or thread pool.
// Masked and scalar stores (tails) stay as they are.
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

// Compiles `module` (a Halide AOT module for a CPU target) to an object file and, unless
// `assembly_path` is empty, an assembly listing, with its outputs' vector stores streamed.
// Returns how many stores were rewritten.
int compile_with_streaming_stores(const Halide::Module &module, const std::string &object_path,
                                  const std::string &assembly_path);

}  // namespace halogen
