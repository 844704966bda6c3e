// fusor/io/csv.ipp: the definitions of csv.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/io/csv.hpp>

namespace fusor {
namespace detail::csv {

FUSOR_DEF bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

FUSOR_DEF std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && is_space(s.back()))
        s.remove_suffix(1);
    return s;
}

FUSOR_DEF std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        fail(path, "cannot open the file for reading");
    std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad())
        fail(path, "read error");
    return text;
}

FUSOR_DEF std::vector<data_line> data_lines(std::string_view text, index_t skip) {
    if (skip < 0) // numpy.loadtxt's skiprows=-1: "argument must be nonnegative"
        throw value_error("load_csv: skip_header must be non-negative, not "
                          + std::to_string(skip));
    std::vector<data_line> out;
    index_t number = 0;
    while (!text.empty()) {
        // A line ends at "\n", "\r\n" or a lone "\r", as in Python's universal newlines
        // (numpy.loadtxt): a file with old Mac line ends is rows, not one row.
        const std::size_t end = text.find_first_of("\r\n");
        std::string_view line = text.substr(0, end);
        std::size_t next = text.size();
        if (end != std::string_view::npos)
            next =
                end + (text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n' ? 2 : 1);
        text.remove_prefix(next);
        if (++number <= skip)
            continue;
        line = line.substr(0, line.find('#'));
        if (!trim(line).empty())
            out.push_back({number, line});
    }
    return out;
}

FUSOR_DEF void split(std::string_view line, char delimiter, std::vector<std::string_view>& cells) {
    cells.clear();
    for (;;) {
        const std::size_t d = line.find(delimiter);
        cells.push_back(trim(line.substr(0, d)));
        if (d == std::string_view::npos)
            return;
        line.remove_prefix(d + 1);
    }
}

FUSOR_DEF double out_of_range_value(std::string_view s) {
    const bool negative = s.front() == '-';
    if (negative || s.front() == '+')
        s.remove_prefix(1);
    const std::size_t e = s.find_first_of("eE");
    const std::string_view mantissa = s.substr(0, e);
    std::int64_t exponent = 0;
    if (e != std::string_view::npos) {
        std::string_view x = s.substr(e + 1);
        const bool minus = !x.empty() && x.front() == '-';
        if (!x.empty() && (x.front() == '-' || x.front() == '+'))
            x.remove_prefix(1);
        for (char c : x) // saturates: only the sign of the total matters
            exponent = std::min<std::int64_t>(exponent * 10 + (c - '0'), 1'000'000'000);
        exponent = minus ? -exponent : exponent;
    }
    const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
    const std::size_t first = mantissa.find_first_not_of("0.");
    const std::int64_t lead = first < point ? static_cast<std::int64_t>(point - first) - 1
                                            : -static_cast<std::int64_t>(first - point);
    const double magnitude = exponent + lead > 0 ? std::numeric_limits<double>::infinity() : 0.0;
    return negative ? -magnitude : magnitude;
}

FUSOR_DEF std::size_t
resolve_column(index_t column, std::size_t width, const std::string& path, index_t line) {
    const index_t w = static_cast<index_t>(width);
    if (column < -w || column >= w)
        fail(path + ":" + std::to_string(line),
             "column " + std::to_string(column) + " does not exist: the row has "
                 + std::to_string(width) + " cells");
    return static_cast<std::size_t>(column < 0 ? column + w : column);
}

} // namespace detail::csv
} // namespace fusor

namespace fusor {

FUSOR_DEF std::vector<std::string>
load_csv_column(const std::string& path, index_t column, const csv_options& options) {
    namespace csv = detail::csv;
    if (!options.usecols.empty())
        throw value_error("load_csv_column: the column is the second argument; usecols must be "
                          "empty");
    const std::string text = csv::read_file(path);
    const std::vector<csv::data_line> lines = csv::data_lines(text, options.skip_header);
    std::vector<std::string> out;
    out.reserve(lines.size());
    std::size_t c = 0;
    csv::for_each_row(path, lines, options.delimiter, [&](index_t line, const auto& row) {
        if (out.empty())
            c = csv::resolve_column(column, row.size(), path, line);
        out.emplace_back(row[c]);
    });
    return out;
}

} // namespace fusor
