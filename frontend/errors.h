// Typed errors raised by halogen. Every message names the op and the shapes involved,
// e.g. "add: cannot broadcast shapes [3, 4] and [5]".
#pragma once

#include <stdexcept>
#include <string>

namespace halogen {

// Base of every halogen error: catch this to handle them all.
struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ShapeError : Error { using Error::Error; };    // incompatible or invalid shapes
struct DTypeError : Error { using Error::Error; };    // an op applied to the wrong element type
struct AxisError : Error { using Error::Error; };     // an axis out of range, repeated or missing
struct ViewError : Error { using Error::Error; };     // a bad reshape, permutation, slice or pad
struct BindingError : Error { using Error::Error; };  // a symbolic dim left unbound or bound badly
struct BufferError : Error { using Error::Error; };   // a caller buffer that does not fit its tensor
struct GraphError : Error { using Error::Error; };    // a malformed graph: cycle, dangling input, ...
struct ScheduleError : Error { using Error::Error; }; // a schedule that does not fit its group
struct FormatError : Error { using Error::Error; };   // a model file (safetensors, checkpoint index) that is malformed
struct ConfigError : Error { using Error::Error; };   // a model config that is malformed or not supported

}  // namespace halogen
