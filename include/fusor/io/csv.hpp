// fusor/io/csv.hpp: numbers in delimited text files, a subset of numpy.loadtxt and
// numpy.savetxt: `load_csv<T>`, `load_csv_column` (one column of text, such as labels) and
// `save_csv`.
//
// What a file may hold, as loadtxt reads it: one row per line, cells separated by one
// delimiter character; spaces and tabs around a cell are ignored; '#' starts a comment that runs
// to the end of the line; lines that are empty once the comment is removed are skipped; a line
// ends at "\n", "\r\n" or a lone "\r" (Python's universal newlines, as loadtxt reads a file).
// No quoting (loadtxt's default `quotechar=None`).
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/io/npy.hpp> // detail::write_atomically, the temporary-file-and-rename every writer uses
#include <fusor/tensor/tensor.hpp>

namespace fusor {

/// Options of `load_csv` and `load_csv_column`, named and defaulted as `numpy.loadtxt`'s
/// arguments except where noted. Designated initializers pick the ones that differ:
/// `load_csv<double>("iris.csv", {.skip_header = 1, .usecols = {0, 1, 2, 3}})`.
///
/// - `delimiter`: the character between cells (`','`; loadtxt's default is whitespace).
/// - `skip_header`: how many lines at the top of the file to skip, whatever they hold (comments
///   and blank lines count), as loadtxt's `skiprows` (genfromtxt calls it `skip_header`); a
///   negative count throws `value_error`, as loadtxt's ValueError.
/// - `usecols`: which columns to read, in this order, 0-based; negative counts from the end of the
///   row; repeats allowed. Empty: every column.
/// - `ndmin`: the minimum rank of the result, 0, 1 or 2. **2 by default** (loadtxt's default is
///   0): a table is `(rows, cols)` whatever the number of rows or columns in the file, so code
///   that indexes `X(i, j)` does not break on a file with one row. With 0 or 1, extent-1 axes are
///   squeezed as loadtxt does: one row gives `(cols,)`, one column `(rows,)`, one value `()` (0)
///   or `(1,)` (1).
struct csv_options {
    char delimiter = ',';
    index_t skip_header = 0;
    std::vector<index_t> usecols = {};
    int ndmin = 2;
};

namespace detail::csv {

FUSOR_DECL bool is_space(char c);

FUSOR_DECL std::string_view trim(std::string_view s);

[[noreturn]] inline void fail(const std::string& where, const std::string& why) {
    throw io_error(where + ": " + why);
}

FUSOR_DECL std::string read_file(const std::string& path);

// One line that holds data: its 1-based number in the file and its text, the comment removed.
struct data_line {
    index_t number;
    std::string_view text;
};

// The lines after the first `skip` that hold data: "#..." comments removed, blank ones dropped.
FUSOR_DECL std::vector<data_line> data_lines(std::string_view text, index_t skip);

// The cells of a line, trimmed, into `cells` (reused from line to line).
FUSOR_DECL void split(std::string_view line, char delimiter, std::vector<std::string_view>& cells);

// The value of a decimal text std::from_chars found out of double's range: +-inf when its
// magnitude is above 1 (overflow), +-0 when below (underflow), as strtod and NumPy give. Only the
// decimal exponent of the first non-zero digit matters: doubles cover 1e-308 to 1e308.
FUSOR_DECL double out_of_range_value(std::string_view s);

// A float cell as numpy.loadtxt reads it: an optional sign, then decimal digits with an optional
// point and exponent ("1", "-2.5", ".5", "5.", "1e-3", "1E+300"), or nan, inf or infinity in any
// case; no hexadecimal, no "1_000", no "nan(...)". float32 is parsed as a double and rounded to
// float, as NumPy does (this rounds twice: "1.00000005960464477550" gives 1.0f, as in NumPy,
// where a direct float parse gives the next float up).
template <class F>
bool parse_float(std::string_view s, F& out) {
    if (!s.empty() && s.front() == '+') {
        s.remove_prefix(1); // from_chars takes '-' but not '+'
        if (!s.empty() && (s.front() == '+' || s.front() == '-'))
            return false;
    }
    if (s.empty() || s.find('(') != std::string_view::npos)
        return false;
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (end != s.data() + s.size())
        return false;
    if (ec == std::errc::result_out_of_range)
        v = out_of_range_value(s);
    else if (ec != std::errc())
        return false;
    if constexpr (std::is_same_v<F, float>) {
        // A double beyond float's range is undefined behaviour to convert: round it as IEEE
        // does, to FLT_MAX below the midpoint 0x1.ffffffp127 and to infinity from it on.
        if (std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max()) {
            const float big = std::fabs(v) < 0x1.ffffffp127
                                  ? std::numeric_limits<float>::max()
                                  : std::numeric_limits<float>::infinity();
            out = std::copysign(big, static_cast<float>(v > 0 ? 1 : -1));
            return true;
        }
    }
    out = static_cast<F>(v);
    return true;
}

enum class int_parse { ok, not_an_integer, out_of_range };

// An integer cell: an optional sign and decimal digits ("+5", "-3", "007"); "1.0" and "1e3" are
// not integers. As NumPy: "-0" is a valid unsigned 0; bool takes any integer, non-zero is true.
template <class I>
int_parse parse_int(std::string_view s, I& out) {
    bool negative = false;
    if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    if (s.empty() || s.front() < '0' || s.front() > '9')
        return int_parse::not_an_integer;
    std::uint64_t magnitude = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), magnitude);
    if (end != s.data() + s.size())
        return int_parse::not_an_integer;
    if (ec != std::errc())
        return int_parse::out_of_range;
    if constexpr (std::is_same_v<I, bool>) {
        out = magnitude != 0;
        return int_parse::ok;
    } else {
        using limits = std::numeric_limits<I>;
        if (negative && magnitude != 0) {
            if constexpr (!limits::is_signed) {
                return int_parse::out_of_range;
            } else {
                // -magnitude >= min, i.e. magnitude <= max + 1; negated without overflowing.
                if (magnitude > static_cast<std::uint64_t>(limits::max()) + 1)
                    return int_parse::out_of_range;
                out = static_cast<I>(-static_cast<std::int64_t>(magnitude - 1) - 1);
                return int_parse::ok;
            }
        }
        if (magnitude > static_cast<std::uint64_t>(limits::max()))
            return int_parse::out_of_range;
        out = static_cast<I>(magnitude);
        return int_parse::ok;
    }
}

// Parses one cell into `out`; throws io_error "path:line:col: reason: "text"" when it cannot.
template <class T>
void parse_cell(std::string_view cell, T& out, const std::string& path, index_t line, index_t col) {
    const auto where = [&] {
        return path + ":" + std::to_string(line) + ":" + std::to_string(col);
    };
    if constexpr (std::is_floating_point_v<T>) {
        if (!parse_float(cell, out))
            fail(where(), "not a number: \"" + std::string(cell) + "\"");
    } else {
        const int_parse r = parse_int(cell, out);
        if (r == int_parse::not_an_integer)
            fail(where(), "not an integer: \"" + std::string(cell) + "\"");
        if (r == int_parse::out_of_range)
            fail(where(),
                 "out of range for " + std::string(dtype_name<T>()) + ": \"" + std::string(cell)
                     + "\"");
    }
}

// Reads `path` as a table: calls `row(line_number, cells)` for every data line, after checking
// that it has as many cells as the first one (a ragged row is an error naming both lines).
template <class F>
index_t for_each_row(const std::string& path,
                     const std::vector<data_line>& lines,
                     char delimiter,
                     F&& row) {
    std::vector<std::string_view> cells;
    std::size_t width = 0;
    for (const data_line& l : lines) {
        split(l.text, delimiter, cells);
        if (&l == &lines.front())
            width = cells.size();
        else if (cells.size() != width)
            fail(path + ":" + std::to_string(l.number),
                 "expected " + std::to_string(width) + " cells, found "
                     + std::to_string(cells.size()) + " (line "
                     + std::to_string(lines.front().number) + " has " + std::to_string(width)
                     + ")");
        row(l.number, cells);
    }
    return static_cast<index_t>(width);
}

// A column index as the user wrote it (negative counts from the end), checked against a row.
FUSOR_DECL std::size_t
resolve_column(index_t column, std::size_t width, const std::string& path, index_t line);

// The text numpy.savetxt writes for one element. Floats as its default fmt '%.18e' gives them:
// "1.000000000000000056e-01", "-0.000000000000000000e+00", "nan" (never "-nan"), "inf", "-inf";
// float32 elements are printed as the double they equal, as Python's % operator does. Integers
// and bools as '%d' ("-3", "1"): see save_csv for why not '%.18e'.
template <class T>
void append_element(std::string& out, T v) {
    char buf[64];
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(v)) {
            out += "nan";
            return;
        }
        const auto r = std::to_chars(
            buf, buf + sizeof buf, static_cast<double>(v), std::chars_format::scientific, 18);
        out.append(buf, r.ptr);
    } else if constexpr (std::is_same_v<T, bool>) {
        out += v ? '1' : '0';
    } else {
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, r.ptr);
    }
}

} // namespace detail::csv

/// Reads a delimited text file of numbers into a `tensor<T>`, as `numpy.loadtxt(path, dtype=T,
/// delimiter=',', skiprows=skip_header, usecols=usecols, ndmin=2)`.
///
/// - **Shape**: `(rows, cols)`, rows the lines that hold data, cols `usecols.size()` or the
///   number of cells in a row. A file without data gives `(0, usecols.size())`, or `(0, 1)`
///   without usecols, as loadtxt. With `.ndmin = 0` or `1`, extent-1 axes are squeezed as loadtxt
///   squeezes them (`(5, 1)` → `(5,)`, `(1, 1)` → `()` or `(1,)`); see `csv_options`.
/// - **Cells**: for a floating-point `T` a decimal number, `nan`, `inf`, `-inf`, `infinity` (any
///   case); float32 rounds from the parsed double, as NumPy does. For an integer `T` an integer
///   ("+5", "-3"); "1.0" or "1e3" is an error (NumPy 1.23+ deprecates reading them, later NumPy
///   refuses). For `bool` an integer, non-zero is true (as loadtxt; "True" is an error).
/// - **Lines**: spaces and tabs around a cell are ignored, `#` starts a comment, blank lines (also
///   whitespace-only ones, which loadtxt would read as a row) are skipped; a line ends at "\n",
///   "\r\n" or a lone "\r". Every row must have as many cells as the first one, also with `usecols`
///   (loadtxt only needs the columns it reads).
///
/// Throws `io_error` naming the file, the 1-based line and the 1-based cell:
/// `data.csv:17:3: not a number: "abc"`, `data.csv:5:2: not an integer: "1.5"`,
/// `data.csv:5:2: out of range for uint8: "300"`, `data.csv:9: expected 5 cells, found 4 (line 2
/// has 5)`, `data.csv:2: column 7 does not exist: the row has 5 cells`, `data.csv: cannot open the
/// file for reading`. A `ndmin` other than 0, 1, 2 throws `value_error`.
///
/// ```cpp
/// auto X = fusor::load_csv<double>("iris.csv", {.skip_header = 1, .usecols = {0, 1, 2, 3}});
/// ```
template <class T>
    requires(element_type<T>)
tensor<T> load_csv(const std::string& path, const csv_options& options = {}) {
    namespace csv = detail::csv;
    if (options.ndmin < 0 || options.ndmin > 2)
        throw value_error("load_csv: ndmin must be 0, 1 or 2, not "
                          + std::to_string(options.ndmin));
    const std::string text = csv::read_file(path);
    const std::vector<csv::data_line> lines = csv::data_lines(text, options.skip_header);

    // The columns to read, resolved against the first row (every row has its width).
    std::vector<std::size_t> columns;
    std::vector<std::string_view> cells;
    if (!lines.empty()) {
        csv::split(lines.front().text, options.delimiter, cells);
        if (options.usecols.empty())
            for (std::size_t c = 0; c < cells.size(); ++c)
                columns.push_back(c);
        for (index_t c : options.usecols)
            columns.push_back(csv::resolve_column(c, cells.size(), path, lines.front().number));
    }
    const index_t rows = static_cast<index_t>(lines.size());
    const index_t cols = lines.empty()
                             ? std::max<index_t>(1, static_cast<index_t>(options.usecols.size()))
                             : static_cast<index_t>(columns.size());

    // As loadtxt's _ensure_ndmin_ndarray: below ndmin 2, squeeze extent-1 axes, pad to ndmin.
    shape_t shape{rows, cols};
    if (options.ndmin < 2) {
        shape_t squeezed;
        for (index_t n : shape)
            if (n != 1)
                squeezed.push_back(n);
        if (squeezed.size() < static_cast<std::size_t>(options.ndmin))
            squeezed.push_back(1);
        shape = squeezed;
    }
    tensor<T> t(shape, uninitialized);
    T* out = t.data();
    csv::for_each_row(path, lines, options.delimiter, [&](index_t line, const auto& row) {
        for (std::size_t c : columns)
            csv::parse_cell(row[c], *out++, path, line, static_cast<index_t>(c) + 1);
    });
    return t;
}

/// Reads one column of a delimited text file as text, one string per data line (spaces and tabs
/// around each cell removed), as `numpy.loadtxt(path, dtype=str, delimiter=',',
/// skiprows=skip_header, usecols=column)` — for a column `load_csv` cannot read, such as the
/// labels of a data set. `column` is 0-based, negative counts from the end. The lines are read as
/// `load_csv` reads them (comments, blank lines, ragged rows, the same errors); of the options,
/// `delimiter` and `skip_header` apply, `usecols` must be empty (else `value_error`: the column is
/// the argument), `ndmin` does not apply.
///
/// ```cpp
/// std::vector<std::string> species = fusor::load_csv_column("iris.csv", 4, {.skip_header = 1});
/// ```
FUSOR_DECL std::vector<std::string>
load_csv_column(const std::string& path, index_t column, const csv_options& options = {});

/// Writes `e` (a tensor, a view or any expression, evaluated first) as delimited text, as
/// `numpy.savetxt(path, e, delimiter=',')`: a 2-d `(rows, cols)` array one row per line, a 1-d
/// `(n,)` array one value per line (a column, as savetxt does), lines ended by "\n", no header.
/// `load_csv<T>(path)` reads the file back to the same values and `numpy.loadtxt(path,
/// delimiter=',', ndmin=2)` to the same values (the 1-d case as `(n, 1)`).
///
/// - Floating-point elements use savetxt's default format `'%.18e'` (`1.000000000000000056e-01`,
///   `nan`, `inf`, `-inf`): the file is byte-for-byte what savetxt writes, and 19 significant
///   digits give back every double exactly. (Shortest round-trip digits would be shorter and
///   easier to read, but differ from savetxt's file.)
/// - Integer and bool elements are written as integers (`-3`, `1`, savetxt's `fmt='%d'`), not
///   as '%.18e': that would lose int64 values above 2^53 and give text that loadtxt reads as an
///   integer only with a DeprecationWarning (and `load_csv` refuses).
///
/// Throws `value_error` when `e` is not 1-d or 2-d (before any file is touched), `io_error`
/// naming the path when the file cannot be written. The file is written under a temporary
/// name and renamed into place: an error never leaves a half-written `path`.
///
/// ```cpp
/// fusor::save_csv("scores.csv", fusor::mean(X, 1));   // one mean per line
/// ```
template <class E>
    requires expression<E>
void save_csv(const std::string& path, const E& e, char delimiter = ',') {
    using T = value_type_t<E>;
    if (e.rank() != 1 && e.rank() != 2)
        throw value_error("save_csv: " + path + ": expected a 1-d or 2-d array, not shape "
                          + to_string(e.shape()) + " (as numpy.savetxt)");
    const tensor<T> t(e);
    const index_t cols = t.rank() == 2 ? t.shape()[1] : 1;
    const index_t rows = cols == 0 ? t.shape()[0] : t.size() / cols;
    detail::write_atomically(path, [&](std::ostream& out) {
        std::string text;
        const T* p = t.data();
        for (index_t i = 0; i < rows; ++i) {
            for (index_t j = 0; j < cols; ++j) {
                if (j)
                    text += delimiter;
                detail::csv::append_element(text, *p++);
            }
            text += '\n';
            if (text.size() >= (1 << 16) || i + 1 == rows) { // written in blocks of ~64 KiB
                out.write(text.data(), static_cast<std::streamsize>(text.size()));
                text.clear();
            }
        }
    });
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/io/csv.ipp>
#endif
