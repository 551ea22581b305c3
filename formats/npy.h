// NumPy .npy files: read them into an Array and write an Array as one, so that inputs, weights and
// expected outputs can come from (and go back to) Python. Supported element types: '<f4' (float32),
// '<i4' (int32), '|b1' (bool) and '<u2', read as the bit patterns of bfloat16 values (NumPy has no
// bfloat16: save `w.view(np.uint16)`, or torch's `w.view(torch.int16).numpy()`); '<i8' and '<f8'
// are read by converting to int32 / float32 when every value fits. Big-endian data, Fortran
// order, object and structured dtypes are rejected.
//
// The reader treats its input as hostile: any problem is an NpyError, it never reads past the
// bytes it was given, and it allocates only what the bytes present can fill.
#pragma once

#include <string>

#include "frontend/array.h"
#include "frontend/errors.h"

namespace halogen {

// A file that cannot be read or written as .npy. The message is one line naming the file (its path,
// or "<memory>") and the problem, e.g. "ids.npy: data is 12 bytes, header promises 40 (shape [10], int32)".
struct NpyError : Error { using Error::Error; };

// Reads a .npy file (format versions 1.0, 2.0 and 3.0), in stages checked one by one: the preamble,
// the header, then exactly the data the header promises; it never reads or allocates more.
// `file_dtype`, when given, receives the element type the file holds ("float64", "int32", ...),
// which a converted array no longer shows.
Array read_npy(const std::string &path, std::string *file_dtype = nullptr);
// The same, for the file's contents already in memory; `name` labels error messages.
Array parse_npy(const std::string &bytes, const std::string &name = "<memory>", std::string *file_dtype = nullptr);

// Writes `a` as a version 1.0, little-endian .npy file, byte for byte as NumPy 1.24's np.save would.
void write_npy(const std::string &path, const Array &a);
// The same file's contents, as bytes.
std::string format_npy(const Array &a);

}  // namespace halogen
