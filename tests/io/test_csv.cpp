// CSV files with NumPy in both directions, and every way a file can be bad.
// tests/io/csv_reference.py writes NumPy's files before this test (ctest fixture): numpy.savetxt
// output with numpy.loadtxt's reading of it as .npy, and hand-written texts with loadtxt's
// reading of them (the parsing cases); after this test it reads the files save_csv wrote.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
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

const fs::path reference_dir = fs::path(FUSOR_BINARY_DIR) / "tests" / "csv";

template <class T>
void check_equal(const fusor::tensor<T>& got,
                 const fusor::tensor<T>& want,
                 const std::string& what) {
    INFO(what);
    REQUIRE(got.shape() == want.shape());
    index_t bad = 0;
    for (index_t k = 0; k < got.size(); ++k)
        if (!same_bits(got.data()[k], want.data()[k])) {
            if (bad++ < 3)
                MESSAGE("element " << k << ": " << std::setprecision(17) << +got.data()[k]
                                   << " != " << +want.data()[k]);
        }
    CHECK(bad == 0);
}

void write_text(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

const std::vector<std::string> shapes = {"3x4", "5", "1x4", "4x1", "7x3"};

// A scratch folder for the error cases.
fs::path scratch(const std::string& name) {
    const fs::path dir = reference_dir / "bad";
    fs::create_directories(dir);
    return dir / name;
}
} // namespace

TEST_CASE("load_csv reads what numpy.savetxt writes as numpy.loadtxt does: every dtype") {
    REQUIRE_MESSAGE(fs::exists(reference_dir / "float64_3x4.csv"),
                    "run the ctest fixture io.csv_numpy_writes first (ctest -R io)");
    int files = 0;
    for_each_type([&](auto v) {
        using T = decltype(v);
        for (const std::string& shape : shapes) {
            const std::string stem = std::string(fusor::dtype_name<T>()) + "_" + shape;
            const fusor::tensor<T> want =
                fusor::load_npy<T>((reference_dir / (stem + ".npy")).string());
            check_equal(fusor::load_csv<T>((reference_dir / (stem + ".csv")).string()), want, stem);
            ++files;
        }
    });
    CHECK(files == 11 * 5);
}

TEST_CASE("load_csv parses every case as numpy.loadtxt: spellings, comments, usecols, ndmin") {
    std::ifstream cases(reference_dir / "cases.txt");
    REQUIRE_MESSAGE(cases, "run the ctest fixture io.csv_numpy_writes first (ctest -R io)");
    std::string name, dtype, usecols;
    index_t skiprows = 0;
    int ndmin = 0, checked = 0;
    while (cases >> name >> dtype >> skiprows >> usecols >> ndmin) {
        fusor::csv_options options{.skip_header = skiprows, .ndmin = ndmin};
        if (usecols != "-") {
            std::istringstream list(usecols);
            for (std::string c; std::getline(list, c, ',');)
                options.usecols.push_back(std::stoi(c));
        }
        const std::string stem = (reference_dir / ("parse_" + name)).string();
        for_each_type([&](auto v) {
            using T = decltype(v);
            if (fusor::dtype_name<T>() != dtype)
                return;
            check_equal(fusor::load_csv<T>(stem + ".csv", options),
                        fusor::load_npy<T>(stem + ".npy"),
                        "parse_" + name + " as " + dtype);
            ++checked;
        });
    }
    CHECK(checked == 27);
}

TEST_CASE("save_csv writes numpy.savetxt's bytes (checked again by csv_reference.py check)") {
    const fs::path out = reference_dir / "from_fusor";
    fs::create_directories(out);
    for_each_type([&](auto v) {
        using T = decltype(v);
        for (const std::string& shape : shapes) {
            const std::string stem = std::string(fusor::dtype_name<T>()) + "_" + shape;
            const fusor::tensor<T> t =
                fusor::load_npy<T>((reference_dir / (stem + ".npy")).string());
            const std::string file = (out / (stem + ".csv")).string();
            if (shape == "5")
                fusor::save_csv(file, fusor::view(t, fusor::all, 0)); // a 1-d view: one per line
            else if (shape == "7x3")
                fusor::save_csv(file, fusor::transpose(fusor::transpose(t))); // an expression
            else
                fusor::save_csv(file, t);
            INFO(stem);
            CHECK(read_text(file) == read_text(reference_dir / (stem + ".csv")));
            check_equal(fusor::load_csv<T>(file), t, stem + " read back");
        }
    });
}

TEST_CASE("save_csv: shapes as numpy.savetxt, a delimiter, integers written exactly") {
    const fs::path p = scratch("small.csv");
    fusor::save_csv(p.string(), fusor::tensor<double>{{0.1, -2.0}, {1e300, -0.0}}, ';');
    CHECK(read_text(p)
          == "1.000000000000000056e-01;-2.000000000000000000e+00\n"
             "1.000000000000000053e+300;-0.000000000000000000e+00\n");
    fusor::save_csv(p.string(),
                    fusor::tensor<float>{0.1f, -std::numeric_limits<float>::quiet_NaN()});
    CHECK(read_text(p) == "1.000000014901161194e-01\nnan\n");
    // int64 beyond 2^53 survives (numpy.savetxt's default '%.18e' would round it).
    const fusor::tensor<std::int64_t> big = {9007199254740993, -9223372036854775807 - 1};
    fusor::save_csv(p.string(), big);
    CHECK(read_text(p) == "9007199254740993\n-9223372036854775808\n");
    check_equal(fusor::load_csv<std::int64_t>(p.string(), {.ndmin = 1}), big, "int64 back");
    fusor::save_csv(p.string(), fusor::tensor<bool>{{true, false}});
    CHECK(read_text(p) == "1,0\n");
    // (2, 0): two empty lines, as savetxt; (0, 3): an empty file.
    fusor::save_csv(p.string(), fusor::zeros<double>({2, 0}));
    CHECK(read_text(p) == "\n\n");
    fusor::save_csv(p.string(), fusor::zeros<double>({0, 3}));
    CHECK(read_text(p).empty());
    CHECK_FALSE(fs::exists(p.string() + ".tmp~"));
}

TEST_CASE("load_csv: blank and whitespace-only lines, tabs, other delimiters") {
    const fs::path p = scratch("lines.csv");
    // loadtxt would read the whitespace-only lines as rows of one empty cell; load_csv skips them.
    write_text(p, "\n  \n1;2\r\n\t\r\n 3 ; 4 # four\n\n");
    check_equal(fusor::load_csv<int>(p.string(), {.delimiter = ';'}),
                fusor::tensor<int>{{1, 2}, {3, 4}},
                "';' with blank lines");
    write_text(p, "1\t2\n3\t4\n");
    check_equal(fusor::load_csv<float>(p.string(), {.delimiter = '\t'}),
                fusor::tensor<float>{{1, 2}, {3, 4}},
                "tabs");
    // Skipping more lines than the file has gives an empty table.
    CHECK(fusor::load_csv<float>(p.string(), {.skip_header = 10}).shape() == shape_t{0, 1});
}

TEST_CASE("load_csv: a lone \\r ends a line, as Python's universal newlines (numpy.loadtxt)") {
    const fs::path p = scratch("cr.csv");
    // Old Mac line ends. Each line was once one cell "2\r3" (an error without usecols) and, with
    // usecols, rows were lost without an error. Expected values: numpy.loadtxt on these bytes.
    write_text(p, "1,2\r3,4\r");
    check_equal(
        fusor::load_csv<double>(p.string()), fusor::tensor<double>{{1, 2}, {3, 4}}, "lone \\r");
    check_equal(fusor::load_csv<double>(p.string(), {.usecols = {0}}),
                fusor::tensor<double>{{1}, {3}},
                "lone \\r, usecols=0");
    // The three line ends mixed: "\r\r" is an empty line between two; skip_header counts lines.
    write_text(p, "h,h\r1,2\r\n3,4\n5,6\r\r7,8");
    check_equal(fusor::load_csv<int>(p.string(), {.skip_header = 1}),
                fusor::tensor<int>{{1, 2}, {3, 4}, {5, 6}, {7, 8}},
                "mixed line ends");
    check_equal(fusor::load_csv<int>(p.string(), {.skip_header = 2, .usecols = {-1, 0}}),
                fusor::tensor<int>{{4, 3}, {6, 5}, {8, 7}},
                "mixed line ends, skip_header=2, usecols=(-1, 0)");
    // Line numbers in errors count every line end.
    write_text(p, "1,2\r3,x\r");
    CHECK_THROWS_WITH_AS(fusor::load_csv<int>(p.string()),
                         (p.string() + ":2:2: not an integer: \"x\"").c_str(),
                         fusor::io_error);
}

TEST_CASE("load_csv_column reads a text column as numpy.loadtxt(dtype=str, usecols=c)") {
    const fs::path p = scratch("labels.csv");
    write_text(p, "a,b,label\n1,2, Iris-setosa \n# comment\n3,4,Iris-virginica\r\n");
    const std::vector<std::string> want = {"Iris-setosa", "Iris-virginica"};
    CHECK(fusor::load_csv_column(p.string(), 2, {.skip_header = 1}) == want);
    CHECK(fusor::load_csv_column(p.string(), -1, {.skip_header = 1}) == want);
    CHECK(fusor::load_csv_column(p.string(), 0) == std::vector<std::string>{"a", "1", "3"});
    CHECK_THROWS_WITH_AS(fusor::load_csv_column(p.string(), 3),
                         (p.string() + ":1: column 3 does not exist: the row has 3 cells").c_str(),
                         fusor::io_error);
    CHECK_THROWS_AS(fusor::load_csv_column(p.string(), 0, {.usecols = {1}}), fusor::value_error);
}

TEST_CASE("bad files throw io_error naming the file, line and cell") {
    const std::string d = (scratch("") / "").string();
    auto load = [&](const std::string& name, const std::string& text, fusor::csv_options o = {}) {
        write_text(d + name, text);
        return fusor::load_csv<double>(d + name, o);
    };
    CHECK_THROWS_WITH_AS(fusor::load_csv<double>(d + "missing.csv"),
                         (d + "missing.csv: cannot open the file for reading").c_str(),
                         fusor::io_error);
    CHECK_THROWS_WITH_AS(load("cell.csv", "1,2,3\n4,5,6\n\n# c\n7,abc,9\n"),
                         (d + "cell.csv:5:2: not a number: \"abc\"").c_str(),
                         fusor::io_error);
    CHECK_THROWS_WITH_AS(load("empty_cell.csv", "1,,3\n"),
                         (d + "empty_cell.csv:1:2: not a number: \"\"").c_str(),
                         fusor::io_error);
    CHECK_THROWS_WITH_AS(load("trailing.csv", "1,2,\n"),
                         (d + "trailing.csv:1:3: not a number: \"\"").c_str(),
                         fusor::io_error);
    // What from_chars would take but loadtxt does not.
    for (const char* cell : {"0x10", "nan(1)", "1_000", "+-1", "1e", "1.5e3x", "1 2", "--1"})
        CHECK_THROWS_WITH_AS(load("syntax.csv", std::string("0,") + cell + "\n"),
                             (d + "syntax.csv:1:2: not a number: \"" + cell + "\"").c_str(),
                             fusor::io_error);
    CHECK_THROWS_WITH_AS(load("ragged.csv", "1,2,3\n4,5,6\n7,8\n"),
                         (d + "ragged.csv:3: expected 3 cells, found 2 (line 1 has 3)").c_str(),
                         fusor::io_error);
    // Stricter than loadtxt: ragged even when usecols does not read the missing cell.
    CHECK_THROWS_WITH_AS(load("ragged2.csv", "h\n1,2,3\n4,5\n", {.skip_header = 1, .usecols = {0}}),
                         (d + "ragged2.csv:3: expected 3 cells, found 2 (line 2 has 3)").c_str(),
                         fusor::io_error);
    CHECK_THROWS_WITH_AS(
        load("usecols.csv", "# c\n1,2,3\n", {.usecols = {0, 3}}),
        (d + "usecols.csv:2: column 3 does not exist: the row has 3 cells").c_str(),
        fusor::io_error);
    CHECK_THROWS_WITH_AS(
        load("usecols.csv", "1,2,3\n", {.usecols = {-4}}),
        (d + "usecols.csv:1: column -4 does not exist: the row has 3 cells").c_str(),
        fusor::io_error);
    CHECK_THROWS_AS(load("ndmin.csv", "1\n", {.ndmin = 3}), fusor::value_error);
    // numpy.loadtxt(f, skiprows=-1): ValueError "argument must be nonnegative".
    CHECK_THROWS_WITH_AS(load("skip.csv", "1\n2\n", {.skip_header = -1}),
                         "load_csv: skip_header must be non-negative, not -1",
                         fusor::value_error);
    CHECK_THROWS_AS(fusor::load_csv_column(d + "skip.csv", 0, {.skip_header = -2}),
                    fusor::value_error);

    // Integers: a float text is an error naming the cell (NumPy 1.24 reads it with a
    // DeprecationWarning), and so is a value outside the type.
    write_text(d + "int.csv", "1,2\n3,1.5\n");
    CHECK_THROWS_WITH_AS(fusor::load_csv<std::int32_t>(d + "int.csv"),
                         (d + "int.csv:2:2: not an integer: \"1.5\"").c_str(),
                         fusor::io_error);
    write_text(d + "int.csv", "1e3\n");
    CHECK_THROWS_WITH_AS(fusor::load_csv<std::int64_t>(d + "int.csv"),
                         (d + "int.csv:1:1: not an integer: \"1e3\"").c_str(),
                         fusor::io_error);
    write_text(d + "uint8.csv", "255\n300\n");
    CHECK_THROWS_WITH_AS(fusor::load_csv<std::uint8_t>(d + "uint8.csv"),
                         (d + "uint8.csv:2:1: out of range for uint8: \"300\"").c_str(),
                         fusor::io_error);
    write_text(d + "uint8.csv", "-1\n");
    CHECK_THROWS_WITH_AS(fusor::load_csv<std::uint8_t>(d + "uint8.csv"),
                         (d + "uint8.csv:1:1: out of range for uint8: \"-1\"").c_str(),
                         fusor::io_error);
    write_text(d + "int8.csv", "-129\n");
    CHECK_THROWS_WITH_AS(fusor::load_csv<std::int8_t>(d + "int8.csv"),
                         (d + "int8.csv:1:1: out of range for int8: \"-129\"").c_str(),
                         fusor::io_error);
    write_text(d + "int64.csv", "9223372036854775808\n");
    CHECK_THROWS_AS(fusor::load_csv<std::int64_t>(d + "int64.csv"), fusor::io_error);
    write_text(d + "int64.csv", "-9223372036854775809\n");
    CHECK_THROWS_AS(fusor::load_csv<std::int64_t>(d + "int64.csv"), fusor::io_error);
    write_text(d + "uint64.csv", "18446744073709551616\n");
    CHECK_THROWS_WITH_AS(
        fusor::load_csv<std::uint64_t>(d + "uint64.csv"),
        (d + "uint64.csv:1:1: out of range for uint64: \"18446744073709551616\"").c_str(),
        fusor::io_error);
    write_text(d + "bool.csv", "True\n");
    CHECK_THROWS_WITH_AS(fusor::load_csv<bool>(d + "bool.csv"),
                         (d + "bool.csv:1:1: not an integer: \"True\"").c_str(),
                         fusor::io_error);
}

TEST_CASE("a failed save leaves no file behind, and an existing file untouched") {
    const fs::path dir = reference_dir / "save_fail";
    fs::create_directories(dir);
    const fusor::tensor<double> t = {1.0, 2.0};
    // Neither 0-d nor 3-d: value_error before any file is touched.
    const fs::path p = dir / "kept.csv";
    fusor::save_csv(p.string(), t);
    CHECK_THROWS_WITH_AS(fusor::save_csv(p.string(), fusor::zeros<double>({2, 2, 2})),
                         ("save_csv: " + p.string()
                          + ": expected a 1-d or 2-d array, not shape (2, 2, 2) (as numpy.savetxt)")
                             .c_str(),
                         fusor::value_error);
    CHECK_THROWS_AS(fusor::save_csv(p.string(), fusor::tensor<double>(shape_t{})),
                    fusor::value_error);
    check_equal(fusor::load_csv<double>(p.string(), {.ndmin = 1}), t, "untouched");
    // The target is an existing directory: the rename fails.
    const fs::path target = dir / "is_a_directory";
    fs::create_directories(target);
    CHECK_THROWS_AS(fusor::save_csv(target.string(), t), fusor::io_error);
    CHECK(fs::is_directory(target));
    CHECK_FALSE(fs::exists(target.string() + ".tmp~"));
    const fs::path nowhere = dir / "no" / "such" / "folder.csv";
    CHECK_THROWS_WITH_AS(
        fusor::save_csv(nowhere.string(), t),
        (nowhere.string() + ": cannot open " + nowhere.string() + ".tmp~ for writing").c_str(),
        fusor::io_error);
}
