// fusor/algo/quantile.ipp: the definitions of quantile.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/quantile.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF bool is_discrete(quantile_method m) {
    return m == quantile_method::lower || m == quantile_method::higher
           || m == quantile_method::nearest || m == quantile_method::inverted_cdf
           || m == quantile_method::closest_observation;
}

FUSOR_DEF double round_half_even(double v) {
    const double f = std::floor(v);
    const double d = v - f;
    return d > 0.5 || (d == 0.5 && std::fmod(f, 2.0) != 0) ? f + 1 : f;
}

FUSOR_DEF double virtual_index(double n, double q, double alpha, double beta) {
    return rounded(n * q) + (alpha + rounded(q * ((1.0 - alpha) - beta))) - 1.0;
}

FUSOR_DEF quantile_point quantile_position(index_t n, double q, quantile_method m) {
    using qm = quantile_method;
    const double nd = static_cast<double>(n), last = static_cast<double>(n - 1);
    auto take = [&](double position) {
        const auto p = std::clamp(static_cast<index_t>(position), index_t{0}, n - 1);
        return quantile_point{p, p, 0.0, true};
    };
    // inverted_cdf, closest_observation: the floor when `exact(gamma, floor)` holds, else the
    // next position; negative positions are clipped to 0.
    auto boundary = [&](double index, auto exact) {
        const double previous = std::floor(index);
        const double gamma = index - previous;
        return take(exact(gamma, previous) ? previous : previous + 1);
    };
    double v = 0; // the virtual (fractional) index of the interpolating methods
    switch (m) {
    case qm::lower:
        return take(std::floor(last * q));
    case qm::higher:
        return take(std::ceil(last * q));
    case qm::nearest:
        return take(round_half_even(last * q));
    case qm::inverted_cdf:
        return boundary(rounded(nd * q) - 1.0, [](double g, double) { return g == 0; });
    case qm::closest_observation:
        return boundary((rounded(nd * q) - 1.0) - 0.5,
                        [](double g, double f) { return g == 0 && std::fmod(f, 2.0) == 0; });
    case qm::linear:
        v = last * q;
        break;
    case qm::midpoint:
        v = 0.5 * (std::floor(last * q) + std::ceil(last * q));
        break;
    case qm::averaged_inverted_cdf:
        v = rounded(nd * q) - 1.0;
        break;
    case qm::interpolated_inverted_cdf:
        v = virtual_index(nd, q, 0.0, 1.0);
        break;
    case qm::hazen:
        v = virtual_index(nd, q, 0.5, 0.5);
        break;
    case qm::weibull:
        v = virtual_index(nd, q, 0.0, 0.0);
        break;
    case qm::median_unbiased:
        v = virtual_index(nd, q, 1 / 3.0, 1 / 3.0);
        break;
    case qm::normal_unbiased:
        v = virtual_index(nd, q, 3 / 8.0, 3 / 8.0);
        break;
    }
    // _get_indexes: at or past the last position both neighbours are the last element (NumPy's
    // index -1), before the first both are the first; gamma is measured from that adjusted
    // previous index (so it is v + 1 past the end: harmless, both neighbours are equal).
    double previous = std::floor(v);
    index_t prev = static_cast<index_t>(previous), next = prev + 1;
    if (v >= last) {
        previous = -1;
        prev = next = n - 1;
    }
    if (v < 0) {
        previous = 0;
        prev = next = 0;
    }
    double gamma = v - previous;
    if (m == qm::midpoint)
        gamma = std::fmod(v, 1.0) == 0 ? 0.0 : 0.5;
    else if (m == qm::averaged_inverted_cdf)
        gamma = gamma == 0 ? 0.5 : 1.0;
    return quantile_point{prev, next, gamma, false};
}

FUSOR_DEF void check_quantiles(const std::vector<double>& q, bool percent) {
    for (double v : q)
        if (!(0.0 <= v && v <= 1.0))
            throw value_error(percent ? "percentile: percentiles must be in the range [0, 100]"
                                      : "quantile: quantiles must be in the range [0, 1]");
}

} // namespace detail
} // namespace fusor
