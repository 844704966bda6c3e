// fusor/io/print_format.hpp: how one element prints, as NumPy 1.24's arrayprint.py decides it
// (FloatingFormat, IntegerFormat, BoolFormat) and as str() of a NumPy scalar prints it. No
// public names: io/print.hpp builds one format per array from these and lays the words out.
//
// NumPy prints floats with Dragon4 (numpy/core/src/multiarray/dragon4.c). Its digits are
// reproduced here with std::to_chars:
//   * unique digits: the shortest digits that read back as the value in its own type
//     (float: `0.1f` is `1e-01`, not `1.0000000149e-01`) = to_chars(x, scientific);
//   * digits cut off at a precision: the exact binary value rounded, ties to even (Dragon4
//     compares the exact remainder with one half) = to_chars(x, fmt, precision).
// Dragon4 with `precision` p and `min_digits` m (in unique mode) prints the unique digits when
// there are between m and p of them, else the exact value rounded to p (more than p) or to m
// (fewer than m). The one place where Dragon4's "fewer than m" is not plain rounding is handled
// by `dragon4_min_digits_power_of_two` below.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/config.hpp>

namespace fusor::detail {

// A finite value >= 0 in decimal scientific notation: digits[0] . digits[1..] × 10^exp.
struct sci_decimal {
    std::string digits;
    int exp = 0;
    // Digits after the point in scientific notation.
    int fraction_digits() const { return static_cast<int>(digits.size()) - 1; }
};

// Reads what std::to_chars writes with chars_format::scientific: `d[.ddd]e±XX`.
FUSOR_DECL sci_decimal parse_scientific(const char* first, const char* last);

// The shortest digits that read back as `a` in T (Dragon4's unique mode without cut-off).
template <class T>
sci_decimal shortest_digits(T a) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, a, std::chars_format::scientific);
    return parse_scientific(buf, r.ptr);
}

// `a` rounded to 1 + `frac` significant digits (ties to even on the exact value).
template <class T>
sci_decimal rounded_digits(T a, int frac) {
    std::string buf(static_cast<std::size_t>(frac) + 32, '\0');
    const auto r =
        std::to_chars(buf.data(), buf.data() + buf.size(), a, std::chars_format::scientific, frac);
    return parse_scientific(buf.data(), r.ptr);
}

// The integer and fraction digits of a value in positional notation.
struct positional_parts {
    std::string integer;
    std::string fraction;
};

FUSOR_DECL positional_parts to_positional(const sci_decimal& d);

// Dragon4 positional, unique digits, at most `precision` digits after the point, trailing
// zeros trimmed (trim='.'): 0.5 -> `0` `5`, 1.0 -> `1` ``, 2/3 at 8 -> `0` `66666667`.
// `all_integer_digits` is Dragon4's min_digits=0 (what FloatingFormat prints with, not what it
// measures with): digits are generated at least down to the units, so a float32 83726224 whose
// unique digits are 8372622e+01 prints `83726224`, not `83726220` (it is an integer: a float
// whose unique digits end above the units has a spacing of 2 or more).
template <class T>
positional_parts positional_maxprec(T a, int precision, bool all_integer_digits = false) {
    const sci_decimal s = shortest_digits(a);
    const int fraction = std::max(0, s.fraction_digits() - s.exp);
    if (all_integer_digits && s.exp >= 0 && s.fraction_digits() < s.exp)
        precision = 0; // the exact integer, from to_chars below
    else if (fraction <= precision)
        return to_positional(s);
    // More unique digits than `precision`: Dragon4 stops at the cut-off and rounds the exact
    // value there, which is what to_chars with a precision does. `a` < 1e8 in fixed mode.
    std::string buf(static_cast<std::size_t>(precision) + 400, '\0');
    const auto r =
        std::to_chars(buf.data(), buf.data() + buf.size(), a, std::chars_format::fixed, precision);
    std::string text(buf.data(), r.ptr);
    positional_parts p;
    const auto dot = text.find('.');
    p.integer = text.substr(0, dot);
    if (dot != std::string::npos)
        p.fraction = text.substr(dot + 1);
    while (!p.fraction.empty() && p.fraction.back() == '0')
        p.fraction.pop_back();
    return p;
}

// Dragon4 scientific, unique digits, at most `precision` after the point, trailing zeros
// trimmed: 1e-06 -> `1` e-6, 0.25 -> `25` e-1.
template <class T>
sci_decimal scientific_maxprec(T a, int precision) {
    sci_decimal s = shortest_digits(a);
    if (s.fraction_digits() <= precision)
        return s;
    s = rounded_digits(a, precision);
    while (s.digits.size() > 1 && s.digits.back() == '0')
        s.digits.pop_back();
    return s;
}

// Exact decimal expansion of a finite long double > 0 (at most ~800 significant digits for the
// values used here; 1200 leaves room), trailing zeros removed.
FUSOR_DECL sci_decimal exact_digits(long double v);

// -1, 0, 1 as a < b, a == b, a > b, for two positive values with a non-zero first digit.
FUSOR_DECL int compare_decimal(const sci_decimal& a, const sci_decimal& b);

// Dragon4 with min_digits m (unique mode) generates digits past the unique ones up to m and
// then rounds the last by its margins: down when only the truncated number still reads back
// as the value (`low`), up when only the rounded-up one does (`high`), to nearest when both or
// neither. That is plain rounding except for a power of two, whose gap to the float below is
// half its gap above: there `high` alone can hold with a remainder under one half, and Dragon4
// rounds up where rounding would not (2.0**149 at 15 digits: 7.136238463529800e+44, not
// ...799e+44). This returns Dragon4's digits in that case, nullopt when plain rounding holds.
// The midpoints are exact in long double (64-bit significand >= 53 + 2); where long double is
// double (MSVC) the case is not detected.
template <class T>
std::optional<sci_decimal> dragon4_min_digits_power_of_two(T a, int m) {
    constexpr int digits = std::numeric_limits<T>::digits;
    if constexpr (std::numeric_limits<long double>::digits < digits + 2) {
        return std::nullopt;
    } else {
        int e2 = 0;
        // NumPy's hasUnequalMargins: mantissa bits zero, biased exponent above 1.
        if (std::frexp(a, &e2) != T(0.5) || !(a > std::numeric_limits<T>::min()))
            return std::nullopt;
        const long double x = a;
        const sci_decimal lo = exact_digits(x - std::ldexp(x, -(digits + 1))); // midpoint below
        const sci_decimal hi = exact_digits(x + std::ldexp(x, -digits));       // midpoint above
        sci_decimal truncated = exact_digits(x);
        truncated.digits.resize(static_cast<std::size_t>(m) + 1, '0');
        sci_decimal up = truncated;
        std::size_t i = up.digits.size();
        while (i > 0 && up.digits[i - 1] == '9')
            up.digits[--i] = '0';
        if (i == 0) {
            up.digits.insert(up.digits.begin(), '1');
            up.digits.pop_back();
            ++up.exp;
        } else {
            ++up.digits[i - 1];
        }
        // A power of two has an even mantissa, so both margins are inclusive.
        const bool low = compare_decimal(truncated, lo) >= 0;
        const bool high = compare_decimal(up, hi) <= 0;
        if (low == high)
            return std::nullopt;
        return low ? truncated : up;
    }
}

// Dragon4 scientific, unique digits with exactly `frac` digits after the point (precision =
// min_digits = frac, trim='k'): what FloatingFormat prints in exponential mode.
template <class T>
sci_decimal scientific_exact(T a, int frac) {
    const sci_decimal s = shortest_digits(a);
    if (s.fraction_digits() == frac)
        return s;
    if (s.fraction_digits() < frac && a != 0)
        if (auto d = dragon4_min_digits_power_of_two(a, frac))
            return *d;
    return rounded_digits(a, frac);
}

// `e+05`, `e-100`: the exponent with at least `width` digits.
FUSOR_DECL std::string exponent_text(int exp, int width);

FUSOR_DECL std::string spaces(int n);

// NumPy's FloatingFormat with floatmode='maxprec', sign='-', legacy=False: one format for all
// the elements of an array (the shown ones when summarised), fixed-point or exponential.
template <class T>
class float_format {
public:
    float_format(const std::vector<T>& data, int precision, bool suppress) : precision_(precision) {
        std::vector<T> finite;
        bool nonfinite = false, negative_inf = false;
        for (T x : data) {
            if (std::isfinite(x)) {
                finite.push_back(x);
            } else {
                nonfinite = true;
                negative_inf = negative_inf || (std::isinf(x) && x < 0);
            }
        }
        // Exponential mode from the non-zero finite magnitudes. NumPy compares the float32
        // extremes with Python floats (in double) but divides them as float32 scalars.
        bool any = false;
        T max_val = 0, min_val = 0;
        for (T x : finite) {
            if (x == 0)
                continue;
            const T a = std::fabs(x);
            max_val = any ? std::max(max_val, a) : a;
            min_val = any ? std::min(min_val, a) : a;
            any = true;
        }
        if (any) {
            const T ratio = max_val / min_val;
            exponential_ = static_cast<double>(max_val) >= 1e8
                           || (!suppress
                               && (static_cast<double>(min_val) < 0.0001
                                   || static_cast<double>(ratio) > 1000.0));
        }
        if (finite.empty()) {
            pad_left_ = pad_right_ = 0;
        } else if (exponential_) {
            // First pass: unique digits up to `precision`; then every element gets as many
            // mantissa digits as the longest, and exponents as wide as the widest.
            int fraction = 0;
            exp_size_ = 0;
            for (T x : finite) {
                const sci_decimal d = scientific_maxprec(std::fabs(x), precision);
                fraction = std::max(fraction, d.fraction_digits());
                exp_size_ =
                    std::max(exp_size_,
                             std::max(2, static_cast<int>(std::to_string(std::abs(d.exp)).size())));
                pad_left_ = std::max(pad_left_, 1 + (std::signbit(x) ? 1 : 0));
            }
            precision_ = fraction;
            pad_right_ = exp_size_ + 2 + precision_;
        } else {
            for (T x : finite) {
                const positional_parts p = positional_maxprec(std::fabs(x), precision);
                pad_left_ = std::max(
                    pad_left_, static_cast<int>(p.integer.size()) + (std::signbit(x) ? 1 : 0));
                pad_right_ = std::max(pad_right_, static_cast<int>(p.fraction.size()));
            }
        }
        if (nonfinite) { // room for nan / inf / -inf right-aligned in the same width
            const int offset = pad_right_ + 1;
            pad_left_ = std::max({pad_left_, 3 - offset, 3 + (negative_inf ? 1 : 0) - offset});
        }
    }

    std::string operator()(T x) const {
        if (!std::isfinite(x)) {
            const std::string s = std::isnan(x) ? "nan" : x < 0 ? "-inf" : "inf";
            return spaces(pad_left_ + pad_right_ + 1 - static_cast<int>(s.size())) + s;
        }
        const bool negative = std::signbit(x);
        const T a = std::fabs(x);
        if (exponential_) {
            const sci_decimal d = scientific_exact(a, precision_);
            return spaces(pad_left_ - 1 - (negative ? 1 : 0)) + (negative ? "-" : "") + d.digits[0]
                   + '.' + d.digits.substr(1) + exponent_text(d.exp, exp_size_);
        }
        const positional_parts p = positional_maxprec(a, precision_, true);
        return spaces(pad_left_ - static_cast<int>(p.integer.size()) - (negative ? 1 : 0))
               + (negative ? "-" : "") + p.integer + '.' + p.fraction
               + spaces(pad_right_ - static_cast<int>(p.fraction.size()));
    }

private:
    bool exponential_ = false;
    int precision_;
    int pad_left_ = 0;
    int pad_right_ = 0;
    int exp_size_ = -1;
};

template <class T>
std::string integer_text(T v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

// NumPy's IntegerFormat: right-aligned to the wider of the largest and the smallest element.
template <class T>
class integer_format {
public:
    explicit integer_format(const std::vector<T>& data) {
        if (!data.empty()) {
            const auto [lo, hi] = std::minmax_element(data.begin(), data.end());
            width_ = std::max(integer_text(*lo).size(), integer_text(*hi).size());
        }
    }
    std::string operator()(T v) const {
        std::string s = integer_text(v);
        return std::string(width_ > s.size() ? width_ - s.size() : 0, ' ') + s;
    }

private:
    std::size_t width_ = 0;
};

// NumPy's BoolFormat: ` True` so that it lines up with `False`, except in a 0-d array.
class bool_format {
public:
    explicit bool_format(bool zero_d) : true_(zero_d ? "True" : " True") {}
    std::string operator()(bool v) const { return v ? true_ : "False"; }

private:
    std::string true_;
};

// The format of one array's elements, given the elements it shows.
template <class T>
auto make_element_format(const std::vector<T>& shown, int precision, bool suppress, bool zero_d) {
    if constexpr (std::is_same_v<T, bool>) {
        (void)shown, (void)precision, (void)suppress;
        return bool_format(zero_d);
    } else if constexpr (std::is_floating_point_v<T>) {
        (void)zero_d;
        return float_format<T>(shown, precision, suppress);
    } else {
        (void)precision, (void)suppress, (void)zero_d;
        return integer_format<T>(shown);
    }
}

// str() of a NumPy scalar, which is what print() shows for a 0-d array: `True`, `-5`, floats
// with their unique digits in their own type (`0.9921580365105283`, float32 `0.99215806`),
// positional with at least one fraction digit when 1e-4 <= |x| < 1e16 or x == 0 (`1.0`,
// `-0.0`, `123456790.0`), else scientific with trailing zeros and point trimmed (`1e+20`,
// `1.5e-05`, `1e-100`); `nan`, `inf`, `-inf`.
template <class T>
std::string scalar_str(T v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v ? "True" : "False";
    } else if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(v))
            return "nan";
        if (std::isinf(v))
            return v < 0 ? "-inf" : "inf";
        const std::string sign = std::signbit(v) ? "-" : "";
        const T a = std::fabs(v);
        const sci_decimal d = shortest_digits(a);
        const double magnitude = static_cast<double>(a);
        if (a == 0 || (magnitude >= 1e-4 && magnitude < 1e16)) {
            const positional_parts p = to_positional(d);
            return sign + p.integer + '.' + (p.fraction.empty() ? "0" : p.fraction);
        }
        return sign + d.digits[0] + (d.digits.size() > 1 ? "." + d.digits.substr(1) : "")
               + exponent_text(d.exp, 2);
    } else {
        return integer_text(v);
    }
}

} // namespace fusor::detail

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/io/print_format.ipp>
#endif
