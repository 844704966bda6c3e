// fusor/exec/register_sums.hpp: the lanes of a float32 sum, a 512-bit register of terms at a
// time (reduce_kernel::pairwise_simd). The plain pairwise loop (exec/execute.hpp,
// pairwise_block_sum) adds each float32 term to a float64 lane; compiled for 256-bit vectors
// (g++'s default even with AVX-512), each conversion takes four floats and the loop runs at
// the converter's speed. Here the evaluator's register form (exec/evaluator.hpp, get_register)
// gives 16 floats, converted as two halves of 8 doubles: half the conversions, one per 8 terms.
#pragma once

#include <fusor/config.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/evaluator.hpp> // register_read, holds_twins
#include <fusor/ops/vector_forms.hpp>

#if FUSOR_SUM_IN_REGISTERS
#include <immintrin.h>
#endif

namespace fusor::exec::detail {

#if FUSOR_SUM_IN_REGISTERS
// Conversion zero-masked with every lane kept, and halves as shuffles: the plain intrinsics
// (_mm512_cvtps_pd, _mm512_extractf64x4_pd, the casts and permutes built on them) pass an
// undefined vector through, which g++ 12 reports under -Wmaybe-uninitialized.
FUSOR_INLINE __m512d to_float64(__m256 x) {
    return _mm512_maskz_cvtps_pd(__mmask8(0xff), x);
}
FUSOR_INLINE __m256d lower_half(__m512d x) {
    return __builtin_shufflevector(x, x, 0, 1, 2, 3);
}
FUSOR_INLINE __m256d upper_half(__m512d x) {
    return __builtin_shufflevector(x, x, 4, 5, 6, 7);
}

// Half `H` (lanes [8H, 8H + 8)) of a register of 16 floats, as 8 doubles (exact).
template <int H>
FUSOR_INLINE __m512d float64_half(__m512 v) {
    const __m512d bits = _mm512_castps_pd(v);
    return to_float64(_mm256_castpd_ps(H == 0 ? lower_half(bits) : upper_half(bits)));
}

// The 8 float64 lanes of each of `R` float32 runs, over the runs' first `lanes_end` terms (a
// multiple of 8, at least 8): `whole(q, i)` reads run q's 16 terms from its term i, `part(q,
// i, 8)` its 8. Lane j takes terms j, j + 8, j + 16 ... in order, the first group setting the
// lanes (pairwise_block_sum's 8-lane loop), R chains of adds in flight.
template <index_t R, class Whole, class Part>
FUSOR_INLINE void
lanes_of_runs(const Whole& whole, const Part& part, index_t lanes_end, __m512d (&r)[R]) {
    index_t i = 8;
    if (lanes_end >= 16) {
#pragma GCC unroll 16
        for (index_t q = 0; q < R; ++q) {
            const __m512 v = whole(q, 0);
            r[q] = _mm512_add_pd(float64_half<0>(v), float64_half<1>(v));
        }
        i = 16;
    } else {
#pragma GCC unroll 16
        for (index_t q = 0; q < R; ++q)
            r[q] = float64_half<0>(part(q, 0, 8));
    }
    for (; i + 16 <= lanes_end; i += 16)
#pragma GCC unroll 16
        for (index_t q = 0; q < R; ++q) {
            const __m512 v = whole(q, i);
            r[q] = _mm512_add_pd(r[q], float64_half<0>(v));
            r[q] = _mm512_add_pd(r[q], float64_half<1>(v));
        }
    if (i < lanes_end) // one group of 8 left
#pragma GCC unroll 16
        for (index_t q = 0; q < R; ++q)
            r[q] = _mm512_add_pd(r[q], float64_half<0>(part(q, i, 8)));
}

// NumPy's tree over 8 lanes, ((t0 + t1) + (t2 + t3)) + ((t4 + t5) + (t6 + t7)), in the
// register: neighbours, then pairs of neighbours, then the halves (x + y is y + x, bit for bit).
FUSOR_INLINE double numpy_lane_tree(__m512d r) {
    r = _mm512_add_pd(r, __builtin_shufflevector(r, r, 1, 0, 3, 2, 5, 4, 7, 6));
    r = _mm512_add_pd(r, __builtin_shufflevector(r, r, 2, 3, 0, 1, 6, 7, 4, 5));
    return _mm256_cvtsd_f64(_mm256_add_pd(lower_half(r), upper_half(r)));
}

// `s` plus the first `len` (at most 16) terms of register `v`, one at a time in order: a run's
// tail, after its lanes' tree, as the plain loop adds it.
template <class Impl>
FUSOR_INLINE double add_terms_in_order(double s, __m512 v, index_t len) {
    alignas(64) float terms[16];
    _mm512_store_ps(terms, v);
    for (index_t j = 0; j < len; ++j)
        s += Impl::term(terms[j]);
    return s;
}

// pairwise_block_sum's tree over 32 float64 lanes (r[j] += r[j + w] for w = 16, 8 ... 1) in
// the registers, lane j of r0 ... r3 being r[j], r[j + 8], r[j + 16], r[j + 24]; returns r[0].
// Through an array on the stack it was a fifth of sum(a * b) over 1,024 float32 (vector stores
// read back as scalars). The same adds of the same lanes: the same bits. Also float_lane_sum's
// tree (exec/execute.hpp: register_float_lanes_loop).
FUSOR_INLINE double lanes32_tree(__m512d r0, __m512d r1, __m512d r2, __m512d r3) {
    r0 = _mm512_add_pd(r0, r2); // w = 16
    r1 = _mm512_add_pd(r1, r3);
    r0 = _mm512_add_pd(r0, r1); // w = 8
    r0 = _mm512_add_pd(r0, __builtin_shufflevector(r0, r0, 4, 5, 6, 7, 0, 1, 2, 3));
    r0 = _mm512_add_pd(r0, __builtin_shufflevector(r0, r0, 2, 3, 0, 1, 6, 7, 4, 5));
    r0 = _mm512_add_pd(r0, __builtin_shufflevector(r0, r0, 1, 0, 3, 2, 5, 4, 7, 6));
    return _mm256_cvtsd_f64(lower_half(r0));
}

/// The `L` float64 lanes (8: NumPy's, or 32) of a float32 run of `n` elements of `ev` from
/// `begin` (whole groups of `L`; the caller adds the tail), reduced by pairwise_block_sum's
/// tree: lane j takes elements j, j + L, j + 2L ... in order, the first group setting the
/// lanes, so every lane holds the plain loop's value and the sum has its bits. `Ev` computes
/// float32 in the register form, at unit stride from `begin`, read as `Read` says (`rows`: an
/// evaluator bound at the run's start, a still operand's element broadcast).
template <index_t L, bool Twins, class Ev, register_read Read = register_read::block>
double register_lanes_loop(const Ev& ev, index_t begin, index_t n) {
    static_assert(L == 8 || L == 32);
    const index_t lanes_end = n - n % L; // >= L: the caller takes runs of 8 or more
    if constexpr (L == 8) {
        __m512d r[1];
        lanes_of_runs<1>(
            [&](index_t, index_t i) FUSOR_INLINE_LAMBDA {
                return ev.template get_register<false, Read, Twins>(begin + i, 16);
            },
            [&](index_t, index_t i, index_t len) FUSOR_INLINE_LAMBDA {
                return ev.template get_register<true, Read, Twins>(begin + i, len);
            },
            lanes_end,
            r);
        return numpy_lane_tree(r[0]);
    } else {
        const __m512 v0 = ev.template get_register<false, Read, Twins>(begin, 16);
        const __m512 v1 = ev.template get_register<false, Read, Twins>(begin + 16, 16);
        __m512d r0 = float64_half<0>(v0), r1 = float64_half<1>(v0);
        __m512d r2 = float64_half<0>(v1), r3 = float64_half<1>(v1);
        for (index_t i = 32; i < lanes_end; i += 32) {
            const __m512 w0 = ev.template get_register<false, Read, Twins>(begin + i, 16);
            const __m512 w1 = ev.template get_register<false, Read, Twins>(begin + i + 16, 16);
            r0 = _mm512_add_pd(r0, float64_half<0>(w0));
            r1 = _mm512_add_pd(r1, float64_half<1>(w0));
            r2 = _mm512_add_pd(r2, float64_half<0>(w1));
            r3 = _mm512_add_pd(r3, float64_half<1>(w1));
        }
        return lanes32_tree(r0, r1, r2, r3);
    }
}
/// pairwise_rows_sums' `R` runs of `n` terms each (8 <= n < 512; exec/execute.hpp) with each
/// run's terms a register at a time (reduce_kernel::pairwise_rows_simd): run q is read by
/// `ev[q * ev_step]` from its element `q * run_step`, as `Read` says (`rows`: an evaluator bound
/// at the pass's first run, a column's element q rows on). A run's 8 lanes are one register
/// (lanes_of_runs, as register_lanes_loop<8> for one run), then NumPy's tree, then the tail
/// (fewer than 8 terms) added one at a time in order: each run's sum has the plain loop's bits,
/// with the R runs' chains of adds in flight.
template <class Impl, index_t R, register_read Read, bool Twins, class Ev>
FUSOR_INLINE void
register_rows_sums(const Ev* ev, index_t ev_step, index_t run_step, index_t n, double (&s)[R]) {
    const auto whole = [&](index_t q, index_t i) FUSOR_INLINE_LAMBDA {
        return ev[q * ev_step].template get_register<false, Read, Twins>(q * run_step + i, 16, q);
    };
    const auto part = [&](index_t q, index_t i, index_t len) FUSOR_INLINE_LAMBDA {
        return ev[q * ev_step].template get_register<true, Read, Twins>(q * run_step + i, len, q);
    };
    const index_t lanes_end = n - n % 8; // >= 8
    __m512d r[R];
    lanes_of_runs<R>(whole, part, lanes_end, r);
    for (index_t q = 0; q < R; ++q) {
        double sum = numpy_lane_tree(r[q]);
        if (n > lanes_end) // the tail, one term at a time
            sum = add_terms_in_order<Impl>(sum, part(q, lanes_end, n - lanes_end), n - lanes_end);
        s[q] = sum;
    }
}

// Where every pair of leaves under one operation reads one operand alike (`sum(a * a)`), the
// loop that loads it once (exec/execute.hpp, registers_run).
template <index_t L, class Ev, register_read Read = register_read::block>
double register_lanes_sum(const Ev& ev, index_t begin, index_t n) {
    if constexpr (holds_twins<Ev>())
        if (ev.twins_alike())
            return register_lanes_loop<L, true, Ev, Read>(ev, begin, n);
    return register_lanes_loop<L, false, Ev, Read>(ev, begin, n);
}
#endif

} // namespace fusor::exec::detail
