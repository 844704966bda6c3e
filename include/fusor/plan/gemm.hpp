// fusor/plan/gemm.hpp: when a contraction is a matrix product, the planner hands it to the BLAS.
// A contraction (reduce/contraction.hpp) of two float32 or float64 tensors whose iteration space
// splits into rows (only A moves), columns (only B moves), summed axes (both move) and batch
// axes (both move, kept), each operand a row- or column-major matrix in its two axes, is
// exactly `C = A B` per batch element: sgemm/dgemm, with a transpose a flag rather than a copy.
// The decision is stored in the plan (loop_plan::gemm); exec/gemm.hpp runs it; explain prints it.
#pragma once

#include <climits>
#include <cstddef>
#include <type_traits>

#include <boost/container/small_vector.hpp>
#include <boost/container/static_vector.hpp>

#include <fusor/config.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/ops/arithmetic.hpp>
#include <fusor/plan/kernel_choice.hpp> // small_gemm_enabled
#include <fusor/plan/loop_plan.hpp>
#include <fusor/reduce/reducers.hpp>

// FUSOR_HAS_BLAS=1 (CMake's FUSOR_BLAS, on when a BLAS with cblas.h is found): float products
// of GEMM layout call cblas_sgemm / cblas_dgemm. Without it every contraction runs fusor's loop.
#if defined(FUSOR_HAS_BLAS) && FUSOR_HAS_BLAS
#define FUSOR_BLAS_GEMM 1
#else
#define FUSOR_BLAS_GEMM 0
#endif

namespace fusor::planning {

/// Products smaller than this many multiply-adds (m·n·k) run fusor's own loop: a BLAS call
/// costs a few hundred nanoseconds before its first multiply, more than a 16³ product.
inline constexpr index_t gemm_min_work = 16 * 16 * 16;

/// A float32 matrix-vector product (`y = A x`, einsum "ijk,ik->ij") whose matrix, all batches
/// together, has more bytes than this runs fusor's loop (reduce_kernel::float_lanes, one row
/// at a time) instead of the BLAS's gemv. Such an A is read from memory, and gemv kernels read
/// several of its rows at once, more streams than the prefetchers follow: einsum "ijk,ik->ij"
/// over (256, 256, 256) float32 (64 MiB), one thread, took 7.3 ms through OpenBLAS's sgemv
/// (Eigen's gemv 6.0) and 2.6-2.9 through fusor's loop (NumPy 2.9); over (128, 128, 128)
/// (8 MiB, in the last-level cache when called again) the BLAS's 0.16 ms beat fusor's 0.35
/// (Zen 4 EPYC with 32 MiB of L3; docs/performance.md, twenty-third session, "Float32
/// contractions").
inline constexpr index_t gemv_blas_max_bytes = index_t{16} << 20;

/// True in a build with a BLAS (FUSOR_BLAS_GEMM).
inline constexpr bool blas_available = FUSOR_BLAS_GEMM != 0;

/// Node types that are one operand of a loop, read from memory: a tensor or view (a leaf), or a
/// reduction (a temporary: an earlier step of an einsum chain), or a view of either (a tensor
/// moved into the expression, `matmul(eval(x), w)`, is a view of the leaf that owns it).
template <class N>
inline constexpr bool gemm_operand =
    tag_of<N> == node_tag::leaf || tag_of<N> == node_tag::reduction;
template <class C>
inline constexpr bool gemm_operand<remap<C>> =
    tag_of<C> == node_tag::reduction || tag_of<C> == node_tag::leaf;

/// True for the node types a matrix product kernel can take: the contraction sum over the
/// product of two operands read from memory (gemm_operand) of one float type.
template <class R, class C>
inline constexpr bool product_candidate = false;
template <class L0, class L1>
constexpr bool product_pair() {
    using T = typename L0::value_type;
    if (!std::is_same_v<T, typename L1::value_type>)
        return false;
    if (!std::is_same_v<T, float> && !std::is_same_v<T, double>)
        return false;
    return gemm_operand<L0> && gemm_operand<L1>;
}
template <class L0, class L1>
inline constexpr bool product_candidate<reducers::contract, elementwise<ops::multiply, L0, L1>> =
    product_pair<L0, L1>();

/// True for the node types the BLAS can take: product_candidate, in a build with a BLAS.
template <class R, class C>
inline constexpr bool gemm_candidate = blas_available && (product_candidate<R, C>);

/// A factor of a contraction that is an element-wise expression viewed into the iteration space
/// (`a * s` in `matmul(a * s, b)`): the BLAS can read it once it is computed into a temporary.
template <class N>
inline constexpr bool materialisable_factor = false;
template <class C>
inline constexpr bool materialisable_factor<remap<C>> = tag_of<C> == node_tag::elementwise;

/// True for the products the BLAS can take once their element-wise factors are computed first
/// (a boundary each, boundary_plan::reason::product_factor): a float contraction of two
/// factors of one type, each read from memory (gemm_operand) or materialisable_factor, at least
/// one of them the latter, in a build with a BLAS. plan_reduction plans such a product that way
/// when choose_gemm then takes it (`matmul(a * 0.5f, b)` at 1024² float32: 65 ms in fusor's loop
/// on two threads, ~11 ms as a scaling pass and sgemm), else as one fused loop without the
/// temporaries (`einsum("ij,ij->i", a * s, b)`, small or matrix-vector products).
template <class R, class C>
inline constexpr bool factor_gemm_candidate = false;
template <class L0, class L1>
constexpr bool factor_pair() {
    using T = typename L0::value_type;
    if (!blas_available || !std::is_same_v<T, typename L1::value_type>)
        return false;
    if (!std::is_same_v<T, float> && !std::is_same_v<T, double>)
        return false;
    constexpr bool computed0 = materialisable_factor<L0>, computed1 = materialisable_factor<L1>;
    constexpr bool read0 = gemm_operand<L0>, read1 = gemm_operand<L1>;
    return (read0 || computed0) && (read1 || computed1) && (computed0 || computed1);
}
template <class L0, class L1>
inline constexpr bool
    factor_gemm_candidate<reducers::contract, elementwise<ops::multiply, L0, L1>> =
        factor_pair<L0, L1>();

namespace gemm_detail {
// One axis of the iteration space with each operand's stride (A, B, and C the accumulator).
struct gemm_axis {
    index_t n = 1, a = 0, b = 0, c = 0;
};
using gemm_axes = boost::container::small_vector<gemm_axis, 4>;
// The axes of a flat product's space (rank at most 3): on the stack, no allocation to test for.
using flat_gemm_axes = boost::container::static_vector<gemm_axis, 3>;

// Merges consecutive axes of one role into one when every operand that moves along them walks
// them as one (outer stride == inner stride * inner extent); true when at most one is left.
template <class Axes>
bool merge_into_one(Axes& axes) {
    while (axes.size() > 1) {
        const gemm_axis& x = axes[axes.size() - 2];
        const gemm_axis& y = axes.back();
        auto joins = [&](index_t sx, index_t sy) {
            return sx == sy * y.n;
        };
        if (!joins(x.a, y.a) || !joins(x.b, y.b) || !joins(x.c, y.c))
            return false;
        const gemm_axis merged{x.n * y.n, y.a, y.b, y.c};
        axes.pop_back();
        axes.back() = merged;
    }
    return true;
}

// A (rows × cols) matrix with strides (sr, sc) as the BLAS reads it: row-major (`sc == 1`, rows
// `ld` apart) or column-major (`transposed`: `sr == 1`, columns `ld` apart). False otherwise.
FUSOR_DECL bool
as_blas_matrix(index_t rows, index_t cols, index_t sr, index_t sc, bool& transposed, index_t& ld);

FUSOR_DECL bool fits_int(index_t v);
} // namespace gemm_detail

namespace gemm_detail {
// The axes of loop `p`'s iteration space (extent > 1) by role, for C = A B with A operand `ia`
// and B operand `ib` (C the accumulator, operand 0): rows (only A moves), columns (only B),
// summed (both; C stands still) and batch (both, kept). False when some axis has none of these
// roles or a factor's stride is negative.
template <class Axes>
struct basic_product_axes {
    Axes rows, cols, sums, batch;
};
using product_axes = basic_product_axes<gemm_axes>;
using flat_product_axes = basic_product_axes<flat_gemm_axes>; // rank at most 3
FUSOR_DECL bool classify_axes(const loop_plan& p, std::size_t ia, std::size_t ib, product_axes& x);
// As above, over the iteration space `space` of `rank` axes with each operand's strides along
// them (a flat_product_axes holds up to 3 per role: `rank` at most 3).
template <class Axes>
bool classify_axes(const index_t* space,
                   std::size_t rank,
                   const index_t* a,
                   const index_t* b,
                   const index_t* c,
                   basic_product_axes<Axes>& x) {
    auto& [rows, cols, sums, batch] = x;
    for (std::size_t j = 0; j < rank; ++j) {
        const gemm_axis x{space[j], a[j], b[j], c[j]};
        if (x.n == 1)
            continue;
        if (x.a < 0 || x.b < 0)
            return false;
        if (x.c == 0) {
            if (x.a == 0 || x.b == 0)
                return false; // a summed axis one operand does not move along: not a product
            sums.push_back(x);
        } else if (x.a != 0 && x.b == 0) {
            rows.push_back(x);
        } else if (x.a == 0 && x.b != 0) {
            cols.push_back(x);
        } else if (x.a != 0 && x.b != 0) {
            batch.push_back(x);
        } else {
            return false; // the result varies where neither operand does
        }
    }
    return true;
}

// The batch loops of `x` into `g`.
template <class Axes>
void set_batch(const basic_product_axes<Axes>& x, gemm_plan& g) {
    for (const gemm_axis& b : x.batch) {
        g.batch.push_back(b.n);
        g.batch_a.push_back(b.a);
        g.batch_b.push_back(b.b);
        g.batch_c.push_back(b.c);
    }
}

// Whether loop `p` is `C = A B` with A operand `ia` and B operand `ib` (C the accumulator,
// operand 0) as the BLAS takes it, and if so its matrix product, not yet `direct`.
FUSOR_DECL bool as_product(const loop_plan& p, std::size_t ia, std::size_t ib, gemm_plan& g);

// Whether loop `p` is `C = A B` (A operand `ia`, B operand `ib`) as fusor's small product
// takes it: at most one row, one column and one summed axis (rows and columns merged where
// their strides allow), any strides of at least 0. One summed axis, not several merged: each
// accumulator then takes its terms in the order of that axis, as the row kernel does.
FUSOR_DECL bool as_small_product(const loop_plan& p, std::size_t ia, std::size_t ib, gemm_plan& g);
// The product over row axis `r`, column axis `c` and summed axis `k` into `g` (no batch).
inline void
set_small_product(const gemm_axis& r, const gemm_axis& c, const gemm_axis& k, gemm_plan& g) {
    g.m = r.n;
    g.n = c.n;
    g.k = k.n;
    g.a_m = r.a;
    g.a_k = k.a;
    g.b_k = k.b;
    g.b_n = c.b;
    g.c_m = r.c;
    g.c_n = c.c;
}
// as_small_product's second half, from the classified axes `x` (merges its rows and columns).
template <class Axes>
bool small_product_from(basic_product_axes<Axes>& x, gemm_plan& g) {
    if (x.sums.size() > 1 || !merge_into_one(x.rows) || !merge_into_one(x.cols))
        return false;
    const gemm_axis none{};
    set_small_product(x.rows.empty() ? none : x.rows[0],
                      x.cols.empty() ? none : x.cols[0],
                      x.sums.empty() ? none : x.sums[0],
                      g);
    set_batch(x, g);
    return true;
}
} // namespace gemm_detail

/// Decides whether reduction loop `p` (planned, operands 1 and 2 the two factors, operand 0 the
/// accumulator) is a matrix product the BLAS runs, and fills `p.gemm`: the iteration space's
/// axes of extent > 1 are classed rows (only A moves), columns (only B), summed (both; the
/// accumulator stands still) or batch (both, kept); consecutive axes of one class merge where
/// their strides allow; at most one axis of each of the first three classes, A and B row- or
/// column-major in theirs, C row-major, no negative stride, `gemm_min_work` or more
/// multiply-adds with at least 2 rows and 2 columns. A is operand 1, or operand 2 (`swapped`)
/// when only that makes C row-major (`C = Bᵀ Aᵀ` read the other way). `direct` when the
/// destination `d` is row-major, of the product's type and shares no byte with A or B.
template <class Destination> // destination_layout (plan/make_plan.hpp)
bool choose_gemm(loop_plan& p, const Destination& d) {
    if (p.operands.size() != 3 || shape_size(p.iter_shape) == 0)
        return false;
    gemm_plan g;
    if (!gemm_detail::as_product(p, 1, 2, g)) {
        g = gemm_plan{};
        if (!gemm_detail::as_product(p, 2, 1, g))
            return false;
        g.swapped = true;
    }
    const operand_plan &A = p.operands[1], &B = p.operands[2];
    if (g.gemv && (g.swapped ? B : A).itemsize == 4) {
        index_t bytes = g.m * g.k * 4;
        for (const index_t e : g.batch)
            bytes *= e;
        if (bytes > gemv_blas_max_bytes)
            return false; // streamed from memory: fusor's loop (gemv_blas_max_bytes)
    }
    // Straight into the destination when it is laid out as the accumulators (row-major over
    // the result) and of the product's type, and A and B do not overlap it.
    g.direct = d.dtype == A.dtype && is_row_major(d.shape, d.strides);
    if (g.direct && d.address) {
        const char* lo = static_cast<const char*>(d.address);
        const char* hi = lo + shape_size(d.shape) * d.itemsize;
        for (const operand_plan* o : {&A, &B}) {
            if (o->kind == operand_plan::role::temporary)
                continue; // computed by this evaluation: never the destination's memory
            index_t first = o->offset, last = o->offset;
            for (std::size_t j = 0; j < p.iter_shape.size(); ++j)
                last += (p.iter_shape[j] - 1) * o->iter_strides[j];
            const char* olo = static_cast<const char*>(o->address) + first * o->itemsize;
            const char* ohi = static_cast<const char*>(o->address) + (last + 1) * o->itemsize;
            if (olo < hi && lo < ohi)
                g.direct = false;
        }
    }
    p.gemm = std::move(g);
    p.reduction = reduce_kernel::gemm;
    return true;
}

/// Decides whether reduction loop `p` runs as fusor's small matrix product
/// (reduce_kernel::small_gemm): a float contraction of two operands that the planner gave a
/// row of accumulators (`row` or `two_rows`), or a pairwise register accumulator over runs of
/// fewer than 8 terms (`m @ v`, `a @ b.T` with k < 8: pairwise_terms adds such a run one term
/// at a time into 0.0), so that each accumulator takes its terms one at a time in the loop's
/// order, and that is a product with fewer than `gemm_min_work` multiply-adds (the BLAS's larger
/// ones are choose_gemm's). The kernel runs the same steps in the same order without the loop
/// nest's driver, which costs more than a 4 x 4 product's arithmetic.
FUSOR_DECL bool choose_small_gemm(loop_plan& p);

/// The most result elements a flat product (flat_product_of) has: its accumulators live on the
/// stack (2 KiB of float64), and the products it is for, a few rows by a few columns, are far
/// below (`matmul` of 4 x 4: 16).
inline constexpr index_t flat_product_max_results = 256;

/// The flat product's decision (loop_plan::flat_product; the caller, planning::is_flat_product,
/// checks the node types, the destination's shape and that it overlaps neither factor): the
/// contraction over iteration space `space` (rank 1 to 3, no batch axes) summing axis `summed`,
/// its factors A and B at strides `sa` and `sb` (at least 0), is a product that the planner
/// gives reduce_kernel::small_gemm, with at most flat_product_max_results result elements. The
/// planner's choice, mirrored without a plan: the accumulators are row-major over the result (C's
/// strides, 0 along `summed`); the reduction loop runs the space in order without its extent-1
/// axes, so its innermost level is the last axis of extent > 1 (none: no loop level, a register
/// accumulator): a kept one gives the row kernels (`row`, `two_rows`), the summed one a register
/// accumulator, pairwise for runs under 8 terms unless the reducer sums in `compensated` lanes
/// (float64 products); choose_small_gemm takes the row kernels and such pairwise runs, below
/// gemm_min_work multiply-adds (so on one thread: parallel_threshold is larger). On success fills
/// `g` as choose_small_gemm would (the same classification; tests/contract/ test_small_products.cpp
/// compares the two over a sweep of shapes and layouts). `destination_row_major`: the destination's
/// layout, which the flat product writes in order.
FUSOR_DECL bool flat_product_of(const shape_t& space,
                                index_t summed,
                                const strides_t& sa,
                                const strides_t& sb,
                                bool destination_row_major,
                                bool compensated,
                                gemm_plan& g);

} // namespace fusor::planning

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/gemm.ipp>
#endif
