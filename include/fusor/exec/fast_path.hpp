// fusor/exec/fast_path.hpp: the same-shape fast path (MNN BinaryOp's "same shape, contiguous"
// case). When every tensor an element-wise expression reads has the destination's shape and
// is contiguous like it, the planner can only find one flat loop over all the elements. For
// small tensors building that plan (names, strings, vectors: explain's data) costs as much as
// the loop itself, so the loop runs without it. The plan explain prints marks exactly these
// loops `fast_path` (planning::same_shape_fast_path decides the same thing from the plan).
#pragma once

#include <cstddef>
#include <type_traits>

#include <boost/hana/unpack.hpp>

#include <fusor/core/shape.hpp>
#include <fusor/exec/evaluator.hpp>
#include <fusor/exec/execute.hpp>
#include <fusor/exec/threads.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor::exec {

namespace detail {
// Node types the fast path can take: element-wise operations over leaves and scalars only.
// Views of expressions, reshapes and reductions need the planner.
template <class N>
struct flat_elementwise : std::false_type {};
template <class T, bool OwnsShape>
struct flat_elementwise<leaf<T, OwnsShape>> : std::true_type {};
template <class T>
struct flat_elementwise<scalar_node<T>> : std::true_type {};
template <class Op, class... Cs>
struct flat_elementwise<elementwise<Op, Cs...>>
    : std::bool_constant<(flat_elementwise<Cs>::value && ...)> {};

// Operands of a flat node (leaves and scalars) plus the destination.
template <class N>
struct operand_count : std::integral_constant<std::size_t, 1> {};
template <class Op, class... Cs>
struct operand_count<elementwise<Op, Cs...>>
    : std::integral_constant<std::size_t, (operand_count<Cs>::value + ...)> {};

struct fast_destination {
    const shape_t& shape;
    const strides_t& strides; // row-major, checked
    const char* lo;           // bytes the destination covers: [lo, hi)
    const char* hi;
    std::size_t itemsize;
};

// Every leaf has the destination's shape and strides and does not overlap it, unless it reads
// exactly the element being written (same start and item size): NumPy's overlap rule then
// needs no copy, as in planning::destination_overlaps.
template <class N>
bool leaves_match(const N& n, const fast_destination& d) {
    if constexpr (tag_of<N> == node_tag::leaf) {
        using T = typename N::value_type;
        if (n.shape() != d.shape || n.strides() != d.strides)
            return false;
        const char* lo = reinterpret_cast<const char*>(n.data);
        const char* hi = lo + shape_size(n.shape()) * static_cast<index_t>(sizeof(T));
        return hi <= d.lo || d.hi <= lo || (lo == d.lo && sizeof(T) == d.itemsize);
    } else if constexpr (tag_of<N> == node_tag::scalar) {
        return true;
    } else {
        return boost::hana::unpack(n.children,
                                   [&d](const auto&... c) { return (leaves_match(c, d) && ...); });
    }
}
} // namespace detail

/// True when `n` evaluated into `dest` runs as one flat contiguous loop without a plan: `n` is
/// element-wise operations over tensors, views and scalars only; `dest` and every tensor or
/// view have the same shape and row-major strides; no tensor overlaps `dest` except by reading
/// exactly the element being written; the loop has at least 2 and fewer than
/// `parallel_threshold` elements (or one thread may run it). Element types do not matter.
template <class D, class N>
bool fast_path_applies(const tensor_view<D>& dest, const N& n) {
    if constexpr (!detail::flat_elementwise<N>::value) {
        return false;
    } else {
        const index_t size = shape_size(dest.shape());
        // One element (0-d, or every extent 1) is a 0-level plan with a scalar kernel; keep it
        // there, so a math function gives the same bits either way.
        if (size < 2 || (size >= parallel_threshold && num_threads() > 1))
            return false;
        if (!is_row_major(dest.shape(), dest.strides()))
            return false;
        const char* lo = reinterpret_cast<const char*>(dest.data());
        const detail::fast_destination d{dest.shape(),
                                         dest.strides(),
                                         lo,
                                         lo + size * static_cast<index_t>(sizeof(D)),
                                         sizeof(D)};
        return detail::leaves_match(n, d);
    }
}

/// Evaluates `n` into `dest` on the fast path when `fast_path_applies`, with the kernel the
/// plan would pick (the contiguous loop, or the blocked one when a math function runs through
/// SLEEF), so results are the same to the bit. Returns false, touching nothing, otherwise.
template <class D, class N>
bool try_fast_path(const tensor_view<D>& dest, const N& n) {
    if constexpr (!detail::flat_elementwise<N>::value) {
        return false;
    } else {
        if (!fast_path_applies(dest, n))
            return false;
        temporary_cache unused;
        const index_t zero_offsets[detail::operand_count<N>::value + 1] = {};
        const index_t size = shape_size(dest.shape());
        if constexpr (has_vector_math<N>::value) {
            auto ev = evaluator_builder<true>{nullptr, unused}.build(n);
            detail::blocked_inner_loop(dest.data(), ev, zero_offsets, size);
        } else {
            auto ev = evaluator_builder<false>{nullptr, unused}.build(n);
            detail::contiguous_inner_loop(dest.data(), ev, zero_offsets, size);
        }
        return true;
    }
}

} // namespace fusor::exec
