// csv_table.hpp: a small CSV reader for the examples (plain C++20, no fusor dependency).
//
// Reads a header line, then rows of `numeric_cols` numbers followed by one label cell, e.g.
//   sepal_length_cm,sepal_width_cm,petal_length_cm,petal_width_cm,species
//   5.1,3.5,1.4,0.2,Iris-setosa
// Errors throw csv_error with one line naming the file, the 1-based line and column:
//   cannot open data.csv
//   data.csv:9: expected 5 cells, found 4
//   data.csv:17:3: not a number: "abc"
// Blank lines are skipped; "\r\n" line ends and spaces around numbers are accepted.
#pragma once

#include <charconv>
#include <cstddef>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct csv_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct csv_table {
    std::vector<double> values; ///< rows × cols numbers, row-major
    std::ptrdiff_t rows = 0, cols = 0;
    std::vector<std::string> labels; ///< the last cell of every row
    std::vector<std::string> header; ///< the header line's cells
};

namespace csv_detail {
inline std::vector<std::string_view> split(std::string_view line) {
    std::vector<std::string_view> cells;
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = line.find(',', start);
        cells.push_back(
            line.substr(start, comma == std::string_view::npos ? line.npos : comma - start));
        if (comma == std::string_view::npos)
            return cells;
        start = comma + 1;
    }
}
inline std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}
} // namespace csv_detail

/// Reads `path` (header, then rows of `numeric_cols` numbers and a label). Throws csv_error.
inline csv_table read_numeric_csv(const std::string& path, std::ptrdiff_t numeric_cols) {
    std::ifstream in(path);
    if (!in)
        throw csv_error("cannot open " + path);
    csv_table t;
    t.cols = numeric_cols;
    const std::size_t cells_per_row = static_cast<std::size_t>(numeric_cols) + 1;
    std::string line;
    std::size_t line_no = 0;
    bool have_header = false;
    while (std::getline(in, line)) {
        ++line_no;
        const std::string_view row = csv_detail::trim(line);
        if (row.empty())
            continue;
        const auto cells = csv_detail::split(row);
        const std::string where = path + ":" + std::to_string(line_no);
        if (cells.size() != cells_per_row)
            throw csv_error(where + ": expected " + std::to_string(cells_per_row) + " cells, found "
                            + std::to_string(cells.size()));
        if (!have_header) {
            for (auto c : cells)
                t.header.emplace_back(csv_detail::trim(c));
            have_header = true;
            continue;
        }
        for (std::size_t c = 0; c + 1 < cells.size(); ++c) {
            const std::string_view cell = csv_detail::trim(cells[c]);
            double v = 0;
            const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
            if (cell.empty() || ec != std::errc() || end != cell.data() + cell.size())
                throw csv_error(where + ":" + std::to_string(c + 1) + ": not a number: \""
                                + std::string(cell) + "\"");
            t.values.push_back(v);
        }
        t.labels.emplace_back(csv_detail::trim(cells.back()));
        ++t.rows;
    }
    if (!have_header)
        throw csv_error(path + ": empty file, expected a header line");
    return t;
}
