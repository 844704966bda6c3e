// fusor/exec/rescaled_blocks.hpp: logsumexp by blocks: its register accumulator
// (reduce_kernel::rescaled_blocks) and its row of accumulators (reduce_kernel::rescaled_rows). The
// reducer's own step (reduce/reducers.hpp) takes one element at a time: a compare, a branch, an exp
// and a rescale per element, which held logsumexp over (4096, 1024) float32 to 41 ms where reading
// the operand takes about 2. Here a run is taken in blocks of `rescaled_block` elements converted
// to double: the block's maximum in eight lanes, then exp(x - maximum) over the block (SLEEF's
// vector exp when fusor is built with it, std::exp otherwise) summed in eight lanes, and the
// block's (maximum, sum) merged into the accumulator by the reducer's own `merge`: the online
// normaliser of Milakov and Gimelshein applied per block instead of per element. The arithmetic
// stays the reducer's: double throughout, each exp within 1 ulp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <fusor/config.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/index_buffer.hpp>
#include <fusor/exec/lane_vectors.hpp>
#include <fusor/exec/vector_math.hpp>
#include <fusor/ops/math.hpp>
#include <fusor/plan/loop_plan.hpp> // rescaled_block, rescaled_block_rows

namespace fusor::exec::detail {

/// A block's maximum and the sum of exp(x - maximum) over it.
struct block_max_sum {
    double max;
    double sum;
};

// The pair of a block whose maximum is `max` (NaN when any element is NaN) and whose terms sum
// to `sum`, as the reducer's merge treats the special maxima: NaN gives (NaN, 1), -inf (every
// element -inf: nothing to add) the identity (-inf, 0), +inf (+inf, 1); `sum` is read only for a
// finite maximum.
FUSOR_DECL block_max_sum block_pair(double max, double sum);

// x[0, n) (n >= 1, room for vector_padding more) as a block: its maximum (NaN when any element
// is NaN), then x[i] = exp(x[i] - maximum) summed (block_pair: a maximum that is not finite
// decides the pair alone). Overwrites x.
FUSOR_DECL block_max_sum rescaled_block_terms(double* x, index_t n);

/// The register accumulator of a rescaled reducer (logsumexp) over a run of `n` elements of
/// `ev` (bound at the run's start; `Contiguous`: at unit stride), block by block.
template <class Impl, bool Contiguous, class Ev>
typename Impl::acc_type rescaled_blocks_reduce(const Ev& ev, index_t n) {
    alignas(64) double x[rescaled_block + vector_padding];
    typename Impl::acc_type acc = Impl::identity();
    for (index_t start = 0; start < n; start += rescaled_block) {
        const index_t len = std::min(rescaled_block, n - start);
        for (index_t i = 0; i < len; ++i)
            x[i] = static_cast<double>(ev.template get<Contiguous>(start + i));
        const block_max_sum b = rescaled_block_terms(x, len);
        acc = Impl::merge(acc, typename Impl::acc_type{b.max, b.sum});
    }
    return acc;
}

/// The row of accumulators of a rescaled reducer (logsumexp) over a block of `rows` rows of
/// `cols` columns at unit stride ([reduced, kept]: reduce_kernel::rescaled_rows): `a` the
/// accumulators of the block's columns; `off` every operand's offset at the block's first row,
/// `row_step` its stride between rows; `ev` bound to a row reads column c at `get<true>(c)`. In
/// strips of `rescaled_block` columns and blocks of `rescaled_block_rows` rows: each column's
/// maximum over the block's rows (NaN when any is NaN), then a row at a time exp(x - maximum)
/// in float64 (SLEEF's vector exp over the strip) added to the column's sum, and each column's
/// pair (block_pair) merged into its accumulator by the reducer's merge, as
/// rescaled_blocks_reduce merges a run's blocks. The block's rows are read twice, the second
/// time from the cache.
template <class Impl, class Ev>
void rescaled_rows_block(std::size_t ops,
                         Ev& ev,
                         typename Impl::acc_type* a,
                         index_t rows,
                         index_t cols,
                         const index_t* off,
                         const index_t* row_step) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    alignas(64) double x[rescaled_block + vector_padding];
    double top[rescaled_block], nan_seen[rescaled_block], shift[rescaled_block],
        sum[rescaled_block];
    index_buffer at(ops); // the offsets of the row being read
    const auto to_row = [&](index_t r) {
        for (std::size_t k = 0; k < ops; ++k)
            at[k] = off[k] + r * row_step[k];
    };
    for (index_t c0 = 0; c0 < cols; c0 += rescaled_block) {
        const index_t w = std::min(rescaled_block, cols - c0);
        for (index_t r0 = 0; r0 < rows; r0 += rescaled_block_rows) {
            const index_t h = std::min(rescaled_block_rows, rows - r0);
            for (index_t c = 0; c < w; ++c)
                top[c] = -inf, nan_seen[c] = 0.0, sum[c] = 0.0;
            for (index_t r = r0; r < r0 + h; ++r) {
                to_row(r);
                ev.bind(at.data());
                for (index_t c = 0; c < w; ++c) {
                    const double v = static_cast<double>(ev.template get<true>(c0 + c));
                    top[c] = v > top[c] ? v : top[c];
                    nan_seen[c] = v != v ? v : nan_seen[c];
                }
            }
            // Columns whose maximum is not finite take no sum (their pair is decided
            // below): shifted by 0, their exp is computed and never read.
            for (index_t c = 0; c < w; ++c)
                shift[c] = top[c] - top[c] == 0.0 ? top[c] : 0.0;
            for (index_t r = r0; r < r0 + h; ++r) {
                to_row(r);
                ev.bind(at.data());
                for (index_t c = 0; c < w; ++c)
                    x[c] = static_cast<double>(ev.template get<true>(c0 + c)) - shift[c];
#if FUSOR_VECTOR_MATH
                // The last register's unused lanes.
                std::fill(x + w, x + w + vector_padding, 0.0);
                vector_function<ops::exp, double>::apply(x, w);
#else
                for (index_t c = 0; c < w; ++c)
                    x[c] = std::exp(x[c]);
#endif
                for (index_t c = 0; c < w; ++c)
                    sum[c] += x[c];
            }
            for (index_t c = 0; c < w; ++c) {
                const block_max_sum b =
                    block_pair(nan_seen[c] != nan_seen[c] ? nan_seen[c] : top[c], sum[c]);
                a[c0 + c] = Impl::merge(a[c0 + c], typename Impl::acc_type{b.max, b.sum});
            }
        }
    }
}

} // namespace fusor::exec::detail

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/exec/rescaled_blocks.ipp>
#endif
