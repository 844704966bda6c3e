// fusor/algo/quantile.hpp: median, percentile, quantile and their NaN-ignoring forms
// (numpy.median, numpy.percentile, numpy.quantile, numpy.nanmedian, ...). Eager: each lane (the
// elements of the reduced axes at one position of the kept axes) is copied once into a reused
// buffer and the order statistics it needs are selected there (detail::select_nth, a
// branchless quickselect), never sorted.
// The arithmetic after the selection is NumPy 1.24's, step for step, so results are bit-equal.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/algo/partition.hpp>
#include <fusor/config.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/parallel.hpp>
#include <fusor/core/rounding.hpp> // rounded: NumPy's products, rounded before they are added
#include <fusor/exec/assign.hpp>
#include <fusor/exec/threads.hpp>
#include <fusor/reduce/reduction.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

/// The `method=` of numpy.quantile / numpy.percentile (NumPy 1.22+ names; Hyndman & Fan's
/// sample quantiles). With n elements in a lane and q in [0, 1]:
///
/// | method | position in the sorted lane |
/// |---|---|
/// | `linear` (default) | `(n - 1) q`, interpolated |
/// | `lower` / `higher` / `nearest` | `floor` / `ceil` / round-half-even of `(n - 1) q` |
/// | `midpoint` | halfway between `lower` and `higher` |
/// | `inverted_cdf` | `n q - 1`, the next element unless exact |
/// | `averaged_inverted_cdf` | as `inverted_cdf`, averaging the two neighbours when exact |
/// | `closest_observation` | `n q - 1.5`, ties to the even position |
/// | `interpolated_inverted_cdf` | `n q - 1`, interpolated (alpha 0, beta 1) |
/// | `hazen` | `n q - 0.5`, interpolated (alpha = beta = 1/2) |
/// | `weibull` | `(n + 1) q - 1`, interpolated (alpha = beta = 0) |
/// | `median_unbiased` | alpha = beta = 1/3 |
/// | `normal_unbiased` | alpha = beta = 3/8 |
///
/// `lower`, `higher`, `nearest`, `inverted_cdf` and `closest_observation` are discrete (they
/// return an element of the lane); the others interpolate.
enum class quantile_method {
    linear,
    lower,
    higher,
    nearest,
    midpoint,
    inverted_cdf,
    averaged_inverted_cdf,
    closest_observation,
    interpolated_inverted_cdf,
    hazen,
    weibull,
    median_unbiased,
    normal_unbiased,
};

/// The quantiles asked of `quantile`/`percentile`: one number (`0.25`: the result has the
/// reduced shape), a list (`{0.25, 0.75}` or a `std::vector<double>`: the result gets a
/// leading axis of the list's length, as NumPy's 1-d `q`) or an expression of any shape and
/// real type (`linspace(0.0, 1.0, 5)`, a (2, 2) tensor: the result's shape starts with `q`'s,
/// as NumPy's n-d `q`; a 0-d `q` counts as one number). Converts implicitly from each; an
/// expression is evaluated once, as float64 (a float32 `q` is widened exactly; NumPy 1.24
/// computes a float32 `q`'s positions in float32).
struct quantiles {
    std::vector<double> values; ///< row-major
    shape_t shape;              ///< `q`'s shape: () for one number, (n,) for a list

    quantiles(double q) : values{q} {}
    quantiles(std::initializer_list<double> q)
        : values(q), shape{static_cast<index_t>(values.size())} {}
    quantiles(std::vector<double> q)
        : values(std::move(q)), shape{static_cast<index_t>(values.size())} {}
    // clang-format off
    template <class E>
        requires(expression<E> && !std::is_same_v<value_type_t<E>, bool>)
    quantiles(const E& q) : shape(q.shape()) {
        // clang-format on
        const tensor<double> t(q); // one fused loop, cast to float64
        values.assign(t.data(), t.data() + t.size());
    }
};

namespace detail {

// Result type of median/nanmedian: numpy.mean's of the middle elements (floats keep their
// type; bool and integers give float64).
template <class T>
using median_result_t = std::conditional_t<std::is_floating_point_v<T>, T, double>;

// `b - a` in T's own arithmetic, as NumPy's subtract of two elements of the array: float32 stays
// float32, integers wrap (two's complement) on overflow. Bool never reaches here.
template <class T>
double element_difference(T b, T a) {
    if constexpr (std::is_floating_point_v<T>)
        return static_cast<double>(static_cast<T>(b - a));
    else {
        using U = std::make_unsigned_t<T>;
        return static_cast<double>(static_cast<T>(static_cast<U>(b) - static_cast<U>(a)));
    }
}

// NumPy's _lerp(a, b, t): `a + (b - a) t`, or `b - (b - a)(1 - t)` when t >= 0.5 (exact at
// t = 1 and monotone). `b - a` in T (element_difference), the rest in float64.
template <class T>
double numpy_lerp(T a, T b, double t) {
    const double d = element_difference(b, a);
    if (t >= 0.5)
        return static_cast<double>(b) - rounded(d * (1.0 - t));
    return static_cast<double>(a) + rounded(d * t);
}

// One quantile of a lane of n >= 1 elements: the sorted positions it reads and its weight.
struct quantile_point {
    index_t prev = 0, next = 0; // positions in the sorted lane (equal for discrete methods)
    double gamma = 0;           // weight of `next` in numpy_lerp
    bool discrete = false;      // take element `prev` as is
};

FUSOR_DECL bool is_discrete(quantile_method m);

// NumPy's np.around (round half to even) of a non-negative position.
FUSOR_DECL double round_half_even(double v);

// NumPy's _compute_virtual_index: `n q + (alpha + q (1 - alpha - beta)) - 1`, in that order.
FUSOR_DECL double virtual_index(double n, double q, double alpha, double beta);

// NumPy's _quantile index arithmetic for one q (function_base.py: _QuantileMethods,
// _get_indexes, _get_gamma, _discret_interpolation_to_boundaries), for n >= 1.
FUSOR_DECL quantile_point quantile_position(index_t n, double q, quantile_method m);

// Every quantile of a lane of n elements and the sorted positions they read (ascending, no
// repeats): what select_positions places before the quantiles are read.
struct quantile_plan {
    index_t n = -1;
    std::vector<quantile_point> points;
    std::vector<index_t> positions;

    FUSOR_LAZY void build(index_t count, const std::vector<double>& q, quantile_method m) {
        n = count;
        points.clear();
        positions.clear();
        for (double v : q) {
            const quantile_point p = quantile_position(count, v, m);
            points.push_back(p);
            positions.push_back(p.prev);
            positions.push_back(p.next);
        }
        std::sort(positions.begin(), positions.end());
        positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    }
};

// The lanes of a reduction over some axes of a row-major tensor: one lane per element of the
// kept axes, in row-major order (the result's order), holding the elements of the reduced axes
// (in row-major order; the statistics here do not depend on it). Adjacent axes of one kind
// are merged when contiguous (`x`'s strides: stride[a] == stride[a + 1] * extent[a + 1]), so
// `median(x, {1, 2})` of (a, b, c) reads lanes of b * c contiguous elements.
class reduced_lanes {
public:
    reduced_lanes(const shape_t& shape, const shape_t& axes) {
        const strides_t strides = row_major_strides(shape);
        std::size_t next = 0;
        for (index_t k = 0; k < shape.rank(); ++k) {
            const auto u = static_cast<std::size_t>(k);
            const bool reduced = next < axes.size() && axes[next] == k;
            next += reduced ? 1 : 0;
            (reduced ? length_ : count_) *= shape[u];
            if (shape[u] != 1)
                append(reduced ? reduced_ : kept_, shape[u], strides[u]);
        }
    }

    /// Number of lanes (the product of the kept extents).
    index_t count() const { return count_; }
    /// Elements per lane (the product of the reduced extents).
    index_t length() const { return length_; }

    /// Most lanes `gather` reads together: when the last axis is kept, lanes next to each other
    /// along it start one element apart, and reading `B` of them per step reads whole cache
    /// lines instead of one element per line (median(x, 0) of a (4096, 4096) float32 tensor:
    /// 16 lanes per sweep down the rows). The B lanes (B * length elements) stay within 1 MiB.
    template <class T>
    index_t max_block() const {
        if (kept_.empty() || kept_.back().stride != 1 || length_ <= 1)
            return 1;
        const index_t line = std::max<index_t>(1, 64 / static_cast<index_t>(sizeof(T)));
        const index_t budget = (index_t{1} << 20) / (length_ * static_cast<index_t>(sizeof(T)));
        return std::clamp<index_t>(budget, 1, line);
    }

    /// How many lanes from `lane` gather may take at once (at most `limit`): they must lie in
    /// one run of the innermost kept axis.
    index_t block(index_t lane, index_t limit) const {
        if (limit <= 1)
            return 1;
        const index_t run = kept_.back().extent;
        return std::min(limit, run - lane % run);
    }

    /// Copies lanes [lane, lane + b) of `x` to `dst`, lane j at `dst + j * length()`.
    template <class T>
    void gather(const T* x, index_t lane, index_t b, T* dst) const {
        const T* base = x + offset(lane);
        const dim inner = reduced_.empty() ? dim{1, 0} : reduced_.back();
        const std::size_t outer_dims = reduced_.empty() ? 0 : reduced_.size() - 1;
        // odometer digits of the outer reduced dimensions: on the stack up to 8 (a rank up to
        // 16), on the heap beyond
        index_t small[8] = {};
        std::vector<index_t> large(outer_dims > 8 ? outer_dims : 0);
        index_t* counter = outer_dims > 8 ? large.data() : small;
        index_t off = 0;
        for (index_t j = 0; j < length_; j += inner.extent) {
            const T* p = base + off;
            if (b == 1) {
                T* d = dst + j;
                if (inner.stride == 1)
                    std::copy(p, p + inner.extent, d);
                else
                    for (index_t k = 0; k < inner.extent; ++k)
                        d[k] = p[k * inner.stride];
            } else {
                for (index_t k = 0; k < inner.extent; ++k)
                    for (index_t l = 0; l < b; ++l)
                        dst[l * length_ + j + k] = p[k * inner.stride + l];
            }
            // odometer over the reduced dimensions outside the innermost
            for (std::size_t d = outer_dims; d-- > 0;) {
                off += reduced_[d].stride;
                if (++counter[d] < reduced_[d].extent)
                    break;
                off -= reduced_[d].stride * reduced_[d].extent;
                counter[d] = 0;
            }
        }
    }

private:
    struct dim {
        index_t extent, stride;
    };
    static void append(std::vector<dim>& dims, index_t extent, index_t stride) {
        if (!dims.empty() && dims.back().stride == stride * extent) {
            dims.back().extent *= extent;
            dims.back().stride = stride;
        } else
            dims.push_back({extent, stride});
    }

    index_t offset(index_t lane) const {
        index_t off = 0;
        for (std::size_t d = kept_.size(); d-- > 0;) {
            off += (lane % kept_[d].extent) * kept_[d].stride;
            lane /= kept_[d].extent;
        }
        return off;
    }

    index_t count_ = 1, length_ = 1;
    std::vector<dim> kept_, reduced_;
};

// Calls `per_lane(state, values, lane)` for every lane, `values` a writable copy of the lane
// (length() elements) in a buffer reused across lanes; `state` is one `make_state()` per
// thread. Lanes are split into chunks whose size depends only on the shape, and every lane is
// computed alone, so results do not depend on the thread count.
template <class T, class MakeState, class PerLane>
void for_each_reduced_lane(const T* x,
                           const reduced_lanes& lanes,
                           MakeState&& make_state,
                           PerLane&& per_lane) {
    const index_t n = lanes.length(), count = lanes.count();
    if (count == 0)
        return;
    const index_t block = lanes.max_block<T>();
    const index_t work = count * std::max<index_t>(n, 1);
    const int threads = work >= parallel_threshold ? num_threads() : 1;
    // chunks of at least parallel_grain elements, whole blocks
    index_t chunk = std::max<index_t>(1, parallel_grain / std::max<index_t>(n, 1));
    chunk = (chunk + block - 1) / block * block;
    using state_t = std::invoke_result_t<MakeState&>;
    struct local {
        std::unique_ptr<T[]> buffer; // not std::vector: vector<bool> has no data()
        state_t state;
    };
    exec::parallel_chunks(
        threads,
        count,
        chunk,
        [&] {
            return local{std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(block * n)),
                         make_state()};
        },
        [&](local& l, index_t begin, index_t end) {
            for (index_t lane = begin; lane < end;) {
                const index_t b = lanes.block(lane, std::min(block, end - lane));
                lanes.gather(x, lane, b, l.buffer.get());
                for (index_t j = 0; j < b; ++j)
                    per_lane(l.state, l.buffer.get() + j * n, lane + j);
                lane += b;
            }
        });
}

// True when a float lane holds a NaN (one vectorisable pass, no early exit).
template <class T>
bool lane_has_nan(const T* v, index_t n) {
    bool any = false;
    for (index_t k = 0; k < n; ++k)
        any |= v[k] != v[k];
    return any;
}

// Moves the numbers of a float lane to its front (in order), returns how many there are.
template <class T>
index_t drop_nan(T* v, index_t n) {
    index_t c = 0;
    for (index_t k = 0; k < n; ++k) {
        const T e = v[k];
        v[c] = e;
        c += e == e ? 1 : 0;
    }
    return c;
}

// The numbers of a lane: all n, or with `Nan` only the non-NaN ones (moved to the front); -1
// when a float lane holds a NaN and `Nan` is off (the result is NaN, as NumPy's).
template <bool Nan, class T>
index_t lane_numbers(T* v, index_t n) {
    if constexpr (std::is_floating_point_v<T>) {
        if constexpr (Nan)
            return drop_nan(v, n);
        else
            return lane_has_nan(v, n) ? -1 : n;
    } else
        return n;
}

// The tensor `e` evaluated: `e` itself when it is already a tensor<T> (no copy).
template <class E>
struct evaluated {
    using T = value_type_t<E>;
    std::optional<tensor<T>> held;
    const tensor<T>& get(const E& e) {
        if constexpr (std::is_same_v<std::remove_cvref_t<E>, tensor<T>>)
            return e;
        else {
            held.emplace(eval(e));
            return *held;
        }
    }
};

// Sorted reduced axes (all when `axes` is empty) and the result shape (with keepdims: 1 in
// their place). Throws as numpy's normalize_axis_tuple: axis_error, value_error on a repeat.
struct reduced_shape {
    shape_t axes, shape;

    FUSOR_LAZY
    reduced_shape(const shape_t& in, const std::optional<shape_t>& given, bool keepdims) {
        if (given)
            axes = normalize_axes(*given, in.rank());
        else
            for (index_t k = 0; k < in.rank(); ++k)
                axes.push_back(k);
        std::size_t next = 0;
        for (index_t k = 0; k < in.rank(); ++k) {
            const bool reduced = next < axes.size() && axes[next] == k;
            next += reduced ? 1 : 0;
            if (!reduced)
                shape.push_back(in[static_cast<std::size_t>(k)]);
            else if (keepdims)
                shape.push_back(1);
        }
    }
};

template <bool Nan, class E>
tensor<median_result_t<value_type_t<E>>>
median_impl(const E& e, const std::optional<shape_t>& axes, bool keepdims) {
    using T = value_type_t<E>;
    using R = median_result_t<T>;
    const reduced_shape rs(e.shape(), axes, keepdims);
    evaluated<E> ev;
    const tensor<T>& x = ev.get(e);
    tensor<R> out(rs.shape, uninitialized);
    const reduced_lanes lanes(x.shape(), rs.axes);
    R* o = out.data();
    for_each_reduced_lane(
        x.data(),
        lanes,
        [] { return 0; },
        [&](int, T* v, index_t lane) {
            const index_t c = lane_numbers<Nan>(v, lanes.length());
            if (c <= 0) { // NaN in the lane, no number (all NaN), or an empty lane (mean of
                          // nothing): NaN
                o[lane] = std::numeric_limits<R>::quiet_NaN();
                return;
            }
            // numpy.mean of the one or two middle elements: an add.reduce that starts from 0
            // (so -0.0 becomes +0.0), then a division by the count.
            const index_t h = c / 2;
            select_nth(v, v + h, v + c);
            if (c % 2 == 1) {
                o[lane] = R(0) + static_cast<R>(v[h]);
                return;
            }
            const T low = *std::max_element(v, v + h);
            o[lane] = (R(0) + static_cast<R>(low) + static_cast<R>(v[h])) / R(2);
        });
    return out;
}

template <bool Nan, class E>
tensor<double> quantile_impl(const E& e,
                             const quantiles& q,
                             const std::optional<shape_t>& axes,
                             bool keepdims,
                             quantile_method method) {
    using T = value_type_t<E>;
    const reduced_shape rs(e.shape(), axes, keepdims);
    shape_t shape = q.shape; // NumPy's q.shape + the reduced shape
    shape.insert(shape.end(), rs.shape.begin(), rs.shape.end());
    tensor<double> out(shape, uninitialized);
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    const index_t result_lanes = shape_size(rs.shape);
    evaluated<E> ev;
    const tensor<T>& x = ev.get(e);
    const reduced_lanes lanes(x.shape(), rs.axes);
    if constexpr (Nan) {
        if (x.size() == 0) { // nanquantile of nothing: NaN (NumPy returns nanmean's result)
            std::fill(out.data(), out.data() + out.size(), nan);
            return out;
        }
    } else if (lanes.length() == 0 && (!q.values.empty() || std::is_floating_point_v<T>))
        // NumPy's IndexError comes from taking the positions from an empty axis (none are
        // taken for an empty q list) and, for floats, from its NaN check of the last element.
        throw index_error("quantile: cannot take a quantile of an empty slice (the reduced axes "
                          "of shape "
                          + to_string(x.shape()) + " hold no element; NumPy: IndexError)");
    if (std::is_same_v<T, bool> && !is_discrete(method))
        throw value_error("quantile: an interpolating method on bool elements (NumPy's "
                          "TypeError: boolean subtract); use a discrete method or a cast");
    quantile_plan plan; // the one plan of lanes without NaN removed
    if constexpr (!Nan)
        plan.build(lanes.length(), q.values, method);
    double* o = out.data();
    for_each_reduced_lane(
        x.data(),
        lanes,
        [] { return quantile_plan{}; },
        [&](quantile_plan& own, T* v, index_t lane) {
            const index_t c = lane_numbers<Nan>(v, lanes.length());
            const std::size_t nq = q.values.size();
            if (c <= 0) {
                for (std::size_t i = 0; i < nq; ++i)
                    o[static_cast<index_t>(i) * result_lanes + lane] = nan;
                return;
            }
            if (Nan && own.n != c)
                own.build(c, q.values, method);
            const quantile_plan& p = Nan ? own : plan;
            select_positions(v, v + c, p.positions, select_less{});
            for (std::size_t i = 0; i < nq; ++i) {
                const quantile_point& pt = p.points[i];
                double r = 0;
                if constexpr (std::is_same_v<T, bool>)
                    r = static_cast<double>(v[pt.prev]);
                else
                    r = pt.discrete ? static_cast<double>(v[pt.prev])
                                    : numpy_lerp(v[pt.prev], v[pt.next], pt.gamma);
                o[static_cast<index_t>(i) * result_lanes + lane] = r;
            }
        });
    return out;
}

// numpy's _quantile_is_valid: every q in [0, 1] (NaN is not).
FUSOR_DECL void check_quantiles(const std::vector<double>& q, bool percent);

template <class O>
concept median_option = std::is_same_v<O, keepdims_t>;
template <class O>
concept quantile_option = std::is_same_v<O, keepdims_t> || std::is_same_v<O, quantile_method>;

struct quantile_options {
    bool keepdims = false;
    quantile_method method = quantile_method::linear;
};
template <class... O>
quantile_options parse_quantile_options(O... o) {
    quantile_options r;
    auto one = [&](auto opt) {
        if constexpr (std::is_same_v<decltype(opt), keepdims_t>)
            r.keepdims = true;
        else
            r.method = opt;
    };
    (one(o), ...);
    (void)one; // unused when there are no options
    return r;
}

} // namespace detail

/// The call forms of `median`/`nanmedian`, those of every reduction (reduce/reduction.hpp):
/// `f(e)` (every axis → 0-d), `f(e, axis)`, `f(e, {0, 2})` / `f(e, shape_t{...})` (`{}`
/// reduces nothing), then `fusor::keepdims` optionally. Eager: returns a tensor.
template <bool Nan>
struct median_fn {
    template <class E, class... O>
        requires(expression<E> && (detail::median_option<O> && ...))
    auto operator()(const E& e, O...) const {
        return detail::median_impl<Nan>(e, std::nullopt, sizeof...(O) > 0);
    }
    template <class E, class I, class... O>
        requires(expression<E>&& std::is_integral_v<I> && (detail::median_option<O> && ...))
    auto operator()(const E& e, I axis, O...) const {
        return detail::median_impl<Nan>(e, shape_t{static_cast<index_t>(axis)}, sizeof...(O) > 0);
    }
    template <class E, class... O>
        requires(expression<E> && (detail::median_option<O> && ...))
    auto operator()(const E& e, std::initializer_list<index_t> axes, O...) const {
        return detail::median_impl<Nan>(e, shape_t(axes), sizeof...(O) > 0);
    }
    template <class E, class... O>
        requires(expression<E> && (detail::median_option<O> && ...))
    auto operator()(const E& e, const shape_t& axes, O...) const {
        return detail::median_impl<Nan>(e, axes, sizeof...(O) > 0);
    }
};

/// The call forms of `quantile`, `percentile` and their nan- forms: `f(e, q)` (every axis),
/// `f(e, q, axis)`, `f(e, q, {0, 2})` / `f(e, q, shape_t{...})`, then in any order
/// `fusor::keepdims` and a `quantile_method` (default `linear`). `q` is a number or a list
/// (see `quantiles`). Eager: returns a `tensor<double>`.
template <bool Nan, bool Percent>
struct quantile_fn {
    template <class E, class... O>
        requires(expression<E> && (detail::quantile_option<O> && ...))
    tensor<double>
    operator()(const E& e, quantiles q, O... opts) const {
        return run(e, std::move(q), std::nullopt, detail::parse_quantile_options(opts...));
    }
    template <class E, class I, class... O>
        requires(expression<E>&& std::is_integral_v<I> && (detail::quantile_option<O> && ...))
    tensor<double>
    operator()(const E& e, quantiles q, I axis, O... opts) const {
        return run(e,
                   std::move(q),
                   shape_t{static_cast<index_t>(axis)},
                   detail::parse_quantile_options(opts...));
    }
    template <class E, class... O>
        requires(expression<E> && (detail::quantile_option<O> && ...))
    tensor<double>
    operator()(const E& e, quantiles q, std::initializer_list<index_t> axes, O... opts) const {
        return run(e, std::move(q), shape_t(axes), detail::parse_quantile_options(opts...));
    }
    template <class E, class... O>
        requires(expression<E> && (detail::quantile_option<O> && ...))
    tensor<double>
    operator()(const E& e, quantiles q, const shape_t& axes, O... opts) const {
        return run(e, std::move(q), axes, detail::parse_quantile_options(opts...));
    }

private:
    template <class E>
    static tensor<double>
    run(const E& e, quantiles q, const std::optional<shape_t>& axes, detail::quantile_options opt) {
        if constexpr (Percent)
            for (double& v : q.values)
                v = v / 100.0; // numpy.true_divide(q, 100), checked after the division
        detail::check_quantiles(q.values, Percent);
        return detail::quantile_impl<Nan>(e, q, axes, opt.keepdims, opt.method);
    }
};

/// `median(e, axes…, keepdims)` (numpy.median): the middle element of each lane over the
/// reduced axes, or the mean of the two middle elements (`(0 + low + high) / 2`, as NumPy's
/// mean: -0.0 gives +0.0). Shape: the reduced shape, as `sum`. Type: floats keep theirs, bool and
/// integers give float64. A lane holding a NaN gives NaN; an empty lane gives NaN (NumPy warns
/// "Mean of empty slice"). Throws `axis_error` (axis out of range; any axis of a 0-d operand),
/// `value_error` (repeated axis). Selection per lane, never a sort: `median(x, 1)` of a
/// (4096, 4096) float32 tensor takes about a quarter of NumPy's time on one thread.
/// Example: `median(tensor<int>{{1, 5, 2}, {4, 3, 6}}, 1)` → `[2., 4.]`.
inline constexpr median_fn<false> median{};
/// `nanmedian(e, axes…, keepdims)` (numpy.nanmedian): `median` of the non-NaN elements of
/// each lane; a lane with no number (all NaN, or empty) gives NaN (NumPy warns "All-NaN slice
/// encountered"). Shapes, types and exceptions as `median`.
inline constexpr median_fn<true> nanmedian{};
/// `quantile(e, q, axes…, method, keepdims)` (numpy.quantile): the q-th quantiles (q in [0, 1])
/// of each lane over the reduced axes by `method` (`quantile_method`, default `linear`), with
/// NumPy's arithmetic (`a + (b - a) g`, or `b - (b - a)(1 - g)` when g >= 0.5; `b - a` in the
/// element type). Shape: the reduced shape, with a leading axis of `len(q)` when `q` is a list.
/// Type: `double` always (NumPy: float64 for the interpolating methods and any input; the
/// discrete methods return the input's dtype there, here the same value as a double, exact
/// unless an int64 exceeds 2^53). A lane holding a NaN gives NaN. Throws `value_error` for q
/// outside [0, 1] or NaN, and for bool elements with an interpolating method (NumPy's
/// TypeError); `index_error` when the reduced axes hold no element (NumPy's IndexError, even
/// for an empty result); `axis_error` / `value_error` for a bad / repeated axis.
/// Example: `quantile(x, {0.25, 0.75}, 1, quantile_method::midpoint)`.
inline constexpr quantile_fn<false, false> quantile{};
/// `percentile(e, q, axes…, method, keepdims)` (numpy.percentile): `quantile` with q in
/// [0, 100] (divided by 100 first, then checked: `value_error` outside). Example:
/// `percentile(x, 90.0, 0)`.
inline constexpr quantile_fn<false, true> percentile{};
/// `nanquantile(e, q, axes…, method, keepdims)` (numpy.nanquantile): `quantile` of the non-NaN
/// elements of each lane; a lane with no number gives NaN (NumPy warns "All-NaN slice
/// encountered"), and so does every lane when `e` has no element (NumPy 1.24 then returns
/// nanmean's result, without the q axis; here the shape keeps it). Throws as `quantile`,
/// except that empty reduced axes give NaN.
inline constexpr quantile_fn<true, false> nanquantile{};
/// `nanpercentile(e, q, axes…, method, keepdims)` (numpy.nanpercentile): `nanquantile` with q
/// in [0, 100].
inline constexpr quantile_fn<true, true> nanpercentile{};

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/quantile.ipp>
#endif
