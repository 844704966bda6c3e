// fusor/exec/arg_rows_kernel.hpp: argmax and argmin along axis 0 of a [reduced, kept] block at
// unit stride (`argmax(a, 0)`): a row of best values and a row of their indices, apart, each
// input row compared with them lane by lane, rows in order, so every column keeps what a row at
// a time keeps (strictly better, or the first NaN: `Impl::wins`).
//
// Two forms, the plan's choice (planning::arg_rows_for):
//  - reduce_kernel::arg_rows, a row per pass, the compiler's masked stores where a value wins;
//  - arg_eight_rows, a tensor's rows eight per pass (values of four or eight bytes), read in
//    registers of the target (lane_vector_bytes) and compared with a register of kept values
//    beside one of their row numbers (int32 or int64: the values' width, so one mask selects
//    both), stored once per pass. g++ 12 vectorised neither that chain written on scalars (a
//    select of masks of two widths) nor eight masked stores per column (it could not prove the
//    rows apart from the kept row). argmax(a, 0) over (4096, 4096) float32: 3.7-3.9 ms a row
//    at a time, 2.5-2.7 eight rows at a time; on two threads (columns in chunks of 1,024: 4 KiB
//    of each row) 5.0-5.3 against 1.7-1.8 (docs/performance.md, "argmax along axis 0").
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <fusor/config.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/driver.hpp>    // block
#include <fusor/exec/evaluator.hpp> // leaf_evaluator
#include <fusor/exec/index_buffer.hpp>
#include <fusor/exec/scratch.hpp>
#include <fusor/plan/loop_plan.hpp> // lane_vector_bytes

namespace fusor::exec::detail {

// A block's accumulators `a` (value, index pairs) of `n` columns unpacked into this thread's
// scratch: `best` (values) and `at` (row numbers of type I, or indices).
template <class T, class I>
struct arg_rows_scratch {
    scratch pool; // allocates only the first time a size is reached
    T* best;
    I* at;
    explicit arg_rows_scratch(index_t n)
        : best(pool.make<T>(static_cast<std::size_t>(n))),
          at(pool.make<I>(static_cast<std::size_t>(n))) {}
};

// One row per pass: each input row compared with the row of values, masked stores where it
// wins. `idx_op`: the index operand (each row's index is its offset, still along the row).
template <class Impl, class Ev, class Acc>
void arg_rows_block(const loop_plan& p, Ev& ev, Acc* a0, const block& b) {
    using T = decltype(Acc::best);
    const std::size_t ops = p.operand_count, idx_op = ops - 1;
    index_buffer off(b.offsets, ops), row_step(ops);
    for (std::size_t k = 0; k < ops; ++k)
        row_step[k] = p.stride(k, 0);
    Acc* a = a0 + b.offsets[0];
    const index_t n = b.cols;
    arg_rows_scratch<T, std::int64_t> s(n);
    for (index_t j = 0; j < n; ++j) {
        s.best[j] = a[j].best;
        s.at[j] = a[j].index;
    }
    for (index_t r = 0; r < b.rows; ++r) {
        ev.bind(off.data());
        const auto i = static_cast<std::int64_t>(off[idx_op]);
        for (index_t j = 0; j < n; ++j) {
            const T v = ev.template get<true>(j);
            if (Impl::wins(v, s.best[j])) { // masked stores: after the first rows, rarely taken
                s.best[j] = v;
                s.at[j] = i;
            }
        }
        for (std::size_t k = 0; k < ops; ++k)
            off[k] += row_step[k];
    }
    for (index_t j = 0; j < n; ++j)
        a[j] = Acc{s.best[j], s.at[j]};
}

// Values of T in one register of the target, beside their row numbers (signed, T's width).
template <class T>
struct arg_lanes {
    using row_type = std::conditional_t<sizeof(T) == 4, std::int32_t, std::int64_t>;
    static constexpr index_t width = lane_vector_bytes / index_t{sizeof(T)};
    typedef T values __attribute__((vector_size(lane_vector_bytes)));
    typedef row_type rows __attribute__((vector_size(lane_vector_bytes)));
};

// R rows per pass (eight: arg_eight_rows) of a tensor or view whose rows are at unit stride
// (leaf evaluators `e.row[0..R)`), read in registers where they are; values of four or eight
// bytes. Row numbers count from the block's first row in chunks that fit row_type; each chunk's
// winners take their indices (offsets of the index operand) at its end.
template <class Impl, index_t R, class Rows, class Acc>
void arg_lanes_block(const loop_plan& p, Rows& e, Acc* a0, const block& b) {
    using T = decltype(Acc::best);
    using lanes = arg_lanes<T>;
    using I = typename lanes::row_type;
    using values = typename lanes::values;
    using row_numbers = typename lanes::rows;
    constexpr index_t L = lanes::width;
    static_assert(sizeof(T) == 4 || sizeof(T) == 8);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(e.row[0])>, leaf_evaluator<T>>);
    const std::size_t ops = p.operand_count, idx_op = ops - 1;
    index_buffer o(static_cast<std::size_t>(R) * ops), row_step(ops);
    const auto row = [&](index_t q) {
        return o.data() + static_cast<std::size_t>(q) * ops;
    };
    for (std::size_t k = 0; k < ops; ++k)
        row_step[k] = p.stride(k, 0);
    Acc* a = a0 + b.offsets[0];
    const index_t n = b.cols;
    arg_rows_scratch<T, I> s(n);
    for (index_t j = 0; j < n; ++j)
        s.best[j] = a[j].best;
    // Chunks of rows whose numbers fit I (every row at once for eight-byte values).
    constexpr index_t chunk = sizeof(I) == 4 ? index_t{1} << 30 : index_t{1} << 62;
    for (index_t first = 0; first < b.rows; first += chunk) {
        const index_t rows = b.rows - first < chunk ? b.rows - first : chunk;
        for (index_t q = 0; q < R; ++q)
            for (std::size_t k = 0; k < ops; ++k)
                row(q)[k] = b.offsets[k] + (first + q) * row_step[k];
        const index_t first_index = row(0)[idx_op];
        for (index_t j = 0; j < n; ++j)
            s.at[j] = -1; // no winner in this chunk yet
        index_t r = 0;
        for (; r + R <= rows; r += R) {
            const T* in[R];
            for (index_t q = 0; q < R; ++q) {
                e.row[q].bind(row(q));
                in[q] = e.row[q].cur;
            }
            index_t j = 0;
            for (; j + L <= n; j += L) {
                values v;
                row_numbers at;
                std::memcpy(&v, s.best + j, sizeof v);
                std::memcpy(&at, s.at + j, sizeof at);
                for (index_t q = 0; q < R; ++q) {
                    values x;
                    std::memcpy(&x, in[q] + j, sizeof x);
                    // Impl::wins lane by lane: not worse, and the kept value not NaN.
                    const auto wins = (Impl::order > 0 ? ~(x <= v) : ~(x >= v)) & (v == v);
                    v = wins ? x : v;
                    at = wins ? row_numbers{} + static_cast<I>(r + q) : at;
                }
                std::memcpy(s.best + j, &v, sizeof v);
                std::memcpy(s.at + j, &at, sizeof at);
            }
            for (; j < n; ++j) // the columns left over, an element at a time
                for (index_t q = 0; q < R; ++q)
                    if (Impl::wins(in[q][j], s.best[j])) {
                        s.best[j] = in[q][j];
                        s.at[j] = static_cast<I>(r + q);
                    }
            for (index_t q = 0; q < R; ++q)
                for (std::size_t k = 0; k < ops; ++k)
                    row(q)[k] += R * row_step[k];
        }
        for (index_t q = 0; r < rows; ++r, ++q) { // the rows left over, one at a time
            e.row[q].bind(row(q));
            for (index_t j = 0; j < n; ++j) {
                const T x = e.row[q].template get<true>(j);
                if (Impl::wins(x, s.best[j])) {
                    s.best[j] = x;
                    s.at[j] = static_cast<I>(r);
                }
            }
        }
        for (index_t j = 0; j < n; ++j)
            if (s.at[j] >= 0)
                a[j].index = static_cast<std::int64_t>(first_index + s.at[j] * row_step[idx_op]);
    }
    for (index_t j = 0; j < n; ++j)
        a[j].best = s.best[j];
}

} // namespace fusor::exec::detail
