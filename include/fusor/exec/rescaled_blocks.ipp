// fusor/exec/rescaled_blocks.ipp: the definitions of rescaled_blocks.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/exec/rescaled_blocks.hpp>

namespace fusor::exec::detail {

FUSOR_DEF block_max_sum block_pair(double max, double sum) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    if (max != max)
        return {max, 1.0};
    if (max == -inf)
        return {-inf, 0.0};
    if (max == inf)
        return {inf, 1.0};
    return {max, sum};
}

FUSOR_DEF block_max_sum rescaled_block_terms(double* x, index_t n) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    // Eight lanes of the maximum so far, and of a NaN seen: GCC/Clang vector types, as in
    // minmax_kernel.hpp (a NaN-aware compare-and-select kept in an array is not vectorised),
    // K vectors of at most one register each (lane_vectors.hpp).
    constexpr index_t L = lane_vectors<double, 8>::width, K = lane_vectors<double, 8>::count;
    using lanes = lane_vectors<double, 8>::vector;
    lanes best[K], nan_seen[K];
    for (index_t k = 0; k < K; ++k) // whole vectors: g++ 12 took lane stores for uninitialised
        best[k] = lanes{} - inf, nan_seen[k] = lanes{};
    index_t i = 0;
    for (; i + 8 <= n; i += 8) {
        for (index_t k = 0; k < K; ++k) {
            lanes v;
            std::memcpy(&v, x + i + k * L, sizeof v);
            best[k] = v > best[k] ? v : best[k];
            nan_seen[k] = v != v ? v : nan_seen[k];
        }
    }
    double m = -inf;
    for (index_t k = 0; k < K; ++k)
        for (index_t j = 0; j < L; ++j) {
            m = best[k][j] > m ? best[k][j] : m;
            m = nan_seen[k][j] != nan_seen[k][j] ? nan_seen[k][j] : m;
        }
    for (; i < n; ++i)
        m = (x[i] > m || x[i] != x[i]) && m == m ? x[i] : m;
    if (m - m != 0.0) // NaN or an infinity
        return block_pair(m, 0.0);
    for (i = 0; i < n; ++i)
        x[i] -= m;
#if FUSOR_VECTOR_MATH
    std::fill(x + n, x + n + vector_padding, 0.0); // the last register's unused lanes
    vector_function<ops::exp, double>::apply(x, n);
#else
    for (i = 0; i < n; ++i)
        x[i] = std::exp(x[i]);
#endif
    double s[8] = {};
    for (i = 0; i + 8 <= n; i += 8)
        for (index_t j = 0; j < 8; ++j)
            s[j] += x[i + j];
    double sum = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
    for (; i < n; ++i)
        sum += x[i];
    return {m, sum};
}

} // namespace fusor::exec::detail
