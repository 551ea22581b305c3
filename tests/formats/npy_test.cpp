// Tests of NumPy .npy reading and writing (formats/npy.h): round trips of every dtype and shape
// kind, files made by real NumPy (tests/fixtures/npy/, recreated by generate.py there), the writer
// matching np.save byte for byte, and one test per kind of hostile or unsupported input, each
// expecting an NpyError whose one-line message names the file and the problem.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "formats/npy.h"

// The largest single allocation made while `g_tracking` is set: lets a test prove that a lying
// header is rejected before the reader allocates what it promises. In a normal build, a plain
// malloc-backed replacement of the global operator new for the whole test binary; under
// AddressSanitizer (whose allocator must own operator new), the allocator's own malloc hook,
// which sees every malloc and new alike.
static std::atomic<bool> g_tracking{false};
static std::atomic<std::size_t> g_largest{0};

static void note_allocation(std::size_t n) {
    if (g_tracking.load(std::memory_order_relaxed)) {
        std::size_t seen = g_largest.load(std::memory_order_relaxed);
        while (n > seen && !g_largest.compare_exchange_weak(seen, n)) {}
    }
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HALOGEN_NPY_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(HALOGEN_NPY_TEST_ASAN)
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*)(const volatile void *, std::size_t),
                                                          void (*)(const volatile void *));
static const int g_hooks_installed = __sanitizer_install_malloc_and_free_hooks(
    [](const volatile void *, std::size_t n) { note_allocation(n); }, [](const volatile void *) {});
#else
static const int g_hooks_installed = 1;
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"   // GCC misreads malloc/free pairs here
#endif
void *operator new(std::size_t n) {
    note_allocation(n);
    if (void *p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
#endif

namespace halogen {
namespace {

// tests/fixtures/npy/, found from this file's own path.
std::string fixture(const std::string &name) {
    std::string here = __FILE__;
    return here.substr(0, here.rfind("tests/formats/")) + "tests/fixtures/npy/" + name;
}

std::string file_bytes(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << "cannot open " << path;
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A .npy file with the given header text (padded as NumPy pads it) and data bytes.
std::string npy_file(const std::string &header, const std::string &data, int major = 1) {
    std::string h = header;
    size_t len_width = major == 1 ? 2 : 4;
    while ((8 + len_width + h.size() + 1) % 64 != 0) h += ' ';
    h += '\n';
    std::string out("\x93NUMPY", 6);
    out += static_cast<char>(major);
    out += '\0';
    for (size_t i = 0; i < len_width; ++i) out += static_cast<char>((h.size() >> (8 * i)) & 0xff);
    return out + h + data;
}

std::string header_for(const std::string &descr, const std::string &shape) {
    return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
}

template <typename T> std::string raw(std::vector<T> values) {
    return std::string(reinterpret_cast<const char *>(values.data()), values.size() * sizeof(T));
}

// Expects parse_npy(bytes, name) to throw an NpyError whose one-line message is
// "<name>: ..." and contains `fragment`.
void expect_npy_error(const std::string &bytes, const std::string &fragment, const std::string &name = "<memory>") {
    try {
        parse_npy(bytes, name);
        ADD_FAILURE() << "no NpyError; expected one mentioning \"" << fragment << "\"";
    } catch (const NpyError &e) {
        std::string msg = e.what();
        EXPECT_EQ(msg.rfind(name + ": ", 0), 0u) << msg;
        EXPECT_NE(msg.find(fragment), std::string::npos) << "message: " << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << "message: " << msg;
    }
}

void expect_same(const Array &a, const Array &b) {
    ASSERT_EQ(a.dtype(), b.dtype());
    ASSERT_EQ(a.shape(), b.shape());
    size_t bytes = static_cast<size_t>(a.size()) * dtype_size(a.dtype());
    if (bytes > 0) {
        EXPECT_EQ(std::memcmp(a.data<uint8_t>(), b.data<uint8_t>(), bytes), 0);
    }
}

// ---------------------------------------------------------------------------------------------
// Round trips

TEST(NpyRoundTrip, EveryDtypeAndShapeKind) {
    for (DType t : {DType::Float32, DType::Int32, DType::Bool, DType::BFloat16}) {
        for (std::vector<int64_t> shape : {std::vector<int64_t>{}, {0}, {3}, {2, 3, 4}, {2, 0}}) {
            SCOPED_TRACE(dtype_name(t) + " " + dims_str(shape));
            Array a(t, shape);
            for (int64_t k = 0; k < a.size(); ++k) {
                switch (t) {
                case DType::Float32: a.data<float>()[k] = 0.37f * static_cast<float>(k) - 3.25f; break;
                case DType::Int32: a.data<int32_t>()[k] = static_cast<int32_t>(k * 100003 - 1000000); break;
                case DType::Bool: a.data<uint8_t>()[k] = k % 3 == 0; break;
                case DType::BFloat16: a.data<uint16_t>()[k] = static_cast<uint16_t>(k * 40503 + 7); break;
                }
            }
            std::string bytes = format_npy(a);
            size_t header_len = static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8;
            EXPECT_EQ((10 + header_len) % 64, 0u);
            EXPECT_EQ(bytes.size(), 10 + header_len + a.size() * dtype_size(t));
            Array b = parse_npy(bytes);
            expect_same(a, b);
            EXPECT_EQ(b.size(), shape.empty() ? 1 : a.size());
        }
    }
}

TEST(NpyRoundTrip, SpecialFloatsKeepTheirBits) {
    Array a(DType::Float32, {6});
    float *v = a.data<float>();
    v[0] = std::numeric_limits<float>::quiet_NaN();
    v[1] = std::numeric_limits<float>::infinity();
    v[2] = -std::numeric_limits<float>::infinity();
    v[3] = -0.0f;
    v[4] = std::numeric_limits<float>::denorm_min();
    v[5] = std::numeric_limits<float>::max();
    expect_same(a, parse_npy(format_npy(a)));
}

TEST(NpyRoundTrip, ThroughAFile) {
    Array a(DType::Int32, {2, 2});
    for (int k = 0; k < 4; ++k) a.data<int32_t>()[k] = -k;
    std::string path = testing::TempDir() + "npy_round_trip.npy";
    write_npy(path, a);
    expect_same(a, read_npy(path));
    std::remove(path.c_str());
}

TEST(NpyWriter, HeaderIsVersion1PaddedToA64ByteBoundary) {
    Array a(DType::Float32, {2, 3});
    std::string bytes = format_npy(a);
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    size_t data_start = bytes.size() - 6 * 4;
    EXPECT_EQ(data_start % 64, 0u);
    EXPECT_EQ(bytes[data_start - 1], '\n');
    EXPECT_EQ(bytes.substr(10, 64), "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }     ");
}

TEST(NpyWriter, MatchesNumPyByteForByte) {
    for (const char *name : {"f4_4.npy", "i4_2x3.npy", "b1_4.npy", "f4_scalar.npy", "f4_2x0.npy", "i4_2x3x4.npy"}) {
        SCOPED_TRACE(name);
        std::string original = file_bytes(fixture(name));
        EXPECT_EQ(format_npy(parse_npy(original)), original);
    }
}

TEST(NpyWriter, DefaultConstructedArrayIsAnError) {
    EXPECT_THROW(format_npy(Array()), NpyError);
}

TEST(NpyWriter, UnwritablePathNamesTheFile) {
    std::string path = testing::TempDir() + "no_such_dir/out.npy";
    try {
        write_npy(path, Array(DType::Bool, {1}));
        ADD_FAILURE() << "no NpyError";
    } catch (const NpyError &e) {
        EXPECT_NE(std::string(e.what()).find(path + ": cannot open for writing"), std::string::npos) << e.what();
    }
}

// ---------------------------------------------------------------------------------------------
// Files written by NumPy 1.24 (tests/fixtures/npy/generate.py)

TEST(NpyFixtures, Float32) {
    Array a = read_npy(fixture("f4_4.npy"));
    ASSERT_EQ(a.dtype(), DType::Float32);
    ASSERT_EQ(a.shape(), (std::vector<int64_t>{4}));
    EXPECT_EQ(a.data<float>()[0], 1.5f);
    EXPECT_EQ(a.data<float>()[1], -2.25f);
    EXPECT_EQ(a.data<float>()[2], 0.1f);
    EXPECT_EQ(a.data<float>()[3], std::numeric_limits<float>::infinity());
}

TEST(NpyFixtures, Int32) {
    Array a = read_npy(fixture("i4_2x3.npy"));
    ASSERT_EQ(a.dtype(), DType::Int32);
    ASSERT_EQ(a.shape(), (std::vector<int64_t>{2, 3}));
    std::vector<int32_t> want = {0, -1, std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min(), 7, 42};
    EXPECT_EQ(std::vector<int32_t>(a.data<int32_t>(), a.data<int32_t>() + 6), want);
}

TEST(NpyFixtures, Int32Rank3) {
    Array a = read_npy(fixture("i4_2x3x4.npy"));
    ASSERT_EQ(a.shape(), (std::vector<int64_t>{2, 3, 4}));
    for (int k = 0; k < 24; ++k) EXPECT_EQ(a.data<int32_t>()[k], k - 12);
}

TEST(NpyFixtures, Bool) {
    Array a = read_npy(fixture("b1_4.npy"));
    ASSERT_EQ(a.dtype(), DType::Bool);
    ASSERT_EQ(a.shape(), (std::vector<int64_t>{4}));
    EXPECT_EQ(std::vector<uint8_t>(a.data<uint8_t>(), a.data<uint8_t>() + 4), (std::vector<uint8_t>{1, 0, 0, 1}));
}

TEST(NpyFixtures, ScalarIsRank0WithOneElement) {
    Array a = read_npy(fixture("f4_scalar.npy"));
    EXPECT_EQ(a.dtype(), DType::Float32);
    EXPECT_TRUE(a.shape().empty());
    ASSERT_EQ(a.size(), 1);
    EXPECT_EQ(a.data<float>()[0], 2.5f);
}

TEST(NpyFixtures, ZeroSize) {
    Array a = read_npy(fixture("f4_2x0.npy"));
    EXPECT_EQ(a.shape(), (std::vector<int64_t>{2, 0}));
    EXPECT_EQ(a.size(), 0);
}

TEST(NpyFixtures, Int64InRangeBecomesInt32) {
    Array a = read_npy(fixture("i8_3.npy"));
    ASSERT_EQ(a.dtype(), DType::Int32);
    EXPECT_EQ(std::vector<int32_t>(a.data<int32_t>(), a.data<int32_t>() + 3),
              (std::vector<int32_t>{-3, 0, std::numeric_limits<int32_t>::max()}));
}

TEST(NpyFixtures, Float64BecomesFloat32) {
    Array a = read_npy(fixture("f8_2x2.npy"));
    ASSERT_EQ(a.dtype(), DType::Float32);
    ASSERT_EQ(a.shape(), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(a.data<float>()[0], 0.5f);
    EXPECT_EQ(a.data<float>()[1], -1.0f);
    EXPECT_EQ(a.data<float>()[2], static_cast<float>(0.1));
    EXPECT_EQ(a.data<float>()[3], 1e10f);
}

TEST(NpyFixtures, Int64OutOfRangeNamesTheValue) {
    std::string path = fixture("i8_too_big.npy");
    expect_npy_error(file_bytes(path), "int64 value 3000000000 at flat index 2 does not fit in int32", path);
}

TEST(NpyFixtures, FormatVersions2And3) {
    Array a = read_npy(fixture("i4_v2.npy"));
    EXPECT_EQ(std::vector<int32_t>(a.data<int32_t>(), a.data<int32_t>() + 3), (std::vector<int32_t>{5, -6, 7}));
    Array b = read_npy(fixture("f4_v3.npy"));
    ASSERT_EQ(b.shape(), (std::vector<int64_t>{1, 2}));
    EXPECT_EQ(b.data<float>()[0], 1.0f);
    EXPECT_EQ(b.data<float>()[1], 2.0f);
}

TEST(NpyFixtures, FortranOrderIsRejected) {
    std::string path = fixture("f4_fortran.npy");
    expect_npy_error(file_bytes(path), "fortran_order True (column-major data) is not supported", path);
}

TEST(NpyFixtures, BigEndianIsRejected) {
    std::string path = fixture("f4_bigendian.npy");
    expect_npy_error(file_bytes(path), "big-endian dtype '>f4' is not supported", path);
}

TEST(NpyFixtures, StructuredDtypeIsRejected) {
    std::string path = fixture("structured.npy");
    expect_npy_error(file_bytes(path), "structured dtypes", path);
}

TEST(NpyFixtures, ObjectArrayIsRejected) {
    std::string path = fixture("object.npy");
    expect_npy_error(file_bytes(path), "object arrays (dtype '|O') are not supported", path);
}

TEST(NpyFixtures, MissingFileNamesThePath) {
    std::string path = fixture("no_such_file.npy");
    try {
        read_npy(path);
        ADD_FAILURE() << "no NpyError";
    } catch (const NpyError &e) {
        EXPECT_NE(std::string(e.what()).find(path + ": cannot open"), std::string::npos) << e.what();
    }
}

// ---------------------------------------------------------------------------------------------
// read_npy reads in checked stages (preamble, header, promised data): it must say exactly what
// parse_npy says of the same bytes, and never read what it does not need.

std::string write_temp(const std::string &name, const std::string &bytes) {
    std::string path = testing::TempDir() + name;
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
}

std::string error_of(const std::function<void()> &read) {
    try {
        read();
    } catch (const NpyError &e) {
        return e.what();
    }
    return "(no NpyError)";
}

TEST(NpyReadFile, EveryTruncationAndEditSaysWhatParseSays) {
    std::string good = npy_file(header_for("<i4", "(2, 3)"), raw<int32_t>({1, 2, 3, 4, 5, 6}), 2);
    std::vector<std::string> cases;
    for (size_t n = 0; n < good.size(); ++n) cases.push_back(good.substr(0, n));
    cases.push_back(good + "x");                                     // trailing data: one byte
    cases.push_back(good + std::string(100000, '\0'));              // more than one read chunk
    cases.push_back(npy_file(header_for("<i4", "(1000000, 1000)"), raw<int32_t>({1})));   // short data
    for (const std::string &bytes : cases) {
        SCOPED_TRACE(bytes.size());
        std::string path = write_temp("npy_stages.npy", bytes);
        EXPECT_EQ(error_of([&] { read_npy(path); }), error_of([&] { parse_npy(bytes, path); }));
    }
    std::remove((testing::TempDir() + "npy_stages.npy").c_str());
}

TEST(NpyReadFile, ADirectoryIsAnError) {
    std::string dir = testing::TempDir();
    EXPECT_EQ(error_of([&] { read_npy(dir); }), dir + ": cannot open: it is a directory");
}

TEST(NpyReadFile, AnEndlessNonNpyFileFailsAtTheMagic) {
    // Reading the whole of /dev/zero before checking would never end.
    EXPECT_NE(error_of([] { read_npy("/dev/zero"); }).find("/dev/zero: not a .npy file (bad magic"), std::string::npos);
}

TEST(NpyReadFile, LyingHeaderAllocatesOnlyWhatTheFileHolds) {
    std::string bytes = npy_file(header_for("<f4", "(1000000, 1000)"), "");
    bytes.resize(128, '\0');
    std::string path = write_temp("npy_lying.npy", bytes);
    g_largest = 0;
    g_tracking = true;
    std::string msg = error_of([&] { read_npy(path); });
    g_tracking = false;
    EXPECT_NE(msg.find("header promises 4000000000"), std::string::npos) << msg;
    EXPECT_LT(g_largest.load(), 64u * 1024) << "largest allocation while reading";
    std::remove(path.c_str());
}

// ---------------------------------------------------------------------------------------------
// Accepted variations of the header

TEST(NpyHeader, AcceptsHandWrittenVariations) {
    std::string data = raw<int32_t>({1, 2, 3});
    for (std::string header : {
             std::string("{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": (3,)}"),   // double quotes
             std::string("{'shape':(3,),'fortran_order':False,'descr':'<i4'}"),               // any order, no spaces
             std::string("{ 'descr' : '<i4' ,\n 'fortran_order' : False ,\t'shape' : ( 3 , ) , }"),
             std::string("{'descr': '<i4', 'fortran_order': False, 'shape': (3L,), }"),       // Python 2 long
         }) {
        SCOPED_TRACE(header);
        Array a = parse_npy(npy_file(header, data));
        EXPECT_EQ(a.shape(), (std::vector<int64_t>{3}));
        EXPECT_EQ(a.data<int32_t>()[2], 3);
    }
}

TEST(NpyHeader, ZeroSizeAndScalarShapes) {
    EXPECT_EQ(parse_npy(npy_file(header_for("<f4", "(0,)"), "")).size(), 0);
    EXPECT_EQ(parse_npy(npy_file(header_for("<i4", "(2, 0)"), "")).shape(), (std::vector<int64_t>{2, 0}));
    Array s = parse_npy(npy_file(header_for("<i4", "()"), raw<int32_t>({-9})));
    EXPECT_TRUE(s.shape().empty());
    EXPECT_EQ(s.data<int32_t>()[0], -9);
}

TEST(NpyHeader, BoolBytesOtherThanOneReadAsTrue) {
    Array a = parse_npy(npy_file(header_for("|b1", "(3,)"), std::string("\x00\x02\xff", 3)));
    EXPECT_EQ(std::vector<uint8_t>(a.data<uint8_t>(), a.data<uint8_t>() + 3), (std::vector<uint8_t>{0, 1, 1}));
}

// ---------------------------------------------------------------------------------------------
// Hostile and unsupported input: each is an NpyError naming the problem.

const std::string kMagic("\x93NUMPY", 6);

TEST(NpyHostile, EmptyAndTruncatedMagic) {
    expect_npy_error("", "truncated magic");
    expect_npy_error(kMagic.substr(0, 4), "truncated magic: the file is only 4 bytes");
}

TEST(NpyHostile, BadMagic) {
    expect_npy_error("PK\x03\x04 not numpy at all", "not a .npy file (bad magic");
    expect_npy_error("\x93NUMPX\x01\x00", "bad magic");
    expect_npy_error("x", "bad magic");
}

TEST(NpyHostile, TruncatedPreamble) {
    expect_npy_error(kMagic + "\x01", "truncated preamble");
    expect_npy_error(kMagic + std::string("\x01\x00\x40", 3), "truncated preamble");
    expect_npy_error(kMagic + std::string("\x02\x00\x40\x00\x00", 5), "truncated preamble");
}

TEST(NpyHostile, UnsupportedVersion) {
    expect_npy_error(kMagic + std::string("\x04\x00\x00\x00", 4), "unsupported .npy format version 4.0");
    expect_npy_error(kMagic + std::string("\x01\x01\x00\x00", 4), "unsupported .npy format version 1.1");
}

TEST(NpyHostile, TruncatedHeader) {
    std::string good = npy_file(header_for("<f4", "(3,)"), raw<float>({1, 2, 3}));
    expect_npy_error(good.substr(0, 40), "truncated header: header length 118 runs past the end of the file");
}

TEST(NpyHostile, HeaderLengthPastTheEnd) {
    expect_npy_error(kMagic + std::string("\x03\x00\xff\xff\xff\xff{}", 8), "header length 4294967295 runs past the end");
}

TEST(NpyHostile, HeaderNotADict) {
    expect_npy_error(npy_file("[1, 2]", ""), "expected '{' (the header must be a dict)");
    expect_npy_error(npy_file("", ""), "expected '{'");
    expect_npy_error(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)", raw<float>({1, 2, 3})),
                     "expected ',' or '}'");
    expect_npy_error(npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)} x", raw<float>({1, 2, 3})),
                     "unexpected text after the dict");
    expect_npy_error(npy_file("{descr: '<f4'}", ""), "expected a string key");
    expect_npy_error(npy_file("{'descr' '<f4'}", ""), "expected ':' after the key");
}

TEST(NpyHostile, WrongKeys) {
    expect_npy_error(npy_file("{'descr': '<f4', 'fortran_order': False}", ""), "bad header: no 'shape' key");
    expect_npy_error(npy_file("{'descr': '<f4', 'shape': (1,), 'fortran_order': False, 'extra': 1}", ""),
                     "unexpected key 'extra'");
    expect_npy_error(npy_file("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}", ""),
                     "key 'descr' appears twice");
}

TEST(NpyHostile, BadValues) {
    expect_npy_error(npy_file("{'descr': '<f4, 'fortran_order': False, 'shape': ()}", ""),
                     "expected ',' or '}' after a value at column 18");
    expect_npy_error(npy_file("{'descr': '<f4", ""), "unterminated string");
    expect_npy_error(npy_file("{'descr': '<\\x66\\x34'}", ""), "escape sequences");
    expect_npy_error(npy_file("{'descr': 3}", ""), "expected a quoted string");
    expect_npy_error(npy_file("{'fortran_order': false}", ""), "expected True or False");
    expect_npy_error(npy_file("{'fortran_order': Falsey}", ""), "expected True or False");
}

TEST(NpyHostile, ShapeSyntaxErrors) {
    auto with_shape = [](const std::string &shape) {
        return npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': " + shape, "");
    };
    expect_npy_error(with_shape("(3,"), "expected an integer in the shape tuple at the end of the header");
    expect_npy_error(with_shape("(-1,)}"), "shape has a negative dimension, -1");
    expect_npy_error(with_shape("(3, x)}"), "expected an integer in the shape tuple at column");
    expect_npy_error(with_shape("(3 4)}"), "expected ',' or ')' in the shape tuple");
    expect_npy_error(with_shape("(3)}"), "'shape' is not a tuple");
    expect_npy_error(with_shape("3}"), "expected a tuple such as (2, 3) for 'shape'");
    expect_npy_error(with_shape("((3,),)}"), "expected an integer");
    expect_npy_error(with_shape("(3.0,)}"), "expected ',' or ')'");
    expect_npy_error(with_shape("(,)}"), "expected an integer");
}

TEST(NpyHostile, AbsurdDims) {
    expect_npy_error(npy_file(header_for("<f4", "(99999999999999999999999999999,)"), ""),
                     "shape has an absurd dimension, 999999999999999999999999... (limit 2^40)");
    expect_npy_error(npy_file(header_for("<f4", "(1099511627777,)"), ""), "absurd dimension");
    expect_npy_error(npy_file(header_for("<f4", "(1048576, 1048576, 2)"), ""),
                     "shape [1048576, 1048576, 2] has more than 2^40 elements");
    // Zero elements, but the other dims multiply past 2^40 (and would overflow int64).
    expect_npy_error(npy_file(header_for("<f4", "(1099511627776, 1099511627776, 0)"), ""), "more than 2^40 elements");
    std::string many = "(";
    for (int i = 0; i < 65; ++i) many += "1, ";
    expect_npy_error(npy_file(header_for("<f4", many + ")"), raw<float>({1})), "more than 64 dimensions");
}

TEST(NpyHostile, UnsupportedDtypes) {
    expect_npy_error(npy_file(header_for("<c8", "(1,)"), ""), "unsupported dtype '<c8'");
    expect_npy_error(npy_file(header_for("<U3", "(1,)"), ""), "unsupported dtype '<U3'");
    expect_npy_error(npy_file(header_for("=f4", "(1,)"), ""), "unsupported dtype '=f4'");
    expect_npy_error(npy_file(header_for("|u1", "(1,)"), ""), "unsupported dtype '|u1'");
    expect_npy_error(npy_file(header_for(">i8", "(1,)"), ""), "big-endian dtype '>i8'");
    expect_npy_error(npy_file(header_for("|O", "(1,)"), ""), "object arrays");
    expect_npy_error(npy_file("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,)}", ""),
                     "structured dtypes");
}

TEST(NpyHostile, Float64OutOfFloat32Range) {
    expect_npy_error(npy_file(header_for("<f8", "(2,)"), raw<double>({1.0, -1e300})),
                     "float64 value -1e+300 at flat index 1 is out of float32 range");
}

TEST(NpyHostile, ShortDataSaysWhatWasPromised) {
    try {
        parse_npy(npy_file(header_for("<i4", "(10,)"), raw<int32_t>({1, 2, 3})), "ids.npy");
        ADD_FAILURE() << "no NpyError";
    } catch (const NpyError &e) {
        EXPECT_STREQ(e.what(), "ids.npy: data is 12 bytes, header promises 40 (shape [10], int32)");
    }
}

TEST(NpyHostile, TrailingDataIsRejected) {
    expect_npy_error(npy_file(header_for("<i4", "(2,)"), raw<int32_t>({1, 2, 3})),
                     "data is 12 bytes, header promises 8 (shape [2], int32): trailing data");
    expect_npy_error(npy_file(header_for("<f4", "()"), ""), "data is 0 bytes, header promises 4 (shape [], float32)");
}

TEST(NpyHostile, LyingHeaderIsRejectedBeforeAllocating) {
    for (auto [shape, fragment] : {std::pair{"(1000000000, 1000000000)", "has more than 2^40 elements"},
                                   std::pair{"(1000000, 1000)", "header promises 4000000000 (shape [1000000, 1000], float32)"},
                                   std::pair{"(1099511627776,)", "header promises 4398046511104"}}) {
        SCOPED_TRACE(shape);
        ASSERT_NE(g_hooks_installed, 0) << "the allocation hook is not installed";
        std::string bytes = npy_file(header_for("<f4", shape), "");
        bytes.resize(128, '\0');                    // a 128-byte file: far short of the promise
        auto start = std::chrono::steady_clock::now();
        g_largest = 0;
        g_tracking = true;
        expect_npy_error(bytes, fragment);
        g_tracking = false;
        auto elapsed = std::chrono::steady_clock::now() - start;
        EXPECT_LT(g_largest.load(), 64u * 1024) << "largest allocation while parsing";
        EXPECT_LT(elapsed, std::chrono::milliseconds(500));
    }
}

// The control for the test above: the tracker does see a large allocation (operator new in the
// normal build, ASan's malloc hook in the sanitizer build).
TEST(NpyHostile, AllocationTrackerSeesLargeAllocations) {
    g_largest = 0;
    g_tracking = true;
    auto big = std::make_unique<std::vector<char>>(size_t(1) << 20);
    g_tracking = false;
    EXPECT_EQ(big->size(), size_t(1) << 20);
    EXPECT_GE(g_largest.load(), size_t(1) << 20);
}

// A small deterministic stand-in for fuzzing: every truncation and many single-byte edits of real
// files either parse or throw NpyError; nothing else escapes, nothing crashes.
TEST(NpyHostile, TruncationsAndByteEditsNeverEscape) {
    const char replacements[] = {'\0', '\xff', '\x7f', '(', ')', ',', '9', ' ', '\'', '-', '{', '}', '\n', 'L'};
    for (const char *name : {"f4_4.npy", "i4_2x3x4.npy", "f8_2x2.npy", "i4_v2.npy", "f4_scalar.npy"}) {
        SCOPED_TRACE(name);
        std::string good = file_bytes(fixture(name));
        for (size_t n = 0; n < good.size(); ++n) EXPECT_THROW(parse_npy(good.substr(0, n)), NpyError) << n;
        int parsed = 0, rejected = 0;
        for (size_t i = 0; i < good.size(); ++i) {
            for (char c : replacements) {
                std::string bad = good;
                bad[i] = c;
                try {
                    parse_npy(bad);
                    ++parsed;
                } catch (const NpyError &) {
                    ++rejected;
                } catch (const std::exception &e) {
                    ADD_FAILURE() << "byte " << i << " -> " << int(c) << ": non-NpyError " << e.what();
                }
            }
        }
        EXPECT_GT(parsed, 0);
        EXPECT_GT(rejected, 0);
    }
}

}  // namespace
}  // namespace halogen
