// fusor/expr/triangular.hpp: tril and triu, as NumPy's: lazy `where(mask, e, 0)` with the mask
// built from broadcast aranges of the last two axes, so nothing of the operand's size is
// allocated or computed until the expression is evaluated (fused with whatever reads it).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <fusor/config.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/expr/functions.hpp>
#include <fusor/expr/operators.hpp>
#include <fusor/tensor/factories.hpp>

namespace fusor {

namespace detail {
// The column-minus-row offsets `j - i` of the (rows, cols) plane the mask covers: numpy.tri's
// shape is the last two extents, or (n, n) for a 1-d operand (as numpy.tril, whose result then
// is (n, n)). The two aranges (rows + cols int64 values) are the only allocation.
FUSOR_LAZY inline auto column_minus_row(const shape_t& s, const char* what) {
    if (s.rank() == 0)
        throw value_error(std::string(what)
                          + " requires a tensor of at least 1 dimension (NumPy's tri() raises "
                            "TypeError for a 0-d input)");
    const index_t cols = s[s.size() - 1];
    const index_t rows = s.rank() == 1 ? cols : s[s.size() - 2];
    tensor<std::int64_t> i = arange<std::int64_t>(rows);
    i.reshape(shape_t{rows, 1});
    return arange<std::int64_t>(cols) - std::move(i);
}
} // namespace detail

/// `tril(e, k = 0)` as numpy.tril: the lower triangle of the last two axes, elements above the
/// k-th diagonal (`j - i > k`) set to 0: shape unchanged for rank ≥ 2, `(n,)` → `(n, n)` (the
/// row repeated, as NumPy). Lazy: `where(j - i <= k, e, 0)` with `0` of `e`'s type (so the
/// type is unchanged, bool included); reads `e` when evaluated. Throws `value_error` for a 0-d
/// operand.
template <class E>
    requires expression<E>
auto tril(E&& e, index_t k = 0) {
    using T = value_type_t<E>;
    auto offsets = detail::column_minus_row(detail::checked_shape_of(e), "tril");
    return where(std::move(offsets) <= k, std::forward<E>(e), T(0));
}

/// `triu(e, k = 0)` as numpy.triu: the upper triangle, elements below the k-th diagonal
/// (`j - i < k`) set to 0; shapes, type and laziness as `tril`. Throws `value_error` for a 0-d
/// operand.
template <class E>
    requires expression<E>
auto triu(E&& e, index_t k = 0) {
    using T = value_type_t<E>;
    auto offsets = detail::column_minus_row(detail::checked_shape_of(e), "triu");
    return where(std::move(offsets) >= k, std::forward<E>(e), T(0));
}

} // namespace fusor
