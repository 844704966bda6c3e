// fusor/algo/interp.ipp: the definitions of interp.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/interp.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF index_t interp_interval(double x, const std::vector<double>& xp) {
    const auto n = static_cast<index_t>(xp.size());
    if (x > xp.back())
        return n;
    if (x < xp.front())
        return -1;
    return static_cast<index_t>(std::upper_bound(xp.begin(), xp.end(), x) - xp.begin()) - 1;
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
                            double right) {
    const auto n = static_cast<index_t>(xp.size());
    if (n == 1) // NumPy's separate one-sample branch (a NaN x gives fp[0] there)
        return x < xp[0] ? left : (x > xp[0] ? right : fp[0]);
    if (std::isnan(x))
        return x;
    const index_t j = interp_interval(x, xp);
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
