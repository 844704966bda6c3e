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
#include <fusor/core/rounding.hpp>
#include <fusor/core/shape.hpp>

namespace fusor::reducers {

// Every reducer `R` provides, for an input element type `T`, `R::impl<T>` with:
//   acc_type, result_type, identity(), step(acc, v, index), merge(earlier, later),
//   finalize(acc, count); `has_identity` (false: an empty axis under a non-empty result
//   throws) and `needs_index` (arg-reductions read the candidate's index).
// `merge` combines two partial results (of consecutive or interleaved ranges, the earlier
// first): it is associative, and arg-reductions break ties by index, so first-occurrence
// rules hold however the executor splits the work.
// Additive reducers also set `pairwise` and give `term(v)` and `absorb(acc, double)`: the
// executor then sums an innermost loop's terms in registers and absorbs the total (see
// detail::additive_impl).

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

// A compensated sum: the running sum plus the running total of the rounding errors of every
// addition, each computed exactly by Knuth's branch-free TwoSum (t = s + x, z = t - s, error
// (s - (t - z)) + (x - z)), folded back in at the end. As Kahan–Babuška–Neumaier summation its
// error is ~2 eps |sum| plus an n eps^2 sum|x| term whatever the number of terms: tighter than
// pairwise summation's O(eps log n) sum|x|. Branch-free, so rows of accumulators vectorise,
// and it works the same in a register and in a row, so sums along outer axes are as exact as
// along the contiguous one. Used for 8-byte inputs (float64, and int64/uint64 going through
// double). Narrower inputs accumulate in plain double (pairwise along the innermost loop),
// whose error is far below their own rounding for any n below 2^29.
struct compensated_sum {
    double sum = 0.0;
    double correction = 0.0;
};
FUSOR_INLINE constexpr double add(double a, double x) {
    return a + x;
}
// TwoSum (Knuth): `sum + x` rounded into `sum`, its rounding error added to `correction`. `V`:
// double, or a vector of doubles (the two-rows kernel's registers, exec/execute.hpp).
template <class V>
FUSOR_INLINE constexpr void two_sum_into(V& sum, V& correction, const V& x) {
    const V t = sum + x;
    const V z = t - sum;
    correction += (sum - (t - z)) + (x - z);
    sum = t;
}
FUSOR_INLINE constexpr compensated_sum add(compensated_sum a, double x) {
    two_sum_into(a.sum, a.correction, x);
    return a;
}
constexpr double merge_sums(double a, double b) {
    return a + b;
}
constexpr compensated_sum merge_sums(compensated_sum a, compensated_sum b) {
    a = add(a, b.sum);
    a.correction += b.correction;
    return a;
}
constexpr double total(double a) {
    return a;
}
// An infinite or NaN running sum makes the correction NaN (inf - inf); the sum alone is the
// answer then, as in a plain loop.
constexpr double total(compensated_sum a) {
    return (a.sum - a.sum == 0.0) ? a.sum + a.correction : a.sum;
}
template <class T>
using float_acc_t = std::conditional_t<sizeof(T) == 8, compensated_sum, double>;

// The shared body of the additive reducers (sum of floats, mean, norm): each element adds
// `Derived::term(v)` (a double) to the accumulator. `pairwise = true` gives an innermost
// loop that reduces its own register treatment (exec/execute.hpp): eight
// compensated lanes for float64, NumPy's pairwise blocks in plain double otherwise; the
// loop's total joins the accumulator through `absorb`/`merge`.
template <class T, class Derived>
struct additive_impl {
    using acc_type = float_acc_t<T>;
    static constexpr bool has_identity = true;
    static constexpr bool needs_index = false;
    static constexpr bool pairwise = true;
    static constexpr acc_type identity() { return acc_type{}; }
    FUSOR_INLINE static constexpr acc_type absorb(acc_type a, double x) { return add(a, x); }
    FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
        return add(a, Derived::term(v));
    }
    static constexpr acc_type merge(acc_type a, acc_type b) { return merge_sums(a, b); }
};
} // namespace detail

namespace detail {
// Integer sums wrap in int64/uint64 (two's complement, as NumPy): added as uint64, no UB.
template <class T>
struct integer_sum_impl {
    using acc_type = sum_acc_t<T>;
    using result_type = acc_type;
    static constexpr bool has_identity = true;
    static constexpr bool needs_index = false;
    static constexpr acc_type identity() { return acc_type(0); }
    static constexpr acc_type merge(acc_type a, acc_type b) {
        return static_cast<acc_type>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
    }
    FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
        return merge(a, static_cast<acc_type>(v));
    }
    static constexpr result_type finalize(acc_type a, index_t) { return a; }
};
template <class T>
struct float_sum_impl : additive_impl<T, float_sum_impl<T>> {
    using result_type = T;
    /// term(v) is v in double: a register of elements converted is a register of terms
    /// (reduce_kernel::pairwise_simd).
    static constexpr bool term_is_element = true;
    /// float32 runs from planning::sum_float_lane_min_run terms are added 16 terms to a float
    /// lane, the lanes in double (reduce_kernel::float_lanes).
    static constexpr bool float_lanes = std::is_same_v<T, float>;
    FUSOR_INLINE static constexpr double term(T v) { return static_cast<double>(v); }
    static constexpr result_type finalize(typename float_sum_impl::acc_type a, index_t) {
        return static_cast<T>(total(a));
    }
};
} // namespace detail

/// numpy.sum: identity 0; bool and signed integers give int64, unsigned uint64 (wrapping as
/// NumPy), floats keep their type. Floating sums accumulate in double, pairwise along the
/// innermost loop (float32 and narrower; a float32 run of 256 or more adds each term in float
/// with at most 15 others first, as NumPy's partial sums), compensated (TwoSum error terms) for
/// float64: see docs/reductions.md.
struct sum {
    static constexpr std::string_view name = "sum";
    static constexpr bool single_axis = false;
    template <class T>
    using impl = std::conditional_t<std::is_floating_point_v<T>,
                                    detail::float_sum_impl<T>,
                                    detail::integer_sum_impl<T>>;
};

namespace detail {
template <class T>
struct mean_impl : additive_impl<T, mean_impl<T>> {
    using result_type = std::conditional_t<std::is_floating_point_v<T>, T, double>;
    static constexpr bool term_is_element = true;                 ///< as float_sum_impl's
    static constexpr bool float_lanes = std::is_same_v<T, float>; ///< as float_sum_impl's
    FUSOR_INLINE static constexpr double term(T v) { return static_cast<double>(v); }
    static constexpr result_type finalize(typename mean_impl::acc_type a, index_t n) {
        return static_cast<result_type>(total(a) / static_cast<double>(n));
    }
};
template <class T>
struct norm_impl : additive_impl<T, norm_impl<T>> {
    using result_type = std::conditional_t<std::is_floating_point_v<T>, T, double>;
    // NumPy squares in its own ufunc call (`sqrt(add.reduce(x * x))`), so the square is rounded
    // before it is added. On an FMA target g++ would fuse it into the sum's add, differently in
    // different kernels; the opaque value keeps every kernel's bits NumPy's. (Without FMA there
    // is nothing to fuse, and the plain product leaves the loops free to vectorise.)
    FUSOR_INLINE static double term(T v) {
        const double x = static_cast<double>(v);
#if FUSOR_FMA_TARGET
        return fusor::detail::rounded(x * x);
#else
        return x * x;
#endif
    }
    static result_type finalize(typename norm_impl::acc_type a, index_t) {
        return static_cast<result_type>(std::sqrt(total(a)));
    }
};
} // namespace detail

/// numpy.mean: the sum (accumulated as `sum` does) divided by the number of elements reduced;
/// integers and bool give float64, floats keep their type; the mean of nothing is NaN.
struct mean {
    static constexpr std::string_view name = "mean";
    static constexpr bool single_axis = false;
    template <class T>
    using impl = detail::mean_impl<T>;
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
        static constexpr int order = 1; // keeps the greater (the vector kernel's cue)
        static constexpr acc_type identity() { return detail::lowest<T>(); }
        // The greater as its own select, then NaN: g++ compiles this to `maxss` and a NaN test
        // that is never taken on real data. Written as one `(v > a) | is_nan(v)` condition it
        // branched on the comparison, mispredicted whenever a random row's running maximum
        // changed (about 3 times in a row of 10).
        FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
            const acc_type greater = v > a ? v : a;
            return detail::is_nan(v) ? v : greater;
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
        static constexpr int order = -1; // keeps the lesser
        static constexpr acc_type identity() { return detail::highest<T>(); }
        FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
            const acc_type lesser = v < a ? v : a; // `minss`, as max's step
            return detail::is_nan(v) ? v : lesser;
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
    static constexpr int order = Greater ? 1 : -1;
    static constexpr acc_type identity() { return {Greater ? lowest<T>() : highest<T>(), 0}; }
    /// Whether candidate `v` replaces the kept `best`: strictly better, or the first NaN. The
    /// rule `step` applies (step computes it without a branch on the comparison); the
    /// arg-rows kernels (exec/arg_rows_kernel.hpp) apply it lane by lane.
    FUSOR_INLINE static constexpr bool wins(T v, T best) {
        const bool better = Greater ? (v > best) : (v < best);
        return better || (is_nan(v) && !is_nan(best));
    }
    // The value as a max (min) select and the index through a mask, then the first NaN: g++
    // branched on one `better || first NaN` condition, mispredicted on random rows (argmax over
    // rows of 10 ran 4x slower than max), and keeps only the rare NaN test as a branch here.
    FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t i) {
        const bool better = Greater ? (v > a.best) : (v < a.best);
        const std::int64_t mask = -static_cast<std::int64_t>(better);
        const acc_type kept{better ? v : a.best,
                            (static_cast<std::int64_t>(i) & mask) | (a.index & ~mask)};
        return (is_nan(v) && !is_nan(a.best)) ? acc_type{v, i} : kept;
    }
    // Partial results may come from interleaved lanes, so on a tie (equal values, or both
    // NaN) the lower index wins, not the left operand.
    static constexpr acc_type merge(acc_type a, acc_type b) {
        const bool a_nan = is_nan(a.best), b_nan = is_nan(b.best);
        if (a_nan || b_nan)
            return (a_nan && b_nan) ? (b.index < a.index ? b : a) : (a_nan ? a : b);
        const bool better = Greater ? (b.best > a.best) : (b.best < a.best);
        if (better)
            return b;
        return (b.best == a.best && b.index < a.index) ? b : a;
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

/// numpy.prod: identity 1; bool and signed integers give int64, unsigned uint64 (wrapping, as
/// NumPy), floats keep their type (accumulated in double).
struct prod {
    static constexpr std::string_view name = "prod";
    static constexpr bool single_axis = false;
    template <class T>
    struct impl {
        using acc_type = detail::sum_acc_t<T>;
        using result_type = detail::sum_result_t<T>;
        static constexpr bool has_identity = true;
        static constexpr bool needs_index = false;
        static constexpr acc_type identity() { return acc_type(1); }
        FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
            return merge(a, static_cast<acc_type>(v));
        }
        static constexpr acc_type merge(acc_type a, acc_type b) {
            if constexpr (std::is_integral_v<acc_type>)
                return static_cast<acc_type>(static_cast<std::uint64_t>(a)
                                             * static_cast<std::uint64_t>(b));
            else
                return a * b;
        }
        static constexpr result_type finalize(acc_type a, index_t) {
            return static_cast<result_type>(a);
        }
    };
};

namespace detail {
// A contraction's float sum: as `sum`'s, but free of NumPy's float32 bits for short rows (NumPy's
// einsum and matmul sum differently anyway), so every register run of 64 terms or more takes 32
// lanes (exec/execute.hpp, pairwise_terms): four chains of adds instead of one; float32 runs add
// 16 products per lane in float before each partial sum joins the double lanes (float_lane_sum),
// from 64 terms (planning::float_lane_min_run) where `sum` starts at 256.
template <class T>
struct contract_float_impl : float_sum_impl<T> {
    static constexpr bool wide_lanes = true;
};
// A contraction's integer sum: wraps in the product's own type, as numpy.einsum and matmul
// keep it (int8 @ int8 is int8); accumulated in 64 bits, whose low bits are the same.
template <class T>
struct wrapping_sum_impl : integer_sum_impl<T> {
    using result_type = T;
    static constexpr result_type finalize(typename integer_sum_impl<T>::acc_type a, index_t) {
        return static_cast<T>(a);
    }
};
} // namespace detail

/// The sum of a contraction (einsum, matmul, dot, tensordot ...: reduce/contraction.hpp): the
/// products' own type, as NumPy's contractions keep it. Floats as `sum` (in double, pairwise or
/// compensated); integers wrap in their type (`int8` stays `int8`); `bool` is logical or (the
/// sum of logical ands, as `numpy.matmul` on bool).
struct contract {
    static constexpr std::string_view name = "contract";
    static constexpr bool single_axis = false;
    /// The contraction of one term is that term, exactly, in the result type (a float32 product
    /// through double is exact; integers and bool are unchanged): with nothing summed
    /// (`einsum("i,j->ij")`, `einsum("ij->ji")`) the planner plans the element-wise loop of the
    /// products into the destination (`reduce_kernel::single_term`), with no accumulator.
    static constexpr bool one_term_is_result = true;
    template <class T>
    using impl = std::conditional_t<
        std::is_floating_point_v<T>,
        detail::contract_float_impl<T>,
        std::conditional_t<std::is_same_v<T, bool>, any::impl<T>, detail::wrapping_sum_impl<T>>>;
};

/// numpy.count_nonzero: the number of non-zero (true) elements, int64; identity 0.
struct count_nonzero {
    static constexpr std::string_view name = "count_nonzero";
    static constexpr bool single_axis = false;
    template <class T>
    struct impl {
        using acc_type = std::int64_t;
        using result_type = std::int64_t;
        static constexpr bool has_identity = true;
        static constexpr bool needs_index = false;
        static constexpr acc_type identity() { return 0; }
        FUSOR_INLINE static constexpr acc_type step(acc_type a, T v, index_t) {
            return a + (v != T(0) ? 1 : 0);
        }
        static constexpr acc_type merge(acc_type a, acc_type b) { return a + b; }
        static constexpr result_type finalize(acc_type a, index_t) { return a; }
    };
};

/// numpy.linalg.norm's Frobenius / 2-norm over the reduced elements: `sqrt(sum(x * x))`, the
/// squares summed as `sum` sums. Floats keep their type; bool and integers give float64 (as
/// numpy.linalg.norm). Of nothing: 0. Does not rescale: like NumPy it gives inf when the sum of
/// squares exceeds the double range.
struct norm {
    static constexpr std::string_view name = "norm";
    static constexpr bool single_axis = false;
    template <class T>
    using impl = detail::norm_impl<T>;
};

/// scipy.special.logsumexp: `log(sum(exp(x)))` without overflow, in one pass: the accumulator
/// keeps the running maximum m and the sum s of exp(x - m), rescaling s when m grows
/// (Milakov & Gimelshein's online softmax normaliser). All -inf gives -inf, any +inf gives
/// +inf, any NaN gives NaN; nothing gives -inf (log of an empty sum). Floats keep their type,
/// bool and integers give float64; the arithmetic is in double.
struct logsumexp {
    static constexpr std::string_view name = "logsumexp";
    static constexpr bool single_axis = false;
    template <class T>
    struct impl {
        struct acc_type {
            double max; ///< running maximum (-inf before the first element)
            double sum; ///< sum of exp(x - max)
        };
        using result_type = std::conditional_t<std::is_floating_point_v<T>, T, double>;
        static constexpr bool has_identity = true;
        static constexpr bool needs_index = false;
        /// A run may be taken in blocks (reduce_kernel::rescaled_blocks): each block's
        /// (maximum, sum of exp(x - maximum)) merged here, not one step per element.
        static constexpr bool rescaled_blocks = true;
        static constexpr acc_type identity() {
            return {-std::numeric_limits<double>::infinity(), 0.0};
        }
        static acc_type merge(acc_type a, acc_type b) {
            if (a.max != a.max || b.max != b.max) // NaN
                return {std::numeric_limits<double>::quiet_NaN(), 1.0};
            const acc_type& hi = b.max > a.max ? b : a;
            const acc_type& lo = b.max > a.max ? a : b;
            // An infinite maximum would make exp(lo.max - hi.max) NaN (inf - inf) or 0:
            // -inf adds nothing, +inf is the answer.
            if (lo.max == -std::numeric_limits<double>::infinity())
                return hi;
            if (hi.max == std::numeric_limits<double>::infinity())
                return {hi.max, 1.0};
            return {hi.max, hi.sum + lo.sum * std::exp(lo.max - hi.max)};
        }
        FUSOR_INLINE static acc_type step(acc_type a, T v, index_t) {
            return merge(a, acc_type{static_cast<double>(v), 1.0});
        }
        static result_type finalize(acc_type a, index_t) {
            if (a.max != a.max)
                return static_cast<result_type>(a.max);
            if (a.max == -std::numeric_limits<double>::infinity()
                || a.max == std::numeric_limits<double>::infinity())
                return static_cast<result_type>(a.max);
            return static_cast<result_type>(a.max + std::log(a.sum));
        }
    };
};

} // namespace fusor::reducers
