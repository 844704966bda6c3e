// .npy round trips with NumPy in both directions, and every way a file can be bad.
// tests/io/npy_reference.py writes NumPy's files before this test (ctest fixture) and reads the
// files this test writes after it; both sides compute the values from the same formula.
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "element_types.hpp"

using fusor::index_t;
using fusor::shape_t;
using io_test::for_each_type;
using io_test::same_bits;

namespace {
namespace fs = std::filesystem;

const fs::path reference_dir = fs::path(FUSOR_BINARY_DIR) / "tests" / "npy";

// The value at row-major index k, as npy_reference.py's `values` computes it.
template <class T>
T expected(index_t k) {
    if constexpr (std::is_same_v<T, bool>) {
        return k % 3 == 0;
    } else if constexpr (std::is_floating_point_v<T>) {
        if (k == 1)
            return std::numeric_limits<T>::quiet_NaN();
        if (k == 2)
            return -std::numeric_limits<T>::infinity();
        if (k == 3)
            return T(-0.0);
        return static_cast<T>(static_cast<double>(k) / 4 - 3);
    } else {
        return static_cast<T>(static_cast<std::uint64_t>(k) * 2654435761ull); // wraps, as NumPy
    }
}

template <class T>
fusor::tensor<T> formula(const shape_t& shape) {
    fusor::tensor<T> t(shape);
    for (index_t k = 0; k < t.size(); ++k)
        t.data()[k] = expected<T>(k);
    return t;
}

template <class T>
void check_formula(const fusor::tensor<T>& t, const shape_t& shape, const std::string& what) {
    INFO(what);
    REQUIRE(t.shape() == shape);
    index_t bad = 0;
    for (index_t k = 0; k < t.size(); ++k)
        bad += !same_bits(t.data()[k], expected<T>(k));
    CHECK(bad == 0);
}

const std::vector<std::pair<std::string, shape_t>> shapes = {{"scalar", {}},
                                                             {"0", {0}},
                                                             {"2x0x3", {2, 0, 3}},
                                                             {"5", {5}},
                                                             {"3x4", {3, 4}},
                                                             {"2x3x4", {2, 3, 4}}};

void write_bytes(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
}

std::string read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}
} // namespace

TEST_CASE("load_npy reads what NumPy writes: every dtype, shape, C and Fortran order, v1-v3") {
    REQUIRE_MESSAGE(fs::exists(reference_dir / "float64_3x4_F_v1.npy"),
                    "run the ctest fixture io.npy_reference first (ctest -R io)");
    int files = 0;
    for_each_type([&](auto v) {
        using T = decltype(v);
        const std::string dtype(fusor::dtype_name<T>());
        for (const auto& [name, shape] : shapes)
            for (const char* order : {"C", "F"})
                for (int version : {1, 2, 3}) {
                    const std::string file =
                        dtype + "_" + name + "_" + order + "_v" + std::to_string(version) + ".npy";
                    check_formula(fusor::load_npy<T>((reference_dir / file).string()), shape, file);
                    ++files;
                }
    });
    CHECK(files == 11 * 6 * 2 * 3);
}

TEST_CASE("big-endian files are converted to the machine's byte order") {
    check_formula(fusor::load_npy<std::int32_t>((reference_dir / "big_endian_int32.npy").string()),
                  {3, 4},
                  ">i4");
    check_formula(
        fusor::load_npy<double>((reference_dir / "big_endian_float64.npy").string()), {5}, ">f8");
}

TEST_CASE("save_npy writes what NumPy reads (checked by npy_reference.py check)") {
    const fs::path out = reference_dir / "from_fusor";
    fs::create_directories(out);
    for_each_type([&](auto v) {
        using T = decltype(v);
        const std::string dtype(fusor::dtype_name<T>());
        for (const auto& [name, shape] : shapes) {
            const fusor::tensor<T> t = formula<T>(shape);
            const std::string file = (out / (dtype + "_" + name + "_C_v1.npy")).string();
            if (shape.size() == 3) {
                // A non-contiguous view is evaluated first: save transpose of the transpose.
                const fusor::tensor<T> u = fusor::transpose(t);
                fusor::save_npy(file, fusor::transpose(u));
            } else {
                fusor::save_npy(file, t);
            }
            check_formula(fusor::load_npy<T>(file), shape, file); // and back
        }
    });
}

TEST_CASE("save_npy writes the same bytes as numpy.save") {
    const fs::path p = reference_dir / "fusor_save.npy";
    fusor::save_npy(p.string(), formula<float>({3, 4}));
    CHECK(read_bytes(p) == read_bytes(reference_dir / "np_save_float32_3x4.npy"));
    fusor::save_npy(p.string(), formula<bool>({}));
    CHECK(read_bytes(p) == read_bytes(reference_dir / "np_save_bool_scalar.npy"));
    fusor::save_npy(p.string(), formula<std::uint16_t>({5}));
    CHECK(read_bytes(p) == read_bytes(reference_dir / "np_save_uint16_5.npy"));
    CHECK_FALSE(fs::exists(p.string() + ".tmp~"));
}

TEST_CASE("bad files throw io_error naming the path and the reason") {
    const fs::path dir = reference_dir / "bad";
    fs::create_directories(dir);
    const std::string good = read_bytes(reference_dir / "float64_3x4_C_v1.npy");
    auto load = [&](const std::string& name, const std::string& bytes) {
        const fs::path p = dir / name;
        write_bytes(p, bytes);
        return fusor::load_npy<double>(p.string());
    };
    const std::string d = (dir / "").string();
    CHECK_THROWS_WITH_AS(fusor::load_npy<double>(d + "missing.npy"),
                         (d + "missing.npy: cannot open the file for reading").c_str(),
                         fusor::io_error);
    CHECK_THROWS_WITH_AS(
        load("short.npy", "\x93NUM"),
        (d + "short.npy: not a .npy file: shorter than the 10-byte preamble").c_str(),
        fusor::io_error);
    CHECK_THROWS_WITH_AS(
        load("magic.npy", "PK" + good.substr(2)),
        (d + "magic.npy: not a .npy file: wrong magic string (expected \\x93NUMPY)").c_str(),
        fusor::io_error);
    std::string v4 = good;
    v4[6] = 4;
    CHECK_THROWS_WITH_AS(
        load("v4.npy", v4),
        (d + "v4.npy: unsupported .npy format version 4.0 (1.0, 2.0 and 3.0 are supported)")
            .c_str(),
        fusor::io_error);
    CHECK_THROWS_WITH_AS(
        load("header.npy", good.substr(0, 40)),
        (d + "header.npy: truncated header: 118 bytes announced, 30 in the file").c_str(),
        fusor::io_error);
    CHECK_THROWS_WITH_AS(
        load("data.npy", good.substr(0, good.size() - 8)),
        (d + "data.npy: truncated data: shape (3, 4) needs 96 bytes, the file has 88").c_str(),
        fusor::io_error);
    CHECK_THROWS_WITH_AS(
        fusor::load_npy<float>((reference_dir / "float64_3x4_C_v1.npy").string()),
        ((reference_dir / "float64_3x4_C_v1.npy").string() + ": holds <f8 data, not <f4 (float32)")
            .c_str(),
        fusor::io_error);

    // Headers: the dict literal with a key missing, a bad value, an overflowing shape.
    auto with_dict = [](std::string dict) {
        dict += '\n';
        std::string out("\x93NUMPY\x01\x00", 8);
        out += static_cast<char>(dict.size() & 0xff);
        out += static_cast<char>(dict.size() >> 8);
        return out + dict;
    };
    CHECK_THROWS_WITH_AS(load("nokey.npy", with_dict("{'descr': '<f8', 'shape': (2,), }")),
                         (d
                          + "nokey.npy: malformed header: it must have the keys 'descr', "
                            "'fortran_order' and 'shape'")
                             .c_str(),
                         fusor::io_error);
    CHECK_THROWS_AS(
        load("value.npy", with_dict("{'descr': '<f8', 'fortran_order': maybe, 'shape': (2,), }")),
        fusor::io_error);
    // numpy.save(f, np.zeros(2, dtype=[('a', '<i4'), ('b', '<f8')])): a valid header whose dtype
    // fusor does not read, said so (not "malformed").
    CHECK_THROWS_WITH_AS(
        load("record.npy",
             with_dict("{'descr': [('a', '<i4'), ('b', '<f8')], 'fortran_order': False, "
                       "'shape': (2,), }")),
        (d
         + "record.npy: holds a structured dtype (a list of fields), which fusor does not read: "
           "save each field as an array of its own")
            .c_str(),
        fusor::io_error);
    CHECK_THROWS_AS(load("negative.npy",
                         with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (-2,), }")),
                    fusor::io_error);
    CHECK_THROWS_AS(load("unterminated.npy", with_dict("{'descr': '<f8")), fusor::io_error);
    CHECK_THROWS_AS(load("extra.npy",
                         with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), "
                                   "'x': 1}")),
                    fusor::io_error);
    CHECK_THROWS_WITH_AS(load("overflow.npy",
                              with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': "
                                        "(4294967296, 4294967296), }")),
                         (d
                          + "overflow.npy: shape (4294967296, 4294967296) overflows the element "
                            "count")
                             .c_str(),
                         fusor::io_error);
    // Found by the fuzzer: an extent of 0 does not excuse the others (NumPy checks the product of
    // the non-zero extents); the strides of this shape would overflow.
    CHECK_THROWS_WITH_AS(
        load("zero_overflow.npy",
             with_dict("{'descr': '<f8', 'fortran_order': True, 'shape': (0, 9999, 993, 402000, "
                       "99000, 9999, 993, 4), }")),
        (d
         + "zero_overflow.npy: shape (0, 9999, 993, 402000, 99000, 9999, 993, 4) overflows the "
           "element count")
            .c_str(),
        fusor::io_error);
    // A huge shape whose count fits is caught by the file size, before any allocation.
    CHECK_THROWS_AS(load("huge.npy",
                         with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': "
                                   "(1000000000000,), }")),
                    fusor::io_error);
    CHECK_THROWS_AS(load("structured.npy",
                         with_dict("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': "
                                   "(1,), }")),
                    fusor::io_error);

    // The dict is a Python literal, read as NumPy reads it (ast.literal_eval, then its checks;
    // each case's outcome checked with numpy.load): (6) is the integer 6, not a shape; Python
    // has no leading zeros; `_` stands only between digits; True/False are whole words.
    for (const char* shape :
         {"(6)", "(06,)", "(0_6,)", "(6_,)", "(1__2,)", "(6,,)", "(,)", "[6]"}) {
        CAPTURE(shape);
        CHECK_THROWS_AS(load("shape.npy",
                             with_dict(std::string("{'descr': '<f8', 'fortran_order': False, "
                                                   "'shape': ")
                                       + shape + "}")),
                        fusor::io_error);
    }
    CHECK_THROWS_AS(
        load("word.npy", with_dict("{'descr': '<f8', 'fortran_order': Falsey, 'shape': (2,)}")),
        fusor::io_error);
    // What NumPy accepts that no writer of ours makes: u and r string prefixes, comments,
    // \r and \f between tokens, 00 and `_` between digits, and a repeated key (the last holds).
    const std::string data(48, '\0'); // six doubles, all 0
    for (const char* dict : {"{u'descr': u'<f8', 'fortran_order': False, 'shape': (6,)}",
                             "{'descr': r\"<f8\", 'fortran_order': False, 'shape': (6,),}",
                             "{'descr': '<f8', # the type\n'fortran_order': False, 'shape': "
                             "(6,)} # done",
                             "{'descr': '<f8',\r'fortran_order': False,\f'shape': (6,)}",
                             "{'shape': (2, 3), 'descr': '<f8', 'fortran_order': False, "
                             "'shape': (6,)}"}) {
        CAPTURE(dict);
        const fusor::tensor<double> t = load("literal.npy", with_dict(dict) + data);
        CHECK(t.shape() == fusor::shape_t{6});
    }
    CHECK(load("zeros.npy",
               with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (00, 0_0, 1_0)}"))
              .shape()
          == fusor::shape_t{0, 0, 10});
}

TEST_CASE("a failed save leaves no file behind, and an existing file untouched") {
    const fs::path dir = reference_dir / "save_fail";
    fs::create_directories(dir);
    const fusor::tensor<double> t = {1.0, 2.0};
    // The target is an existing directory: the rename fails.
    const fs::path target = dir / "is_a_directory";
    fs::create_directories(target);
    CHECK_THROWS_AS(fusor::save_npy(target.string(), t), fusor::io_error);
    CHECK(fs::is_directory(target));
    CHECK_FALSE(fs::exists(target.string() + ".tmp~"));
    // The folder does not exist: nothing can be opened, nothing is created.
    const fs::path nowhere = dir / "no" / "such" / "folder.npy";
    CHECK_THROWS_WITH_AS(
        fusor::save_npy(nowhere.string(), t),
        (nowhere.string() + ": cannot open " + nowhere.string() + ".tmp~ for writing").c_str(),
        fusor::io_error);
    CHECK_FALSE(fs::exists(dir / "no"));
    // A successful save replaces a file whole.
    const fs::path p = dir / "replace.npy";
    fusor::save_npy(p.string(), fusor::zeros<double>({100}));
    fusor::save_npy(p.string(), t);
    CHECK(fusor::load_npy<double>(p.string()).size() == 2);
}
