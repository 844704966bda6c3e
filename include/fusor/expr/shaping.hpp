// fusor/expr/shaping.hpp: flipud, fliplr, rot90, ravel, flatten and atleast_1d/2d/3d, NumPy's
// shape helpers. Each is one view built from the maps of core/affine_map.hpp (zero-copy and
// writable on a tensor or a view, one lazy remap on any other expression), except `flatten`,
// which copies as NumPy's does, and `ravel`, which is `reshape(e, {-1})`.
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include <fusor/config.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

namespace detail {
// `value_error` unless `in` has at least `rank` axes (numpy.flipud and fliplr's check).
FUSOR_DECL void require_rank(const shape_t& in, index_t rank, const char* what);

// The identity map of `in`, labelled for explain.
FUSOR_DECL affine_map identity_map(const shape_t& in, map_label label);

// `rot90(e, k, axes)` as one map, numpy.rot90's cases: k = 0 the identity, k = 2 both axes
// flipped, k = 1 `transpose(flip(e, a1), swap(a0, a1))`, k = 3 `flip(transpose(...), a1)`.
// A transpose is a permutation of coef's columns; flipping operand axis a (extent n) negates
// its row and offsets it by n - 1 (0 when n is 0: no offset past the operand, as flip_map).
FUSOR_DECL affine_map rot90_map(const shape_t& in, index_t k, const shape_t& axes);

// The extent-1 axes atleast_<rank> inserts (numpy.atleast_1d/2d/3d): none when `in` already
// has `rank` axes or more.
FUSOR_DECL affine_map atleast_map(const shape_t& in, index_t rank);
} // namespace detail

/// `flipud(e)` as numpy.flipud: axis 0 reversed, `flip(e, 0)`: shape unchanged, (3, 4) → (3, 4)
/// with rows in reverse order. A view: zero-copy and writable on a tensor (`flipud(t) = x`
/// writes `t`), a lazy remap on an expression. Throws `value_error` for a 0-d operand
/// (NumPy's "Input must be >= 1-d.").
template <class E>
    requires expression<E>
auto flipud(E&& e) {
    return detail::apply_view(std::forward<E>(e), [](const shape_t& s) {
        detail::require_rank(s, 1, "flipud");
        affine_map m = flip_map(s, shape_t{0});
        m.label = "flipud";
        return m;
    });
}

/// `fliplr(e)` as numpy.fliplr: axis 1 reversed, `flip(e, 1)`: shape unchanged. A view as
/// `flipud`. Throws `value_error` for an operand of rank < 2 ("Input must be >= 2-d.").
template <class E>
    requires expression<E>
auto fliplr(E&& e) {
    return detail::apply_view(std::forward<E>(e), [](const shape_t& s) {
        detail::require_rank(s, 2, "fliplr");
        affine_map m = flip_map(s, shape_t{1});
        m.label = "fliplr";
        return m;
    });
}

/// `rot90(e, k = 1, axes = {0, 1})` as numpy.rot90: `k` quarter turns in the plane of `axes`,
/// from the first axis towards the second (negative `k` turns back): (2, 3) → (3, 2) for odd
/// `k`, unchanged for even `k`; other axes stay. One view (a transpose with one axis read
/// backwards), writable on a tensor; one lazy remap on an expression, whatever `k`.
/// Throws `value_error` as NumPy: `axes` not of length 2 ("len(axes) must be 2"), equal axes
/// or axes `r` apart ("Axes must be different", so any rank < 2), an axis outside `[-r, r)`
/// ("out of range for array of ndim").
template <class E>
    requires expression<E>
auto rot90(E&& e, index_t k = 1, const shape_t& axes = {0, 1}) {
    return detail::apply_view(std::forward<E>(e),
                              [&](const shape_t& s) { return detail::rot90_map(s, k, axes); });
}

/// `atleast_1d(e)` as numpy.atleast_1d (one operand): a 0-d operand becomes `(1,)`, any
/// other is unchanged. Always a view (writable on a tensor; NumPy returns the array itself).
template <class E>
    requires expression<E>
auto atleast_1d(E&& e) {
    return detail::apply_view(std::forward<E>(e),
                              [](const shape_t& s) { return detail::atleast_map(s, 1); });
}
/// `atleast_2d(e)` as numpy.atleast_2d: `()` → `(1, 1)`, `(n,)` → `(1, n)`, rank ≥ 2 unchanged.
/// A view as `atleast_1d`.
template <class E>
    requires expression<E>
auto atleast_2d(E&& e) {
    return detail::apply_view(std::forward<E>(e),
                              [](const shape_t& s) { return detail::atleast_map(s, 2); });
}
/// `atleast_3d(e)` as numpy.atleast_3d: `()` → `(1, 1, 1)`, `(n,)` → `(1, n, 1)`, `(m, n)` →
/// `(m, n, 1)`, rank ≥ 3 unchanged. A view as `atleast_1d`.
template <class E>
    requires expression<E>
auto atleast_3d(E&& e) {
    return detail::apply_view(std::forward<E>(e),
                              [](const shape_t& s) { return detail::atleast_map(s, 3); });
}

/// `ravel(e)` as numpy.ravel: the elements in row-major order as one axis, (2, 3) → (6,),
/// `()` → (1,). It is `reshape(e, {-1})`, so: a view of a tensor (writable), a view of a view
/// whose layout allows it, otherwise a view owning a copy (NumPy copies then too); an rvalue
/// tensor reshaped in place; a lazy `reshaped` node on an expression. Never throws. Unlike
/// numpy.ravel, which copies whatever is not C-contiguous, a stepped or reversed view that one
/// stride walks stays a view (API.md: views stay views), so writes through it reach `e`.
template <class E>
    requires expression<E>
auto ravel(E&& e) {
    return reshape(std::forward<E>(e), shape_t{-1});
}

/// `flatten(e)` as numpy.ndarray.flatten: a new 1-d `tensor` of the elements in row-major
/// order, (2, 3) → (6,), `()` → (1,), always a copy (one fused loop; writes to it never reach
/// `e`). Same element type as `e`.
template <class E>
    requires expression<E> tensor<value_type_t<E>> flatten(const E& e) {
        tensor<value_type_t<E>> t = e;
        t.reshape(shape_t{t.size()});
        return t;
    }

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/expr/shaping.ipp>
#endif
