// The bounds every render keeps, so that no template can hang, exhaust memory or overflow the
// stack: past one, rendering stops with a TemplateError naming the bound. The defaults leave
// real chat templates (thousands of messages, tool lists, long contents) far inside them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace halogen::jinja {

struct Limits {
    size_t max_output_bytes = size_t(16) << 20;   // the rendered text
    size_t max_string_bytes = size_t(16) << 20;   // any one string the template builds
    size_t max_list_items = size_t(1) << 20;      // any one list the template builds (range(), *, ...)
    int64_t max_steps = 5'000'000;                // loop iterations, macro calls, items filtered, bytes/64 built
    int max_nesting = 128;                        // nested tags and expressions in the source; nested lists and dicts
    int max_call_depth = 400;                     // evaluation depth at run time, macro calls included
};

}  // namespace halogen::jinja
