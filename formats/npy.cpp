// NumPy .npy files: the reader (preamble, a small parser for the header's Python dict literal, size
// checks made before any allocation, element conversion) and the writer (NumPy 1.24's exact layout).
//
// File layout: "\x93NUMPY", major and minor version bytes, the header length (2 bytes little-endian
// in version 1.0, 4 bytes in 2.0 and 3.0), the header, then the raw elements. The header is a dict
// literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } padded with spaces.
#include "formats/npy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string_view>

#include "formats/printable_text.h"

namespace halogen {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "npy.cpp copies little-endian data as is");

namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);
constexpr int64_t kMaxElements = int64_t(1) << 40;   // larger claims are rejected outright
constexpr size_t kMaxRank = 64;
constexpr size_t kAlign = 64;                         // data starts at a multiple of this (as NumPy)
constexpr size_t kGrowthDigits = 21;                  // NumPy's spare room for a growing first axis

[[noreturn]] void fail(const std::string &name, const std::string &problem) {
    throw NpyError(name + ": " + problem);
}

// Untrusted header text in a message: short, as a header's fields are.
std::string printable(std::string_view s, size_t max_len = 24) { return printable_text(s, max_len); }

// ----------------------------------------------------------------------------------------------
// The header dict. Grammar (whitespace allowed between tokens, a trailing comma allowed):
//   dict   := '{' (key ':' value (',' key ':' value)*)? '}'
//   key    := string                                   -- 'descr', 'fortran_order' or 'shape'
//   value  := string | 'True' | 'False' | tuple
//   tuple  := '(' ')' | '(' int ',' ')' | '(' int (',' int)+ ')'
//   string := quoted with ' or ", no escapes
//   int    := digits, optionally followed by L (as Python 2 NumPy wrote)

struct Header {
    std::string descr;
    bool fortran_order = false;
    std::vector<int64_t> shape;
};

class HeaderParser {
public:
    HeaderParser(std::string_view text, const std::string &name) : s_(text), name_(name) {}

    Header parse() {
        Header h;
        bool have_descr = false, have_order = false, have_shape = false;
        expect('{', "expected '{' (the header must be a dict)");
        while (!eat('}')) {
            skip_space();
            if (at_end() || (peek() != '\'' && peek() != '"')) error("expected a string key or '}'");
            std::string key = string_literal();
            expect(':', "expected ':' after the key");
            if (key == "descr") {
                once(have_descr, key);
                skip_space();
                if (!at_end() && peek() == '[')
                    fail(name_, "structured dtypes (a list of fields in 'descr') are not supported");
                h.descr = string_literal();
            } else if (key == "fortran_order") {
                once(have_order, key);
                h.fortran_order = bool_literal();
            } else if (key == "shape") {
                once(have_shape, key);
                h.shape = shape_tuple();
            } else {
                fail(name_, fmt::format("bad header: unexpected key '{}' (expected 'descr', "
                                        "'fortran_order' and 'shape')", printable(key)));
            }
            if (!eat(',')) {
                expect('}', "expected ',' or '}' after a value");
                break;
            }
        }
        skip_space();
        if (!at_end()) error("unexpected text after the dict");
        for (auto [have, key] : {std::pair{have_descr, "descr"}, std::pair{have_order, "fortran_order"},
                                 std::pair{have_shape, "shape"}})
            if (!have) fail(name_, fmt::format("bad header: no '{}' key", key));
        return h;
    }

private:
    std::string_view s_;
    const std::string &name_;
    size_t pos_ = 0;

    bool at_end() const { return pos_ >= s_.size(); }
    char peek() const { return s_[pos_]; }

    [[noreturn]] void error(const std::string &problem) const {
        std::string where = at_end() ? "at the end of the header"
                                     : fmt::format("at column {} (near '{}')", pos_ + 1,
                                                   printable(s_.substr(pos_), 12));
        fail(name_, fmt::format("bad header: {} {}", problem, where));
    }

    void skip_space() {
        while (!at_end() && std::strchr(" \t\r\n", peek()) != nullptr && peek() != '\0') ++pos_;
    }

    // Skips whitespace, then consumes `c` if it comes next.
    bool eat(char c) {
        skip_space();
        if (at_end() || peek() != c) return false;
        ++pos_;
        return true;
    }

    void expect(char c, const char *problem) {
        if (!eat(c)) error(problem);
    }

    void once(bool &seen, const std::string &key) const {
        if (seen) fail(name_, fmt::format("bad header: key '{}' appears twice", key));
        seen = true;
    }

    std::string string_literal() {
        skip_space();
        if (at_end() || (peek() != '\'' && peek() != '"')) error("expected a quoted string");
        char quote = s_[pos_++];
        size_t start = pos_;
        while (!at_end() && peek() != quote) {
            if (peek() == '\\') error("escape sequences in strings are not supported");
            if (peek() == '\n') break;
            ++pos_;
        }
        if (at_end() || peek() != quote) error("unterminated string");
        return std::string(s_.substr(start, pos_++ - start));
    }

    bool bool_literal() {
        skip_space();
        for (auto [word, value] : {std::pair{std::string_view("True"), true},
                                   std::pair{std::string_view("False"), false}}) {
            if (s_.substr(pos_, word.size()) == word) {
                size_t after = pos_ + word.size();
                bool word_ends = after >= s_.size() || !(std::isalnum(static_cast<unsigned char>(s_[after])) ||
                                                         s_[after] == '_');
                if (word_ends) {
                    pos_ = after;
                    return value;
                }
            }
        }
        error("expected True or False for 'fortran_order'");
    }

    std::vector<int64_t> shape_tuple() {
        expect('(', "expected a tuple such as (2, 3) for 'shape'");
        std::vector<int64_t> dims;
        if (eat(')')) return dims;
        while (true) {
            dims.push_back(dim());
            if (dims.size() > kMaxRank)
                fail(name_, fmt::format("shape has more than {} dimensions", kMaxRank));
            if (eat(',')) {
                if (eat(')')) return dims;
                continue;
            }
            if (eat(')')) {
                if (dims.size() == 1) error("'shape' is not a tuple (a 1-tuple needs a comma, as in (3,))");
                return dims;
            }
            error("expected ',' or ')' in the shape tuple");
        }
    }

    int64_t dim() {
        skip_space();
        bool negative = eat('-');
        skip_space();
        size_t start = pos_;
        int64_t value = 0;                             // saturates just above kMaxElements
        while (!at_end() && std::isdigit(static_cast<unsigned char>(peek()))) {
            value = std::min<int64_t>(value * 10 + (peek() - '0'), kMaxElements + 1);
            ++pos_;
        }
        if (pos_ == start) error("expected an integer in the shape tuple");
        std::string digits = printable(s_.substr(start, pos_ - start));
        if (!at_end() && peek() == 'L') ++pos_;
        if (negative && value != 0) fail(name_, fmt::format("shape has a negative dimension, -{}", digits));
        if (value > kMaxElements) fail(name_, fmt::format("shape has an absurd dimension, {} (limit 2^40)", digits));
        return value;
    }
};

// ----------------------------------------------------------------------------------------------
// Element types as stored in the file.

struct FileType {
    DType dtype;           // what the Array holds
    size_t itemsize;       // bytes per element in the file
    const char *name;      // for messages
};

FileType file_type(const std::string &descr, const std::string &name) {
    if (descr == "<f4") return {DType::Float32, 4, "float32"};
    if (descr == "<i4") return {DType::Int32, 4, "int32"};
    if (descr == "<f8") return {DType::Float32, 8, "float64"};
    if (descr == "<i8") return {DType::Int32, 8, "int64"};
    if (descr == "<u2") return {DType::BFloat16, 2, "bfloat16"};
    if (descr.size() == 3 && descr.substr(1) == "b1" && std::strchr("|<>=", descr[0]) != nullptr)
        return {DType::Bool, 1, "bool"};               // one byte: byte order is irrelevant
    std::string shown = printable(descr);
    if (!descr.empty() && descr[0] == '>')
        fail(name, fmt::format("big-endian dtype '{}' is not supported (save with arr.astype('<{}'))",
                               shown, printable(descr.substr(1))));
    if (descr.find('O') != std::string::npos)
        fail(name, fmt::format("object arrays (dtype '{}') are not supported", shown));
    fail(name, fmt::format("unsupported dtype '{}' (supported: '<f4', '<i4', '|b1', '<u2' as bfloat16 bits, and "
                           "'<i8', '<f8' when the values fit in 32 bits)", shown));
}

// Element count of `shape`, rejecting counts above kMaxElements. The product of the non-zero dims
// is bounded too, so that no partial product anywhere (Array::size included) can overflow.
int64_t checked_count(const std::vector<int64_t> &shape, const std::string &name) {
    int64_t n = 1;
    bool empty = false;
    for (int64_t d : shape) {
        if (d == 0) {
            empty = true;
            continue;
        }
        if (n > kMaxElements / d)
            fail(name, fmt::format("shape {} has more than 2^40 elements", dims_str(shape)));
        n *= d;
    }
    return empty ? 0 : n;
}

// Little-endian unsigned integer of `width` bytes at `p`.
uint64_t read_le(const char *p, size_t width) {
    uint64_t v = 0;
    for (size_t i = 0; i < width; ++i) v |= uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
    return v;
}

// Fills `a` from `n` elements of type `t` at `src`, which the caller has checked are all there.
void convert(const char *src, int64_t n, const FileType &t, Array &a, const std::string &name) {
    if (n == 0) return;                                // the Array may hold no buffer at all
    if (t.itemsize == dtype_size(a.dtype()) && a.dtype() != DType::Bool) {
        std::memcpy(a.data<uint8_t>(), src, static_cast<size_t>(n) * t.itemsize);
        return;
    }
    for (int64_t k = 0; k < n; ++k) {
        const char *p = src + k * static_cast<int64_t>(t.itemsize);
        switch (a.dtype()) {
        case DType::Bool: a.data<uint8_t>()[k] = *p != 0; break;   // any non-zero byte is True
        case DType::BFloat16: break;                                // same size as the file's: copied above
        case DType::Int32: {
            int64_t v;
            std::memcpy(&v, p, sizeof v);
            if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())
                fail(name, fmt::format("int64 value {} at flat index {} does not fit in int32", v, k));
            a.data<int32_t>()[k] = static_cast<int32_t>(v);
            break;
        }
        case DType::Float32: {
            double v;
            std::memcpy(&v, p, sizeof v);
            if (std::isfinite(v) && std::fabs(v) > FLT_MAX)
                fail(name, fmt::format("float64 value {} at flat index {} is out of float32 range", v, k));
            a.data<float>()[k] = static_cast<float>(v);     // rounds to nearest; inf and nan carry over
            break;
        }
        }
    }
}

std::string descr_of(DType t) {
    switch (t) {
    case DType::Float32: return "<f4";
    case DType::Int32: return "<i4";
    case DType::Bool: return "|b1";
    case DType::BFloat16: return "<u2";
    }
    return "";
}

// Python's repr of a tuple of ints: (), (3,), (2, 3).
std::string shape_repr(const std::vector<int64_t> &shape) {
    if (shape.size() == 1) return fmt::format("({},)", shape[0]);
    return fmt::format("({})", fmt::join(shape, ", "));
}

// The preamble: where the header starts and how long it says it is. Needs at most 12 bytes.
struct Preamble {
    size_t header_start;
    uint64_t header_len;
};

Preamble parse_preamble(std::string_view bytes, const std::string &name) {
    size_t magic_present = std::min(bytes.size(), kMagic.size());
    if (bytes.substr(0, magic_present) != kMagic.substr(0, magic_present))
        fail(name, fmt::format("not a .npy file (bad magic: expected \\x93NUMPY, found '{}')",
                               printable(bytes.substr(0, kMagic.size()))));
    if (bytes.size() < kMagic.size())
        fail(name, fmt::format("truncated magic: the file is only {} bytes", bytes.size()));
    if (bytes.size() < kMagic.size() + 2)
        fail(name, "truncated preamble: the file ends inside the version bytes");
    int major = static_cast<unsigned char>(bytes[6]), minor = static_cast<unsigned char>(bytes[7]);
    size_t len_width;
    if (major == 1 && minor == 0) len_width = 2;
    else if ((major == 2 || major == 3) && minor == 0) len_width = 4;
    else fail(name, fmt::format("unsupported .npy format version {}.{}", major, minor));
    size_t header_start = 8 + len_width;
    if (bytes.size() < header_start)
        fail(name, "truncated preamble: the file ends inside the header length");
    return {header_start, read_le(bytes.data() + 8, len_width)};
}
constexpr size_t kMaxPreamble = 12;

// Everything before the data, checked: the header parsed, and what it promises.
struct Layout {
    Header header;
    FileType type;
    int64_t count;          // elements
    size_t data_start;      // offset of the first data byte
    uint64_t data_bytes;    // count * itemsize: at most 2^43, no overflow
};

// `bytes` holds at least the whole header (or the whole file, if that is shorter).
Layout parse_layout(std::string_view bytes, const std::string &name) {
    Preamble p = parse_preamble(bytes, name);
    if (p.header_len > bytes.size() - p.header_start)
        fail(name, fmt::format("truncated header: header length {} runs past the end of the file "
                               "({} bytes after the {}-byte preamble)",
                               p.header_len, bytes.size() - p.header_start, p.header_start));
    Header h = HeaderParser(bytes.substr(p.header_start, p.header_len), name).parse();
    FileType t = file_type(h.descr, name);
    if (h.fortran_order) fail(name, "fortran_order True (column-major data) is not supported");
    int64_t n = checked_count(h.shape, name);
    return {std::move(h), t, n, p.header_start + static_cast<size_t>(p.header_len),
            static_cast<uint64_t>(n) * t.itemsize};
}

// Compares the data present with the promise, before anything is allocated.
void check_data_size(uint64_t present, const Layout &l, const std::string &name) {
    if (present != l.data_bytes)
        fail(name, fmt::format("data is {} bytes, header promises {} (shape {}, {}){}", present, l.data_bytes,
                               dims_str(l.header.shape), l.type.name,
                               present > l.data_bytes ? ": trailing data" : ""));
}

Array parse_with_layout(std::string_view bytes, const Layout &l, const std::string &name) {
    check_data_size(bytes.size() - l.data_start, l, name);
    Array a(l.type.dtype, l.header.shape);
    convert(bytes.data() + l.data_start, l.count, l.type, a, name);
    return a;
}

// Appends up to `want` more bytes of `in` to `bytes`, 64 KiB at a time, so that memory grows only
// with what the file really holds. Returns how many were appended (fewer at the end of the file).
uint64_t read_more(std::istream &in, std::string &bytes, uint64_t want, const std::string &path) {
    char chunk[1 << 16];
    uint64_t got = 0;
    while (got < want) {
        in.read(chunk, static_cast<std::streamsize>(std::min<uint64_t>(sizeof chunk, want - got)));
        bytes.append(chunk, static_cast<size_t>(in.gcount()));
        got += static_cast<uint64_t>(in.gcount());
        if (in.bad()) fail(path, fmt::format("cannot read: {}", std::strerror(errno)));
        if (!in) break;
    }
    return got;
}

}  // namespace

Array parse_npy(const std::string &bytes, const std::string &name, std::string *file_dtype) {
    Layout l = parse_layout(bytes, name);
    if (file_dtype) *file_dtype = l.type.name;
    return parse_with_layout(bytes, l, name);
}

// The file is read in stages, each checked before the next is read: the preamble, then the header
// it announces, then exactly the data the header promises. A file that is not .npy (or /dev/zero)
// fails after 12 bytes; a lying header never makes it read or allocate more than the file holds.
Array read_npy(const std::string &path, std::string *file_dtype) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) fail(path, "cannot open: it is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) fail(path, fmt::format("cannot open: {}", std::strerror(errno)));
    std::string bytes;
    read_more(in, bytes, kMaxPreamble, path);
    Preamble p = parse_preamble(bytes, path);
    uint64_t header_end = p.header_start + p.header_len;
    if (header_end > bytes.size()) read_more(in, bytes, header_end - bytes.size(), path);
    Layout l = parse_layout(bytes, path);
    if (file_dtype) *file_dtype = l.type.name;
    uint64_t file_end = l.data_start + l.data_bytes;
    if (file_end > bytes.size()) read_more(in, bytes, file_end - bytes.size(), path);
    if (bytes.size() == file_end) {
        // Anything after the promised data? Its size comes from the file system (a pipe that has
        // more is reported as one byte more), so that trailing gigabytes are never read.
        std::string one;
        if (read_more(in, one, 1, path) > 0) {
            uintmax_t size = std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec) : 0;
            check_data_size(!ec && size > file_end ? size - l.data_start : l.data_bytes + 1, l, path);
        }
    }
    return parse_with_layout(bytes, l, path);   // short data, or trailing data within the first 12 bytes, fail here
}

std::string format_npy(const Array &a) {
    int64_t n = a.size();
    size_t data_bytes = static_cast<size_t>(n) * dtype_size(a.dtype());
    if (data_bytes > 0 && a.data<uint8_t>() == nullptr)
        fail("<memory>", "the array has no data (a default-constructed Array)");

    // The header exactly as NumPy 1.24 writes it: keys sorted, spare room for the first axis to grow,
    // then spaces and a newline up to the next multiple of 64 (a whole 64 if already aligned).
    std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                     descr_of(a.dtype()), shape_repr(a.shape()));
    if (!a.shape().empty()) {
        size_t digits = std::to_string(a.shape()[0]).size();
        header.append(kGrowthDigits > digits ? kGrowthDigits - digits : 0, ' ');
    }
    size_t preamble = kMagic.size() + 2 + 2;
    size_t pad = kAlign - (preamble + header.size() + 1) % kAlign;
    header.append(pad, ' ');
    header += '\n';
    if (header.size() > 0xffff)
        fail("<memory>", fmt::format("header of {} bytes is too long for format 1.0", header.size()));

    std::string out(kMagic);
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
    out += header;
    if (data_bytes > 0) out.append(reinterpret_cast<const char *>(a.data<uint8_t>()), data_bytes);
    return out;
}

void write_npy(const std::string &path, const Array &a) {
    std::string bytes;
    try {
        bytes = format_npy(a);
    } catch (const NpyError &e) {
        std::string what = e.what();
        fail(path, what.substr(what.find(": ") + 2));   // name the file, not "<memory>"
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) fail(path, fmt::format("cannot open for writing: {}", std::strerror(errno)));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) fail(path, fmt::format("cannot write: {}", std::strerror(errno)));
}

}  // namespace halogen
