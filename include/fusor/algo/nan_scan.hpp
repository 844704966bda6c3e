// fusor/algo/nan_scan.hpp: nancumsum and nancumprod, NumPy's scans that ignore NaN
// (numpy/lib/nanfunctions.py): `np.cumsum(_replace_nan(a, 0))`, `np.cumprod(_replace_nan(a, 1))`.
// The replacement is an element-wise node inside the scan's one fused evaluation of `e`.
#pragma once

#include <type_traits>

#include <fusor/algo/scan.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/reduce/nan_reductions.hpp>

namespace fusor {

/// `nancumsum(e)` (numpy.nancumsum): running sums of the flattened operand with NaN counted as
/// 0, shape (size,); `nancumsum(e, axis)`: along `axis`, shape unchanged (a 0-d operand gives
/// (1,)). Leading NaN give 0, a slice of NaN only gives zeros. Types, order of the additions
/// (sequential, in the result type, so floats match NumPy bit for bit) and errors (`axis_error`)
/// as `cumsum`; integers and bool: exactly `cumsum`. Materialises its result.
/// Example: `nancumsum(x, 1)`.
template <class E>
    requires expression<E>
auto nancumsum(const E& e) {
    if constexpr (std::is_floating_point_v<value_type_t<E>>)
        return cumsum(detail::replace_nan<0>(e));
    else
        return cumsum(e);
}
template <class E>
    requires expression<E>
auto nancumsum(const E& e, index_t axis) {
    if constexpr (std::is_floating_point_v<value_type_t<E>>)
        return cumsum(detail::replace_nan<0>(e), axis);
    else
        return cumsum(e, axis);
}

/// `nancumprod(e)`, `nancumprod(e, axis)` (numpy.nancumprod): running products with NaN counted
/// as 1 (a slice of NaN only gives ones); shapes, types and errors as `cumprod`; integers and
/// bool: exactly `cumprod`.
template <class E>
    requires expression<E>
auto nancumprod(const E& e) {
    if constexpr (std::is_floating_point_v<value_type_t<E>>)
        return cumprod(detail::replace_nan<1>(e));
    else
        return cumprod(e);
}
template <class E>
    requires expression<E>
auto nancumprod(const E& e, index_t axis) {
    if constexpr (std::is_floating_point_v<value_type_t<E>>)
        return cumprod(detail::replace_nan<1>(e), axis);
    else
        return cumprod(e, axis);
}

} // namespace fusor
