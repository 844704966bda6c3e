// fusor/algo/interp.ipp: the definitions of interp.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/interp.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF index_t interp_interval(double x, const std::vector<double>& xp, index_t guess) {
    const auto n = static_cast<index_t>(xp.size());
    const double* a = xp.data();
    if (x > a[n - 1])
        return n;
    if (x < a[0])
        return -1;
    if (n <= 4) {
        index_t i = 1;
        while (i < n && x >= a[i])
            ++i;
        return i - 1;
    }
    constexpr index_t window = 8; // NumPy's LIKELY_IN_CACHE_SIZE
    guess = std::min(std::max(guess, index_t{1}), n - 3);
    index_t lo = 0, hi = n;
    // Each comparison as NumPy writes it: with a NaN sample `x < a[k]` and `x >= a[k]` are both
    // false, so the branch taken depends on which one is asked.
    if (x < a[guess]) {
        if (!(x < a[guess - 1]))
            return guess - 1;
        hi = guess - 1;
        if (guess > window && x >= a[guess - window])
            lo = guess - window;
    } else {
        if (x < a[guess + 1])
            return guess;
        if (x < a[guess + 2])
            return guess + 1;
        lo = guess + 2;
        if (guess < n - window - 1 && x < a[guess + window])
            hi = guess + window;
    }
    while (lo < hi) {
        const index_t mid = lo + (hi - lo) / 2;
        if (x >= a[mid])
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

FUSOR_DEF double floored_mod(double a, double p) {
    double m = std::fmod(a, p);
    if (m != 0.0) {
        if (m < 0.0)
            m += p;
    } else {
        m = std::copysign(0.0, p);
    }
    return m;
}

FUSOR_DEF double interp_one(double x,
                            const std::vector<double>& xp,
                            const std::vector<double>& fp,
                            double left,
                            double right,
                            index_t& guess) {
    const auto n = static_cast<index_t>(xp.size());
    if (n == 1) // NumPy's separate one-sample branch (a NaN x gives fp[0] there)
        return x < xp[0] ? left : (x > xp[0] ? right : fp[0]);
    if (std::isnan(x))
        return x; // (the guess unchanged, as NumPy's loop skips the search)
    const index_t j = interp_interval(x, xp, guess);
    guess = j;
    const auto u = static_cast<std::size_t>(j);
    if (j == -1)
        return left;
    if (j == n)
        return right;
    if (j == n - 1 || xp[u] == x)
        return fp[u];
    const double slope = (fp[u + 1] - fp[u]) / (xp[u + 1] - xp[u]);
    double r = slope * (x - xp[u]) + fp[u];
    if (std::isnan(r)) {
        r = slope * (x - xp[u + 1]) + fp[u + 1];
        if (std::isnan(r) && fp[u] == fp[u + 1])
            r = fp[u];
    }
    return r;
}

} // namespace detail
} // namespace fusor
