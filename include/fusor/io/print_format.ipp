// fusor/io/print_format.ipp: the definitions of print_format.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/io/print_format.hpp>

namespace fusor::detail {

FUSOR_DEF sci_decimal parse_scientific(const char* first, const char* last) {
    sci_decimal d;
    const char* e = std::find(first, last, 'e');
    for (const char* p = first; p != e; ++p)
        if (*p != '.')
            d.digits += *p;
    std::from_chars(e + 1 + (e[1] == '+' ? 1 : 0), last, d.exp); // from_chars refuses '+'
    return d;
}

FUSOR_DEF positional_parts to_positional(const sci_decimal& d) {
    positional_parts p;
    if (d.exp >= 0) {
        const auto whole = static_cast<std::size_t>(d.exp) + 1;
        if (d.digits.size() <= whole) {
            p.integer = d.digits + std::string(whole - d.digits.size(), '0');
        } else {
            p.integer = d.digits.substr(0, whole);
            p.fraction = d.digits.substr(whole);
        }
    } else {
        p.integer = "0";
        p.fraction = std::string(static_cast<std::size_t>(-d.exp - 1), '0') + d.digits;
    }
    return p;
}

FUSOR_DEF sci_decimal exact_digits(long double v) {
    std::string buf(1300, '\0');
    const auto r =
        std::to_chars(buf.data(), buf.data() + buf.size(), v, std::chars_format::scientific, 1200);
    sci_decimal d = parse_scientific(buf.data(), r.ptr);
    while (d.digits.size() > 1 && d.digits.back() == '0')
        d.digits.pop_back();
    return d;
}

FUSOR_DEF int compare_decimal(const sci_decimal& a, const sci_decimal& b) {
    if (a.exp != b.exp)
        return a.exp < b.exp ? -1 : 1;
    const std::size_t n = std::max(a.digits.size(), b.digits.size());
    for (std::size_t i = 0; i < n; ++i) {
        const char x = i < a.digits.size() ? a.digits[i] : '0';
        const char y = i < b.digits.size() ? b.digits[i] : '0';
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

FUSOR_DEF std::string exponent_text(int exp, int width) {
    std::string digits = std::to_string(exp < 0 ? -exp : exp);
    if (static_cast<int>(digits.size()) < width)
        digits.insert(0, static_cast<std::size_t>(width) - digits.size(), '0');
    return std::string("e") + (exp < 0 ? '-' : '+') + digits;
}

FUSOR_DEF std::string spaces(int n) {
    return std::string(static_cast<std::size_t>(std::max(n, 0)), ' ');
}

} // namespace fusor::detail
