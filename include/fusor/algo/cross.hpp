// fusor/algo/cross.hpp: cross, as numpy.cross: the cross product of 2- and 3-vectors along an
// axis, broadcast over the others, with NumPy's arithmetic (each product rounded before the
// subtraction, as its separate multiply and subtract calls round them).
#pragma once

#include <string>
#include <type_traits>

#include <fusor/core/axis.hpp>
#include <fusor/core/broadcast.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/rounding.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/functions.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/ops/arithmetic.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

namespace detail {
// `x * y - z * w` in R as NumPy computes it: both products rounded, integers wrapping.
template <class R>
R cross_term(R x, R y, R z, R w) {
    if constexpr (std::is_floating_point_v<R>)
        return detail::rounded(x * y) - detail::rounded(z * w);
    else
        return ops::subtract{}(ops::multiply{}(x, y), ops::multiply{}(z, w));
}
template <class R>
R cross_product(R x, R y) {
    if constexpr (std::is_floating_point_v<R>)
        return detail::rounded(x * y);
    else
        return ops::multiply{}(x, y);
}
} // namespace detail

/// `cross(a, b, axis = -1)` as numpy.cross: the cross product of the vectors along `axis` of
/// `a` and `b` (NumPy's `axis=`, which sets axisa, axisb and axisc), each of 2 or 3 components,
/// the other axes broadcast. Two 3-vectors (or a 2- and a 3-vector, the missing component 0)
/// give 3-vectors, placed on `axis` of the result; two 2-vectors give the z component alone,
/// the vector axis dropped: `cross((n, 3), (3,))` → (n, 3), `cross((2,), (2,))` → (). Type
/// `promote(a, b)` (integers wrap), computed as NumPy's (`a1 * b2 - a2 * b1` with each
/// product rounded). Throws `value_error` when a vector has another number of components
/// ("incompatible dimensions for cross product (dimension must be 2 or 3)"), `axis_error` for
/// an axis outside either operand (any axis of a 0-d one), `broadcast_error` when the other
/// axes do not broadcast. Does not compile for bool (NumPy: boolean subtract).
template <class A, class B>
    requires(expression<A>&& expression<B>)
auto cross(const A& a, const B& b, index_t axis = -1) {
    using R = promote_t<value_type_t<A>, value_type_t<B>>;
    static_assert(!std::is_same_v<R, bool>,
                  "fusor::cross: bool vectors (NumPy raises: boolean subtract); cast them");
    const shape_t& sa = detail::checked_shape_of(a);
    const shape_t& sb = detail::checked_shape_of(b);
    const index_t axa = normalize_axis(axis, sa.rank()), axb = normalize_axis(axis, sb.rank());
    const index_t na = sa[static_cast<std::size_t>(axa)], nb = sb[static_cast<std::size_t>(axb)];
    if ((na != 2 && na != 3) || (nb != 2 && nb != 3))
        throw value_error("cross: incompatible dimensions for cross product (dimension must be 2 "
                          "or 3; shapes "
                          + to_string(sa) + " and " + to_string(sb) + ", axis "
                          + std::to_string(axis) + ")");
    // The vectors on the last axis, the leading axes broadcast to one shape, row-major.
    const tensor<R> va = cast<R>(moveaxis(a, axa, -1));
    const tensor<R> vb = cast<R>(moveaxis(b, axb, -1));
    shape_t la(va.shape().begin(), va.shape().end() - 1);
    shape_t lb(vb.shape().begin(), vb.shape().end() - 1);
    const shape_t lead = broadcast_shapes(la, lb);
    la = lead;
    la.push_back(na);
    lb = lead;
    lb.push_back(nb);
    const tensor<R> x(broadcast_to(va, la));
    const tensor<R> y(broadcast_to(vb, lb));
    const index_t rows = shape_size(lead);
    const R* p = x.data();
    const R* q = y.data();
    if (na == 2 && nb == 2) {
        tensor<R> out(lead, uninitialized);
        for (index_t r = 0; r < rows; ++r)
            out.data()[r] = detail::cross_term(p[r * 2], q[r * 2 + 1], p[r * 2 + 1], q[r * 2]);
        return out;
    }
    shape_t out_shape = lead;
    out_shape.push_back(3);
    tensor<R> out(out_shape, uninitialized);
    for (index_t r = 0; r < rows; ++r) {
        const R* u = p + r * na;
        const R* v = q + r * nb;
        R* c = out.data() + r * 3;
        if (na == 3 && nb == 3) {
            c[0] = detail::cross_term(u[1], v[2], u[2], v[1]);
            c[1] = detail::cross_term(u[2], v[0], u[0], v[2]);
        } else if (na == 2) { // u[2] = 0: NumPy's cp0 = a1 * b2, cp1 = -(a0 * b2)
            c[0] = detail::cross_product(u[1], v[2]);
            c[1] = ops::negate{}(detail::cross_product(u[0], v[2]));
        } else { // v[2] = 0: cp0 = -(a2 * b1), cp1 = a2 * b0
            c[0] = ops::negate{}(detail::cross_product(u[2], v[1]));
            c[1] = detail::cross_product(u[2], v[0]);
        }
        c[2] = detail::cross_term(u[0], v[1], u[1], v[0]);
    }
    const index_t axc = normalize_axis(axis, out_shape.rank());
    if (axc == out_shape.rank() - 1)
        return out;
    return tensor<R>(moveaxis(out, -1, axc));
}

} // namespace fusor
