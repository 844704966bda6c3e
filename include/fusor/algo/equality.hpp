// fusor/algo/equality.hpp: whole-array comparisons that answer one bool: array_equal and
// allclose (each one fused `all` reduction).
#pragma once

#include <fusor/exec/assign.hpp>
#include <fusor/expr/functions.hpp>
#include <fusor/reduce/reduction.hpp>

namespace fusor {

/// `array_equal(a, b)` (numpy.array_equal): true when `a` and `b` have the same shape (no
/// broadcasting) and equal elements, compared in `promote(a, b)`; NaN is never equal (as NumPy's
/// default equal_nan = False). Evaluates at once; throws nothing.
template <class A, class B>
    requires(expression<A>&& expression<B>)
bool array_equal(const A& a, const B& b) {
    if (a.shape() != b.shape())
        return false;
    return eval(all(a == b)).item();
}

/// `allclose(a, b, rtol = 1e-5, atol = 1e-8)` (numpy.allclose): true when `isclose(a, b, rtol,
/// atol)` holds everywhere (shapes broadcast; NaN is never close). Evaluates at once; throws
/// `broadcast_error` when the shapes do not broadcast.
template <class A, class B>
    requires detail::operand_pair<A, B>
bool allclose(const A& a, const B& b, double rtol = 1e-5, double atol = 1e-8) {
    return eval(all(isclose(a, b, rtol, atol))).item();
}

} // namespace fusor
