// fusor/random/generator.ipp: the definitions of generator.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/random/generator.hpp>

namespace fusor::random {
namespace detail {

FUSOR_DEF void fill_floats(pcg64& g, float* out, std::int64_t n) {
#if FUSOR_THREADS_OPENMP
    const int threads = num_threads();
    if (n >= parallel_threshold && threads > 1) {
        auto to_float = [](std::uint32_t bits) {
            return static_cast<float>(bits >> 8) * 0x1.0p-24f;
        };
        std::int64_t first = 0;
        if (n > 0 && g.state().has_uint32)
            out[first++] = g.next_float();
        const std::int64_t m = n - first, draws = (m + 1) / 2;
        const pcg64 start = g;
        const std::int64_t chunks = std::min<std::int64_t>(threads, draws / parallel_grain + 1);
#pragma omp parallel for num_threads(threads) schedule(static)
        for (std::int64_t c = 0; c < chunks; ++c) {
            const std::int64_t begin = draws * c / chunks, end = draws * (c + 1) / chunks;
            pcg64 local = start;
            local.advance(static_cast<uint128_t>(begin));
            for (std::int64_t d = begin; d < end; ++d) {
                const std::uint64_t bits = local.next_uint64();
                const std::int64_t k = first + 2 * d;
                out[k] = to_float(static_cast<std::uint32_t>(bits));
                if (k + 1 < n)
                    out[k + 1] = to_float(static_cast<std::uint32_t>(bits >> 32));
            }
        }
        // The state after the serial fill: every draw made, the last draw's high half
        // buffered when m is odd.
        g.advance(static_cast<uint128_t>(draws));
        if (m % 2 == 1) {
            pcg64 last = start;
            last.advance(static_cast<uint128_t>(draws - 1));
            pcg64_state s = g.state();
            s.has_uint32 = true;
            s.uinteger = static_cast<std::uint32_t>(last.next_uint64() >> 32);
            g.set_state(s);
        }
        return;
    }
#endif
    for (std::int64_t i = 0; i < n; ++i)
        out[i] = g.next_float();
}

FUSOR_DEF double kahan_sum(const std::vector<double>& p) {
    if (p.empty())
        return 0.0;
    double sum = p[0], c = 0.0;
    for (std::size_t i = 1; i < p.size(); ++i) {
        const double y = rounded(p[i] - c);
        const double t = rounded(sum + y);
        c = rounded(rounded(t - sum) - y);
        sum = t;
    }
    return sum;
}

FUSOR_DEF std::vector<double> normalised_cdf(const std::vector<double>& p) {
    std::vector<double> cdf(p.size());
    double running = 0.0;
    for (std::size_t i = 0; i < p.size(); ++i)
        cdf[i] = running = rounded(running + p[i]);
    const double last = cdf.back();
    for (double& c : cdf)
        c /= last;
    return cdf;
}

FUSOR_DEF std::int64_t search_right(const std::vector<double>& cdf, double u) {
    return std::upper_bound(cdf.begin(), cdf.end(), u) - cdf.begin();
}

} // namespace detail
} // namespace fusor::random

namespace fusor::random {

FUSOR_DEF generator default_rng() {
    return generator(pcg64{seed_sequence{}});
}

FUSOR_DEF generator default_rng(const seed_sequence& seq) {
    return generator(pcg64{seq});
}

FUSOR_DEF generator default_rng(const pcg64& bit_generator) {
    return generator(bit_generator);
}

} // namespace fusor::random
