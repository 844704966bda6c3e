// fusor/exec/execute.hpp: EXECUTE. The loop: an odometer over the outer loop levels that
// advances every operand by its precomputed stride (no index multiplication per element),
// and one call to the inner kernel per innermost loop.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <fusor/config.hpp>
#include <fusor/core/convert.hpp>
#include <fusor/core/error.hpp>
#include <fusor/exec/evaluator.hpp>
#include <fusor/exec/minmax_kernel.hpp>
#include <fusor/exec/single_element.hpp>
#include <fusor/exec/threads.hpp>
#include <fusor/plan/kernel_choice.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/reduce/reduction.hpp>
#include <fusor/tensor/tensor.hpp>

#ifndef FUSOR_TRACE_KERNEL
#define FUSOR_TRACE_KERNEL(plan, name) ((void)0)
#endif

namespace fusor::exec {

/// THE loop, over the outermost iterations [begin, end) (all of them: 0 to `extents[0]`).
/// Calls `inner(offsets, n)` once per innermost loop, where `offsets[k]` is operand k's
/// element offset at the start of that loop and `n` its extent. With a single level the range
/// is a piece of the innermost loop itself. A 0-d plan calls it once with n = 1; an empty plan
/// never calls it.
///
/// Test hooks: a translation unit that defines `FUSOR_TRACE_INNER_LOOP(plan, offsets, n)` before
/// including fusor sees every inner loop as it runs, and one that defines
/// `FUSOR_TRACE_KERNEL(plan, name)` sees which kernel each loop ran (tests/explain proves with
/// them that the loops and kernels explain prints are the ones that run). Without them there
/// is no cost at all.
template <class Inner>
void for_each_inner_loop(const loop_plan& p, index_t begin, index_t end, Inner&& inner) {
#ifdef FUSOR_TRACE_INNER_LOOP
    auto call = [&](const index_t* offsets, index_t n) {
        FUSOR_TRACE_INNER_LOOP(p, offsets, n);
        inner(offsets, n);
    };
#else
    auto& call = inner;
#endif
    if (p.empty || begin >= end)
        return;
    const std::size_t ops = p.operand_count;
    const std::size_t levels = p.extents.size();
    shape_t offsets(ops, 0); // inline storage: no allocation per evaluation
    if (levels == 0) {
        call(offsets.data(), index_t{1});
        return;
    }
    for (std::size_t k = 0; k < ops; ++k)
        offsets[k] = begin * p.stride(k, 0);
    if (levels == 1) {
        call(offsets.data(), end - begin);
        return;
    }
    const index_t n = p.extents[levels - 1];
    shape_t counter(levels, 0);
    counter[0] = begin;
    for (;;) {
        call(offsets.data(), n);
        // Odometer over levels [0, levels - 1): carry from the innermost outer level.
        std::size_t d = levels - 1;
        for (;;) {
            --d;
            for (std::size_t k = 0; k < ops; ++k)
                offsets[k] += p.operands[k].strides[d];
            if (++counter[d] < (d == 0 ? end : p.extents[d]))
                break;
            if (d == 0)
                return;
            counter[d] = 0;
            for (std::size_t k = 0; k < ops; ++k)
                offsets[k] -= p.operands[k].strides[d] * p.extents[d];
        }
    }
}

/// The whole loop nest on the calling thread.
template <class Inner>
void for_each_inner_loop(const loop_plan& p, Inner&& inner) {
    for_each_inner_loop(p, 0, p.extents.empty() ? 1 : p.extents[0], inner);
}

/// The whole loop nest, split across `p.threads` threads in chunks of `p.chunk` iterations of
/// the outermost loop (or, for a reduction with `p.split_inner`, of the innermost loop) when
/// the plan says so. `kernel(ev, offsets, n)` runs one inner loop with an evaluator; each extra
/// thread works with its own copy of `ev` (own splat and block buffers). `Reduction`: the plan
/// may split the innermost loop (only reductions' plans do; the elementwise callers skip it).
template <bool Reduction = false, class Ev, class Kernel>
void run_loop_nest(const loop_plan& p, Ev& ev, Kernel&& kernel) {
    // One body for both paths, so the kernel is instantiated (and, being FUSOR_INLINE, inlined)
    // once per expression, not once for the calling thread and once for the workers.
    auto range = [&p, &kernel](Ev& e, index_t begin, index_t end) {
        auto inner = [&](const index_t* off, index_t n) {
            kernel(e, off, n);
        };
        if constexpr (Reduction) {
            if (p.split_inner) { // every inner loop, cut to [begin, end)
                const std::size_t last = p.extents.size() - 1;
                shape_t shifted(p.operands.size());
                for_each_inner_loop(p, [&](const index_t* off, index_t) {
                    for (std::size_t k = 0; k < shifted.size(); ++k)
                        shifted[k] = off[k] + begin * p.operands[k].strides[last];
                    inner(shifted.data(), end - begin);
                });
                return;
            }
        }
        for_each_inner_loop(p, begin, end, inner);
    };
    const index_t outer = p.extents.empty() ? 1 : p.extents[0];
    if (!threads_enabled || p.threads <= 1 || p.chunk == 0) {
        range(ev, 0, outer);
        return;
    }
    if constexpr (threads_enabled)
        parallel_chunks(
            p.threads,
            Reduction && p.split_inner ? p.extents.back() : outer,
            p.chunk,
            [&ev] {
                Ev local = ev;
                local.own_buffers();
                return local;
            },
            range);
}

namespace detail {
// One inner loop of the contiguous kernel: `n` elements, every operand at unit stride from its
// offset in `off` (the plain loop the compiler vectorises).
template <class D, class Ev>
FUSOR_INLINE void contiguous_inner_loop(D* out0, Ev& ev, const index_t* off, index_t n) {
    ev.bind(off);
    D* out = out0 + off[0];
    for (index_t i = 0; i < n; ++i)
        out[i] = convert<D>(ev.template get<true>(i));
}

// One inner loop of the blocked kernel: blocks of `broadcast_block`, each the contiguous loop.
// Still operands read their splat buffer, moving ones their elements (MNN BinaryOp's stride-0
// broadcast); vectorised math functions first compute their block (vector_math.hpp).
template <class D, class Ev>
FUSOR_INLINE void blocked_inner_loop(D* out0, Ev& ev, const index_t* off, index_t n) {
    for (index_t start = 0; start < n; start += broadcast_block) {
        const index_t len = std::min(broadcast_block, n - start);
        ev.bind_block(off, start, len);
        D* out = out0 + off[0] + start;
        for (index_t i = 0; i < len; ++i)
            out[i] = convert<D>(ev.template get<true>(i));
    }
}

// The blocked kernel over the whole loop nest.
template <class D, class Ev>
void run_blocked(const loop_plan& p, D* out0, Ev& ev) {
    run_loop_nest(p, ev, [out0](Ev& ev, const index_t* off, index_t n) {
        blocked_inner_loop(out0, ev, off, n);
    });
}

// What the tile walker calls: `stage(ctx, offsets, rows, cols)` once per tile, `row(ctx,
// offsets, n)` once per row of it. Plain function pointers: the walker is compiled once, not
// once per expression type.
struct tile_callbacks {
    void* context;
    void (*stage)(void*, const index_t*, index_t, index_t);
    void (*row)(void*, const index_t*, index_t);
};

// The tiled kernel's loops: the two innermost levels in tiles of tile_rows x tile_cols; the
// levels outside them an odometer, the outermost limited to [begin, end) (with two levels the
// range limits the tile rows instead). Operands off unit stride are staged per tile and read
// at offset r * tile_cols of their buffer in row r.
inline void walk_tiles(const loop_plan& p, index_t begin, index_t end, const tile_callbacks& cb) {
    const std::size_t L = p.extents.size(), ops = p.operands.size();
    const index_t rows = p.extents[L - 2], cols = p.extents[L - 1];
    boost::container::small_vector<char, 8> staged(ops, 0);
    for (std::size_t k = 1; k < ops; ++k)
        staged[k] =
            p.operands[k].kind != operand_plan::role::scalar && p.operands[k].strides[L - 1] != 1;
    shape_t base(ops), tile(ops), row(ops);
    shape_t counter(L - 1, 0);
    const index_t row_begin = L == 2 ? begin : 0, row_end = L == 2 ? end : rows;
    if (L > 2)
        counter[0] = begin;
    for (std::size_t k = 0; k < ops; ++k)
        base[k] = L > 2 ? begin * p.operands[k].strides[0] : 0;
    for (;;) {
        for (index_t r0 = row_begin; r0 < row_end; r0 += tile_rows) {
            const index_t rn = std::min(tile_rows, row_end - r0);
            for (index_t c0 = 0; c0 < cols; c0 += tile_cols) {
                const index_t cn = std::min(tile_cols, cols - c0);
                for (std::size_t k = 0; k < ops; ++k)
                    tile[k] = base[k] + r0 * p.operands[k].strides[L - 2]
                              + c0 * p.operands[k].strides[L - 1];
                cb.stage(cb.context, tile.data(), rn, cn);
                for (index_t r = 0; r < rn; ++r) {
                    for (std::size_t k = 0; k < ops; ++k)
                        row[k] =
                            staged[k] ? r * tile_cols : tile[k] + r * p.operands[k].strides[L - 2];
                    cb.row(cb.context, row.data(), cn);
                }
            }
        }
        if (L == 2)
            return;
        std::size_t d = L - 2; // carry over the outer levels [0, L - 2)
        for (;;) {
            --d;
            for (std::size_t k = 0; k < ops; ++k)
                base[k] += p.operands[k].strides[d];
            if (++counter[d] < (d == 0 ? end : p.extents[d]))
                break;
            if (d == 0)
                return;
            counter[d] = 0;
            for (std::size_t k = 0; k < ops; ++k)
                base[k] -= p.operands[k].strides[d] * p.extents[d];
        }
    }
}

// The tiled kernel: walk_tiles with the evaluator's `stage` and `row_kernel` (the contiguous
// kernel) per tile row; split across threads like run_loop_nest.
template <class Ev, class RowKernel>
void run_tiled(const loop_plan& p, Ev& ev, RowKernel& row_kernel) {
    auto tiles = [&p, &row_kernel](Ev& ev, index_t begin, index_t end) {
        struct context {
            Ev* ev;
            RowKernel* kernel;
        } ctx{&ev, &row_kernel};
        const tile_callbacks cb{&ctx,
                                [](void* c, const index_t* off, index_t rows, index_t cols) {
                                    static_cast<context*>(c)->ev->stage(off, rows, cols);
                                },
                                [](void* c, const index_t* off, index_t n) {
                                    auto* x = static_cast<context*>(c);
                                    (*x->kernel)(*x->ev, off, n);
                                }};
        walk_tiles(p, begin, end, cb);
    };
    const index_t outer = p.extents[0];
    if (!threads_enabled || p.threads <= 1 || p.chunk == 0) {
        tiles(ev, 0, outer);
        return;
    }
    if constexpr (threads_enabled)
        parallel_chunks(
            p.threads,
            outer,
            p.chunk,
            [&ev] {
                Ev local = ev;
                local.own_buffers();
                return local;
            },
            tiles);
}

template <class D, class Ev>
void run_strided(const loop_plan& p, D* out0, Ev& ev) {
    const index_t so = p.operands[0].strides.empty() ? 0 : p.operands[0].strides.back();
    run_loop_nest(p, ev, [out0, so](Ev& ev, const index_t* off, index_t n) {
        ev.bind(off);
        D* out = out0 + off[0];
        for (index_t i = 0; i < n; ++i)
            out[i * so] = convert<D>(ev.template get<false>(i));
    });
}
} // namespace detail

namespace detail {
// The contiguous kernel with tensor leaf I of `ev` held in a register.
template <int I, class Ev, class Kernel>
void run_held(const loop_plan& p, const Ev& ev, Kernel& kernel) {
    auto held = hold_leaf<I>(ev);
    run_loop_nest(p, held, kernel);
}

// The depth-first ordinal, among the tensor operands, of operand `k` (a flat tree's operands
// after the destination are its leaves and scalars, depth-first).
inline int tensor_ordinal(const loop_plan& p, int k) {
    int ordinal = 0;
    for (int j = 1; j < k; ++j) {
        const auto role = p.operands[static_cast<std::size_t>(j)].kind;
        ordinal += role == operand_plan::role::tensor || role == operand_plan::role::view;
    }
    return ordinal;
}
} // namespace detail

/// Runs an element-wise plan: `dest_base` is operand 0's data pointer; `cache` holds the
/// temporaries already computed in this evaluation. The kernel is the plan's
/// (plan/kernel_choice.hpp): blocked vector math, contiguous, broadcast (a held operand, or
/// splatted blocks), tiled or strided.
template <class D, class E>
void execute_elementwise(const loop_plan& p, D* dest_base, const E& e, temporary_cache& cache) {
    D* const out0 = dest_base + p.offset(0);
    if constexpr (has_vector_math<E>) {
        if (!p.vector_functions.empty()) {
            FUSOR_TRACE_KERNEL(p, "blocked");
            auto ev = evaluator_builder<true>{&p, cache}.build(e);
            detail::run_blocked(p, out0, ev);
            return;
        }
    }
    auto ev = evaluator_builder<false>{&p, cache}.build(e);
    auto contiguous = [out0](auto& ev, const index_t* off, index_t n) {
        detail::contiguous_inner_loop(out0, ev, off, n);
    };
    switch (p.kernel) {
    case inner_kernel::contiguous:
        FUSOR_TRACE_KERNEL(p, "contiguous");
        run_loop_nest(p, ev, contiguous);
        return;
    case inner_kernel::broadcast:
        if constexpr (planning::flat_tree<E> && planning::tensor_leaves<E> >= 1
                      && planning::tensor_leaves<E> <= single_element_max_leaves) {
            if (p.held_operand >= 0) {
                FUSOR_TRACE_KERNEL(p, "held");
                const int held = detail::tensor_ordinal(p, p.held_operand);
                [&]<int... I>(std::integer_sequence<int, I...>) {
                    (void)((held == I && (detail::run_held<I>(p, ev, contiguous), true)) || ...);
                }
                (std::make_integer_sequence<int, planning::tensor_leaves<E>>{});
                return;
            }
        }
        FUSOR_TRACE_KERNEL(p, "broadcast");
        detail::run_blocked(p, out0, ev);
        return;
    case inner_kernel::tiled:
        FUSOR_TRACE_KERNEL(p, "tiled");
        detail::run_tiled(p, ev, contiguous);
        return;
    case inner_kernel::strided:
        FUSOR_TRACE_KERNEL(p, "strided");
        detail::run_strided(p, out0, ev);
        return;
    }
}

/// As above, for an evaluation of its own.
template <class D, class E>
void execute_elementwise(const loop_plan& p, D* dest_base, const E& e) {
    temporary_cache cache;
    execute_elementwise(p, dest_base, e, cache);
}

template <class E>
tensor<typename E::value_type>
evaluate_elementwise(const E& e, const loop_plan& p, temporary_cache& cache) {
    tensor<typename E::value_type> t(e.shape(), uninitialized);
    execute_elementwise(p, t.data(), e, cache);
    return t;
}

namespace detail {

// NumPy's pairwise summation (numpy/core/src/umath/loops_utils.h.src): below 8 terms a plain
// loop; up to 128, eight interleaved partial sums (independent chains the CPU overlaps and
// the compiler can vectorise) combined as a balanced tree; above, split in halves at a
// multiple of 8 and recurse. Error O(eps log n) instead of a plain loop's O(eps n).
template <class Impl, bool Contiguous, class Ev>
double pairwise_terms(const Ev& ev, index_t begin, index_t n) {
    if (n < 8) {
        double s = 0.0;
        for (index_t i = 0; i < n; ++i)
            s += Impl::term(ev.template get<Contiguous>(begin + i));
        return s;
    }
    if (n <= 128) {
        double r[8];
        for (index_t j = 0; j < 8; ++j)
            r[j] = Impl::term(ev.template get<Contiguous>(begin + j));
        index_t i = 8;
        for (; i + 8 <= n; i += 8)
            for (index_t j = 0; j < 8; ++j)
                r[j] += Impl::term(ev.template get<Contiguous>(begin + i + j));
        double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i)
            s += Impl::term(ev.template get<Contiguous>(begin + i));
        return s;
    }
    index_t half = n / 2;
    half -= half % 8;
    return pairwise_terms<Impl, Contiguous>(ev, begin, half)
           + pairwise_terms<Impl, Contiguous>(ev, begin + half, n - half);
}

// The register path of a compensated (float64) sum: eight interleaved lanes, each a running
// sum and the running total of its rounding errors, computed exactly with Knuth's branch-free
// TwoSum (t = s + x; the error is (s - (t - z)) + (x - z) with z = t - s). Kept as two plain
// arrays so the compiler vectorises the eight lanes; merged at the end with the same
// compensated add (reducers::detail::add). Every lane keeps its own rounding error, so the result
// is within ~2 eps of the exact sum (plus an n eps^2 sum|x| term) however many terms there are.
template <class Impl, bool Contiguous, class Ev>
typename Impl::acc_type compensated_terms(const Ev& ev, index_t n) {
    double s[8] = {}, c[8] = {};
    index_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (index_t j = 0; j < 8; ++j) {
            const double x = Impl::term(ev.template get<Contiguous>(i + j));
            const double t = s[j] + x;
            const double z = t - s[j];
            c[j] += (s[j] - (t - z)) + (x - z);
            s[j] = t;
        }
    typename Impl::acc_type acc{};
    for (index_t j = 0; j < 8; ++j) {
        acc = Impl::absorb(acc, s[j]);
        if (s[j] - s[j] == 0.0) // an inf or NaN lane's error term is NaN (inf - inf): drop it
            acc = Impl::absorb(acc, c[j]);
    }
    for (; i < n; ++i)
        acc = Impl::absorb(acc, Impl::term(ev.template get<Contiguous>(i)));
    return acc;
}

// One accumulator, in index order: arg-reductions (their (value, index) pairs do not
// vectorise, and one predictable branch per element beats eight lanes of them) and rows too
// short for lanes.
template <class Impl, bool Contiguous, class Ev>
typename Impl::acc_type sequential_reduce(const Ev& ev, index_t n, index_t i0, index_t si) {
    typename Impl::acc_type reg = Impl::identity();
    for (index_t i = 0; i < n; ++i)
        reg = Impl::step(reg, ev.template get<Contiguous>(i), i0 + i * si);
    return reg;
}

// Eight interleaved accumulators (lane j takes elements j, j + 8, ...), merged in lane order.
// One accumulator would chain every step on the previous one (a compare-and-select per element
// for max: latency-bound, ~10x slower than memory); eight independent chains run at the speed
// of the loads. `merge` is associative for every reducer, so the result is the sequential one
// (up to float rounding order in prod and logsumexp, and the sign of a zero max/min).
template <class Impl, bool Contiguous, class Ev>
typename Impl::acc_type lane_reduce(const Ev& ev, index_t n, index_t i0, index_t si) {
    using acc_t = typename Impl::acc_type;
    acc_t lane[8];
    for (index_t j = 0; j < 8; ++j)
        lane[j] = Impl::identity();
    index_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (index_t j = 0; j < 8; ++j)
            lane[j] = Impl::step(lane[j], ev.template get<Contiguous>(i + j), i0 + (i + j) * si);
    for (; i < n; ++i)
        lane[0] = Impl::step(lane[0], ev.template get<Contiguous>(i), i0 + i * si);
    for (index_t j = 1; j < 8; ++j)
        lane[0] = Impl::merge(lane[0], lane[j]);
    return lane[0];
}

// Two rows per pass (unroll-and-jam, which g++ -O3 applies to the hand-written loop): a
// reduction whose loop nest is [reduced, kept], at unit stride, adds rows r and r + 1 into
// the row of accumulators in one pass, (acc + x_r) + x_{r+1}: the order of one row at a time,
// so the same bits, with half the loads and stores of the accumulators. Not for
// arg-reductions (their steps take the index); the planner decides (reduce_kernel::two_rows).

template <class Impl, class Ev, class Acc>
void run_jammed_rows(const loop_plan& p, Ev& ev, Acc* a0) {
    const std::size_t ops = p.operands.size();
    const index_t rows = p.extents[0];
    // Columns [c0, c1) of every row, with two evaluators bound to consecutive rows.
    auto columns = [&p, ops, rows, a0](Ev& first, Ev& second, index_t c0, index_t c1) {
        shape_t o1(ops), o2(ops);
        const index_t w = c1 - c0;
        index_t r = 0;
        for (; r + 1 < rows; r += 2) {
            for (std::size_t k = 0; k < ops; ++k) {
                o1[k] = r * p.operands[k].strides[0] + c0 * p.operands[k].strides[1];
                o2[k] = o1[k] + p.operands[k].strides[0];
            }
#ifdef FUSOR_TRACE_INNER_LOOP
            FUSOR_TRACE_INNER_LOOP(p, o1.data(), w);
            FUSOR_TRACE_INNER_LOOP(p, o2.data(), w);
#endif
            first.bind(o1.data());
            second.bind(o2.data());
            Acc* a = a0 + o1[0];
            for (index_t i = 0; i < w; ++i)
                a[i] = Impl::step(Impl::step(a[i], first.template get<true>(i), 0),
                                  second.template get<true>(i),
                                  0);
        }
        if (r < rows) { // an odd row out
            for (std::size_t k = 0; k < ops; ++k)
                o1[k] = r * p.operands[k].strides[0] + c0 * p.operands[k].strides[1];
#ifdef FUSOR_TRACE_INNER_LOOP
            FUSOR_TRACE_INNER_LOOP(p, o1.data(), w);
#endif
            first.bind(o1.data());
            Acc* a = a0 + o1[0];
            for (index_t i = 0; i < w; ++i)
                a[i] = Impl::step(a[i], first.template get<true>(i), 0);
        }
    };
    struct pair {
        Ev first, second;
    };
    if (threads_enabled && p.threads > 1 && p.split_inner && p.chunk > 0) {
        parallel_chunks(
            p.threads,
            p.extents[1],
            p.chunk,
            [&ev] {
                pair local{ev, ev};
                local.first.own_buffers();
                local.second.own_buffers();
                return local;
            },
            [&columns](pair& local, index_t c0, index_t c1) {
                columns(local.first, local.second, c0, c1);
            });
        return;
    }
    Ev second = ev;
    second.own_buffers();
    columns(ev, second, 0, p.extents[1]);
}

template <class R, class C>
void check_reducible(const reduction<R, C>& r) {
    using impl = typename reduction<R, C>::impl;
    if constexpr (!impl::has_identity) {
        if (r.size() > 0 && r.count() == 0) {
            const std::string what =
                R::single_axis ? "attempt to get " + std::string(R::name) + " of an empty sequence"
                               : "zero-size array to reduction operation "
                                     + std::string(R::numpy_name) + " which has no identity";
            throw value_error(what + " (reducing axes " + to_string(r.axes) + " of shape "
                              + to_string(r.child.shape()) + ")");
        }
    }
}
} // namespace detail

/// Runs a reduction plan: accumulates into a contiguous buffer over the result (operand 0),
/// then finalizes into `out` (any strided view of the result's shape). When the innermost
/// loop reduces (accumulator stride 0) it accumulates in registers (for additive reducers:
/// pairwise in double, or compensated lanes for float64); otherwise it updates a row of
/// accumulators, one per output element, element-wise.
template <class R, class C, class D>
void execute_reduction(const reduction<R, C>& r,
                       const loop_plan& p,
                       const tensor_view<D>& out,
                       temporary_cache& cache) {
    using impl = typename reduction<R, C>::impl;
    using acc_t = typename impl::acc_type;
    detail::check_reducible(r);
    // Not std::vector: all/any accumulate bool, and vector<bool> has no data().
    const auto acc = std::make_unique_for_overwrite<acc_t[]>(static_cast<std::size_t>(r.size()));
    std::fill(acc.get(), acc.get() + r.size(), impl::identity());
    auto ev = evaluator_builder<false>{&p, cache}.build(r.child);
    const std::size_t levels = p.extents.size();
    const index_t sa = levels ? p.operands[0].strides[levels - 1] : 0;
    const std::size_t idx_op = p.operands.size() - 1; // the index operand, when there is one
    const index_t si = levels ? p.operands[idx_op].strides[levels - 1] : 0;
    acc_t* const a0 = acc.get();

    using value_t = typename C::value_type;
    // One inner loop; which accumulation it runs is the plan's (plan/kernel_choice.hpp).
    auto run = [&]<bool Contiguous>() {
        run_loop_nest<true>(p, ev, [&](auto& ev, const index_t* off, index_t n) {
            ev.bind(off);
            acc_t* a = a0 + off[0];
            const index_t i0 = impl::needs_index ? off[idx_op] : 0;
            switch (p.reduction) {
            case reduce_kernel::pairwise:
            case reduce_kernel::compensated:
                if constexpr (planning::pairwise_reducer<impl>) {
                    if constexpr (std::is_same_v<acc_t, reducers::detail::compensated_sum>)
                        *a = impl::merge(*a, detail::compensated_terms<impl, Contiguous>(ev, n));
                    else
                        *a = impl::absorb(*a, detail::pairwise_terms<impl, Contiguous>(ev, 0, n));
                }
                return;
            case reduce_kernel::minmax_simd:
                if constexpr (Contiguous && planning::vector_minmax<impl, value_t>)
                    *a = impl::merge(*a, detail::vector_minmax_reduce<impl, value_t>(ev, n, i0, si));
                return;
            case reduce_kernel::sequential:
                *a = impl::merge(*a, detail::sequential_reduce<impl, Contiguous>(ev, n, i0, si));
                return;
            case reduce_kernel::lanes:
                *a = impl::merge(*a, detail::lane_reduce<impl, Contiguous>(ev, n, i0, si));
                return;
            default: // a row of accumulators
                if constexpr (Contiguous) { // the accumulator row has unit stride here
                    for (index_t i = 0; i < n; ++i)
                        a[i] = impl::step(a[i], ev.template get<true>(i), i0 + i * si);
                } else {
                    for (index_t i = 0; i < n; ++i)
                        a[i * sa] = impl::step(a[i * sa], ev.template get<false>(i), i0 + i * si);
                }
                return;
            }
        });
    };
    FUSOR_TRACE_KERNEL(p, reduce_kernel_name(p.reduction));
    if (p.reduction == reduce_kernel::two_rows) {
        if constexpr (!impl::needs_index)
            detail::run_jammed_rows<impl>(p, ev, a0);
    } else if (p.kernel == inner_kernel::contiguous) {
        run.template operator()<true>();
    } else {
        run.template operator()<false>();
    }

    const index_t count = r.count();
    std::size_t k = 0;
    for (auto& o : out)
        o = convert<D>(impl::finalize(acc[k++], count));
}

/// As above, for a reduction at the root of an evaluation (its own temporaries).
template <class R, class C, class D>
void execute_reduction(const reduction<R, C>& r, const loop_plan& p, const tensor_view<D>& out) {
    temporary_cache cache;
    execute_reduction(r, p, out, cache);
}

template <class R, class C>
tensor<typename reduction<R, C>::value_type>
evaluate_reduction(const reduction<R, C>& r, const loop_plan& p, temporary_cache& cache) {
    tensor<typename reduction<R, C>::value_type> t(r.shape(), uninitialized);
    execute_reduction(r, p, t.view(), cache);
    return t;
}

} // namespace fusor::exec
