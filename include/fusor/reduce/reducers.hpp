// fusor/reduce/reducers.hpp: what each reduction accumulates: identity, step, merge,
// finalize. The loops that drive them are in exec/; these are plain value functions.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/shape.hpp>

namespace fusor::reducers {

// Every reducer `R` provides, for an input element type `T`, `R::impl<T>` with:
//   acc_type, result_type, identity(), step(acc, v, index), merge(earlier, later),
//   finalize(acc, count); `has_identity` (false: an empty axis under a non-empty result
//   throws) and `needs_index` (arg-reductions read the candidate's index).
// `merge` combines two partial results in index order, so first-occurrence rules hold.

namespace detail {
template <class T>
constexpr bool is_nan(T v) {
    if constexpr (std::is_floating_point_v<T>)
        return v != v;
    else
        return false;
}
template <class T>
constexpr T lowest() {
    if constexpr (std::is_floating_point_v<T>)
        return -std::numeric_limits<T>::infinity();
    else
        return std::numeric_limits<T>::lowest();
}
template <class T>
constexpr T highest() {
    if constexpr (std::is_floating_point_v<T>)
        return std::numeric_limits<T>::infinity();
    else
        return std::numeric_limits<T>::max();
}
// Sum accumulator: float32 sums in double (more exact than NumPy's float32 pairwise sum);
// bool and signed integers in int64, unsigned in uint64, both wrapping as NumPy.
template <class T>
using sum_acc_t =
    std::conditional_t<std::is_floating_point_v<T>,
                       double,
                       std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>,
                                          std::uint64_t,
                                          std::int64_t>>;
template <class T>
using sum_result_t = std::conditional_t<std::is_floating_point_v<T>, T, sum_acc_t<T>>;
} // namespace detail

/// numpy.sum: identity 0; bool and signed integers give int64, unsigned uint64, floats keep
/// their type (accumulated in double).
struct sum {
    static constexpr std::string_view name = "sum";
    static constexpr bool single_axis = false;
    template <class T>
    struct impl {
        using acc_type = detail::sum_acc_t<T>;
        using result_type = detail::sum_result_t<T>;
        static constexpr bool has_identity = true;
        static constexpr bool needs_index = false;
        static constexpr acc_type identity() { return acc_type(0); }
        FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
            if constexpr (std::is_integral_v<acc_type>)
                return static_cast<acc_type>(
                    static_cast<std::uint64_t>(a)
                    + static_cast<std::uint64_t>(static_cast<acc_type>(v)));
            else
                return a + static_cast<acc_type>(v);
        }
        static constexpr acc_type merge(acc_type a, acc_type b) {
            if constexpr (std::is_integral_v<acc_type>)
                return static_cast<acc_type>(static_cast<std::uint64_t>(a)
                                             + static_cast<std::uint64_t>(b));
            else
                return a + b;
        }
        static constexpr result_type finalize(acc_type a, index_t) {
            return static_cast<result_type>(a);
        }
    };
};

/// numpy.mean: the sum (in double) divided by the number of elements reduced; integers and
/// bool give float64, floats keep their type; the mean of nothing is NaN.
struct mean {
    static constexpr std::string_view name = "mean";
    static constexpr bool single_axis = false;
    template <class T>
    struct impl {
        using acc_type = double;
        using result_type = std::conditional_t<std::is_floating_point_v<T>, T, double>;
        static constexpr bool has_identity = true;
        static constexpr bool needs_index = false;
        static constexpr acc_type identity() { return 0.0; }
        FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
            return a + static_cast<double>(v);
        }
        static constexpr acc_type merge(acc_type a, acc_type b) { return a + b; }
        static constexpr result_type finalize(acc_type a, index_t n) {
            return static_cast<result_type>(a / static_cast<double>(n));
        }
    };
};

/// numpy.max (amax): keeps the type; NaN propagates; no identity (an empty axis under a
/// non-empty result throws `value_error`).
struct max {
    static constexpr std::string_view name = "max";
    static constexpr std::string_view numpy_name = "maximum";
    static constexpr bool single_axis = false;
    template <class T>
    struct impl {
        using acc_type = T;
        using result_type = T;
        static constexpr bool has_identity = false;
        static constexpr bool needs_index = false;
        static constexpr acc_type identity() { return detail::lowest<T>(); }
        FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
            return (v > a || detail::is_nan(v)) ? v : a;
        }
        static constexpr acc_type merge(acc_type a, acc_type b) { return step(a, b, 0); }
        static constexpr result_type finalize(acc_type a, index_t) { return a; }
    };
};

/// numpy.min (amin): as `max`, the other way.
struct min {
    static constexpr std::string_view name = "min";
    static constexpr std::string_view numpy_name = "minimum";
    static constexpr bool single_axis = false;
    template <class T>
    struct impl {
        using acc_type = T;
        using result_type = T;
        static constexpr bool has_identity = false;
        static constexpr bool needs_index = false;
        static constexpr acc_type identity() { return detail::highest<T>(); }
        FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
            return (v < a || detail::is_nan(v)) ? v : a;
        }
        static constexpr acc_type merge(acc_type a, acc_type b) { return step(a, b, 0); }
        static constexpr result_type finalize(acc_type a, index_t) { return a; }
    };
};

namespace detail {
// Arg-reductions keep (best value, its index). A candidate wins when strictly better, or when
// it is the first NaN (NumPy reports the first NaN); ties keep the earlier index.
template <class T, bool Greater>
struct arg_impl {
    struct acc_type {
        T best;
        std::int64_t index;
    };
    using result_type = std::int64_t;
    static constexpr bool has_identity = false;
    static constexpr bool needs_index = true;
    static constexpr acc_type identity() { return {Greater ? lowest<T>() : highest<T>(), 0}; }
    FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t i) {
        const bool better = Greater ? (v > a.best) : (v < a.best);
        return (better || (is_nan(v) && !is_nan(a.best))) ? acc_type{v, i} : a;
    }
    static constexpr acc_type merge(acc_type a, acc_type b) {
        const bool better = Greater ? (b.best > a.best) : (b.best < a.best);
        return (better || (is_nan(b.best) && !is_nan(a.best))) ? b : a;
    }
    static constexpr result_type finalize(acc_type a, index_t) { return a.index; }
};
} // namespace detail

/// numpy.argmax: int64 index of the first maximum (the first NaN if any); along one axis, or
/// the flat row-major index when no axis is given. No identity.
struct argmax {
    static constexpr std::string_view name = "argmax";
    static constexpr std::string_view numpy_name = "argmax";
    static constexpr bool single_axis = true;
    template <class T>
    using impl = detail::arg_impl<T, true>;
};

/// numpy.argmin: as `argmax`, for the first minimum.
struct argmin {
    static constexpr std::string_view name = "argmin";
    static constexpr std::string_view numpy_name = "argmin";
    static constexpr bool single_axis = true;
    template <class T>
    using impl = detail::arg_impl<T, false>;
};

/// numpy.all: true when every element is non-zero; identity true; result bool.
struct all {
    static constexpr std::string_view name = "all";
    static constexpr bool single_axis = false;
    template <class T>
    struct impl {
        using acc_type = bool;
        using result_type = bool;
        static constexpr bool has_identity = true;
        static constexpr bool needs_index = false;
        static constexpr acc_type identity() { return true; }
        FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
            return a && static_cast<bool>(v);
        }
        static constexpr acc_type merge(acc_type a, acc_type b) { return a && b; }
        static constexpr result_type finalize(acc_type a, index_t) { return a; }
    };
};

/// numpy.any: true when some element is non-zero; identity false; result bool.
struct any {
    static constexpr std::string_view name = "any";
    static constexpr bool single_axis = false;
    template <class T>
    struct impl {
        using acc_type = bool;
        using result_type = bool;
        static constexpr bool has_identity = true;
        static constexpr bool needs_index = false;
        static constexpr acc_type identity() { return false; }
        FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
            return a || static_cast<bool>(v);
        }
        static constexpr acc_type merge(acc_type a, acc_type b) { return a || b; }
        static constexpr result_type finalize(acc_type a, index_t) { return a; }
    };
};

} // namespace fusor::reducers
