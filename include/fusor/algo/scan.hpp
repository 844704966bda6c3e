// fusor/algo/scan.hpp: cumsum and cumprod. A scan is not element-wise (element k depends on
// elements 0..k), so it materialises: the operand is evaluated once, fused, into the result
// buffer (cast to the result type), then each lane is scanned in place.
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include <fusor/algo/along_axis.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/reduce/reducers.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {
struct scan_add {
    template <class R>
    static R apply(R a, R b) {
        if constexpr (std::is_integral_v<R>) // wraps as NumPy, without signed overflow
            return static_cast<R>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
        else
            return a + b;
    }
};
struct scan_multiply {
    template <class R>
    static R apply(R a, R b) {
        if constexpr (std::is_integral_v<R>)
            return static_cast<R>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
        else
            return a * b;
    }
};

template <class Op, class E>
auto scan(const E& e, std::optional<index_t> axis_in) {
    using R = reducers::detail::sum_result_t<value_type_t<E>>;
    const shape_t& s = e.shape();
    // NumPy ravels a 0-d operand (axis 0 or -1 are then valid); no axis means the flattened
    // operand.
    const bool flatten = !axis_in || s.rank() == 0;
    const index_t axis = flatten ? 0 : normalize_axis(*axis_in, s.rank());
    if (axis_in && s.rank() == 0)
        normalize_axis(*axis_in, 1);
    tensor<R> out(flatten ? shape_t{shape_size(s)} : s, uninitialized);
    adapt(out.data(), s) = e; // the fused evaluation of e, cast to R (row-major)
    const lane_split lanes(flatten ? out.shape() : s, axis);
    R* const d = out.data();
    if (lanes.n < 2)
        return out;
    if (lanes.inner == 1) {
        // Contiguous lanes: the running value stays in a register (reading back the element
        // just stored waits on store forwarding at every step).
        lanes.for_each_lane([&](index_t o, index_t i) {
            R* const lane = d + lanes.first(o, i);
            R acc = lane[0];
            for (index_t k = 1; k < lanes.n; ++k) {
                acc = Op::apply(acc, lane[k]);
                lane[k] = acc;
            }
        });
        return out;
    }
    // Lanes `inner` apart: a whole row of them steps at once (row k = row k-1 op row k, as
    // NumPy's axis scans), independent lanes side by side for the vector unit and rows read in
    // order; each lane's operations are the same, in the same order, as one lane at a time.
    for (index_t o = 0; o < lanes.outer; ++o) {
        R* const block = d + lanes.first(o, 0);
        for (index_t k = 1; k < lanes.n; ++k) {
            const R* const previous = block + (k - 1) * lanes.inner;
            R* const row = block + k * lanes.inner;
            for (index_t i = 0; i < lanes.inner; ++i)
                row[i] = Op::apply(previous[i], row[i]);
        }
    }
    return out;
}
} // namespace detail

/// `cumsum(e)` (numpy.cumsum): running sums of the flattened operand, shape (size,);
/// `cumsum(e, axis)`: running sums along `axis`, shape unchanged (a 0-d operand gives (1,), as
/// NumPy). Types as `sum`: bool and signed integers → int64, unsigned → uint64 (wrapping),
/// floats keep their type and, as NumPy, accumulate sequentially in it (so results match
/// NumPy bit for bit). Materialises its result; `e` itself is evaluated fused, once.
/// Throws `axis_error` for an axis out of range.
template <class E>
    requires expression<E>
auto cumsum(const E& e) {
    return detail::scan<detail::scan_add>(e, std::nullopt);
}
template <class E>
    requires expression<E>
auto cumsum(const E& e, index_t axis) {
    return detail::scan<detail::scan_add>(e, axis);
}

/// `cumprod(e)`, `cumprod(e, axis)` (numpy.cumprod): running products; shapes, types and
/// errors as `cumsum`.
template <class E>
    requires expression<E>
auto cumprod(const E& e) {
    return detail::scan<detail::scan_multiply>(e, std::nullopt);
}
template <class E>
    requires expression<E>
auto cumprod(const E& e, index_t axis) {
    return detail::scan<detail::scan_multiply>(e, axis);
}

} // namespace fusor
