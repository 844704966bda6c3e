// fusor/exec/execute.hpp: EXECUTE. The loop: an odometer over the outer loop levels that
// advances every operand by its precomputed stride (no index multiplication per element),
// and one call to the inner kernel per innermost loop.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/core/convert.hpp>
#include <fusor/core/error.hpp>
#include <fusor/exec/evaluator.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/reduce/reduction.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor::exec {

/// THE loop. Calls `inner(offsets, n)` once per innermost loop, where `offsets[k]` is operand
/// k's element offset at the start of that loop and `n` its extent. A 0-d plan calls it once
/// with n = 1; an empty plan never calls it.
///
/// Test hook: a translation unit that defines `FUSOR_TRACE_INNER_LOOP(plan, offsets, n)` before
/// including fusor sees every inner loop as it runs (tests/explain proves with it that the
/// loops explain prints are the loops that run). Without it there is no cost at all.
template <class Inner>
void for_each_inner_loop(const loop_plan& p, Inner&& inner) {
#ifdef FUSOR_TRACE_INNER_LOOP
    auto call = [&](const index_t* offsets, index_t n) {
        FUSOR_TRACE_INNER_LOOP(p, offsets, n);
        inner(offsets, n);
    };
#else
    auto& call = inner;
#endif
    if (p.empty)
        return;
    const std::size_t ops = p.operands.size();
    const std::size_t levels = p.extents.size();
    std::vector<index_t> offsets(ops, 0);
    if (levels == 0) {
        call(offsets.data(), index_t{1});
        return;
    }
    const index_t n = p.extents[levels - 1];
    std::vector<index_t> counter(levels, 0);
    for (;;) {
        call(offsets.data(), n);
        // Odometer over levels [0, levels - 1): carry from the innermost outer level.
        std::size_t d = levels - 1;
        for (;;) {
            if (d == 0)
                return;
            --d;
            for (std::size_t k = 0; k < ops; ++k)
                offsets[k] += p.operands[k].strides[d];
            if (++counter[d] < p.extents[d])
                break;
            counter[d] = 0;
            for (std::size_t k = 0; k < ops; ++k)
                offsets[k] -= p.operands[k].strides[d] * p.extents[d];
        }
    }
}

/// Runs an element-wise plan: `dest_base` is operand 0's data pointer; `cache` holds the
/// temporaries already computed in this evaluation.
template <class D, class E>
void execute_elementwise(const loop_plan& p, D* dest_base, const E& e, temporary_cache& cache) {
    evaluator_builder builder{p, cache};
    auto ev = builder.build(e);
    D* const out0 = dest_base + p.operands[0].offset;
    const index_t so = p.operands[0].strides.empty() ? 0 : p.operands[0].strides.back();
    if (p.kernel == inner_kernel::contiguous) {
        for_each_inner_loop(p, [&](const index_t* off, index_t n) {
            ev.bind(off);
            D* out = out0 + off[0];
            for (index_t i = 0; i < n; ++i)
                out[i] = convert<D>(ev.template get<true>(i));
        });
    } else if (p.kernel == inner_kernel::broadcast) {
        // Blocks of the inner loop, each the contiguous kernel: still operands read their
        // splat buffer, moving ones their elements (MNN BinaryOp's stride-0 broadcast).
        for_each_inner_loop(p, [&](const index_t* off, index_t n) {
            for (index_t start = 0; start < n; start += broadcast_block) {
                const index_t len = std::min(broadcast_block, n - start);
                ev.bind_block(off, start);
                D* out = out0 + off[0] + start;
                for (index_t i = 0; i < len; ++i)
                    out[i] = convert<D>(ev.template get<true>(i));
            }
        });
    } else {
        for_each_inner_loop(p, [&](const index_t* off, index_t n) {
            ev.bind(off);
            D* out = out0 + off[0];
            for (index_t i = 0; i < n; ++i)
                out[i * so] = convert<D>(ev.template get<false>(i));
        });
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
template <class Impl>
concept pairwise_reducer = requires {
    requires Impl::pairwise;
};

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

// The register path of every other reducer: eight interleaved accumulators (lane j takes
// elements j, j + 8, ...), merged in lane order. One accumulator would chain every step on
// the previous one (a compare-and-select per element for max: latency-bound, ~10x slower than
// memory); eight independent chains run at the speed of the loads. `merge` is associative for
// every reducer, and arg-reductions break ties by index, so the result is the sequential one
// (up to float rounding order in prod and logsumexp, and the sign of a zero max/min).
template <class Impl, bool Contiguous, class Ev>
typename Impl::acc_type lane_reduce(const Ev& ev, index_t n, index_t i0, index_t si) {
    using acc_t = typename Impl::acc_type;
    // Arg-reductions stay sequential: their (value, index) pairs do not vectorise, and one
    // predictable branch per element beats eight lanes of them (measured: bench_reduce W7).
    if (Impl::needs_index || n < 16) {
        acc_t reg = Impl::identity();
        for (index_t i = 0; i < n; ++i)
            reg = Impl::step(reg, ev.template get<Contiguous>(i), i0 + i * si);
        return reg;
    }
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
    evaluator_builder builder{p, cache};
    auto ev = builder.build(r.child);
    const std::size_t levels = p.extents.size();
    const index_t sa = levels ? p.operands[0].strides[levels - 1] : 0;
    const std::size_t idx_op = p.operands.size() - 1; // the index operand, when there is one
    const index_t si = levels ? p.operands[idx_op].strides[levels - 1] : 0;
    acc_t* const a0 = acc.get();

    auto run = [&]<bool Contiguous>() {
        for_each_inner_loop(p, [&](const index_t* off, index_t n) {
            ev.bind(off);
            acc_t* a = a0 + off[0];
            const index_t i0 = impl::needs_index ? off[idx_op] : 0;
            if constexpr (detail::pairwise_reducer<impl>) {
                if (sa == 0) {
                    if constexpr (std::is_same_v<acc_t, reducers::detail::compensated_sum>)
                        *a = impl::merge(*a, detail::compensated_terms<impl, Contiguous>(ev, n));
                    else
                        *a = impl::absorb(*a, detail::pairwise_terms<impl, Contiguous>(ev, 0, n));
                    return;
                }
            }
            if (sa == 0) {
                *a = impl::merge(*a, detail::lane_reduce<impl, Contiguous>(ev, n, i0, si));
            } else if constexpr (Contiguous) { // the accumulator row has unit stride here
                for (index_t i = 0; i < n; ++i)
                    a[i] = impl::step(a[i], ev.template get<true>(i), i0 + i * si);
            } else {
                for (index_t i = 0; i < n; ++i)
                    a[i * sa] = impl::step(a[i * sa], ev.template get<false>(i), i0 + i * si);
            }
        });
    };
    if (p.kernel == inner_kernel::contiguous)
        run.template operator()<true>();
    else
        run.template operator()<false>();

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
