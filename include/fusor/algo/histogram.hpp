// fusor/algo/histogram.hpp: histogram, histogram_bin_edges, bincount and digitize.
//
// histogram follows numpy.histogram (1.24) to the bit: the same edges (numpy.linspace's float64
// arithmetic, rounded to the edges' type), the same bin of every value (NumPy's uniform-bin
// index `(x - first_edge) * norm` in NumPy's types, then its two corrections against the
// edges), the same weighted sums (per block of 65536 values, summed in float64 as
// numpy.bincount does, then cast to the weights' type and added). It reads its operand once,
// in one pass, without storing it: a tensor in place, an element-wise expression evaluated a
// chunk at a time into a small buffer (detail::chunk_reader).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/algo/chunked_read.hpp>
#include <fusor/algo/searching.hpp>
#include <fusor/config.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/convert.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/slice.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/plan/kernel_choice.hpp>
#include <fusor/reduce/reduction.hpp>
#include <fusor/tensor/factories.hpp> // detail::linspace_value: the edges
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

/// Option of `histogram` and `histogram_bin_edges` (numpy's `range=(lo, hi)`): the lower and
/// upper edge of the bins; values outside are ignored. `fusor::range{0.0, 1.0}`.
struct range {
    double lo, hi;
};

/// Option tag of `histogram` (numpy's `density=True`): the histogram as a probability density
/// (float64), each bin's count divided by the total and by the bin's width.
struct density_t {};
inline constexpr density_t density{};

/// Option of `histogram` (numpy's `weights=w`): `weights(w)` holds the expression `w` (of the
/// data's shape) as expressions hold their operands: an lvalue tensor by reference.
template <class N>
struct weights_t {
    N node;
};
template <class W>
    requires expression<W>
auto weights(W&& w) {
    return weights_t<node_t<W>>{as_node(std::forward<W>(w))};
}

/// What `histogram` returns: `hist` (the counts, weighted sums or densities) and `edges`.
/// Structured bindings work: `auto [hist, edges] = histogram(x, 10);`.
template <class H, class B>
struct histogram_result {
    tensor<H> hist;
    tensor<B> edges;
};

/// Where `histogram`'s uniform bins take their range from.
enum class histogram_range {
    given, ///< `range{lo, hi}`
    data,  ///< the data's minimum and maximum, found first (two reductions over the data)
    unit,  ///< no range and no data: NumPy's (0, 1)
    none,  ///< explicit edges: no range
};

/// The plan of one `histogram` call: every decision it runs by, made before any element is
/// read (`detail::plan_histogram`); `histogram` follows it and `explain_histogram` prints it.
struct histogram_plan {
    shape_t shape;          ///< the data's shape
    std::string_view dtype; ///< the data's element type (NumPy's name)
    read_plan data;         ///< how the data is read (`read_mode::whole`: evaluated first)
    bool weighted = false;  ///< `weights(w)` given
    read_plan weights;      ///< how the weights are read, when `weighted`
    std::string_view weights_dtype;
    index_t bins = 0;             ///< the number of bins (from explicit edges: edges − 1)
    bool explicit_edges = false;  ///< bins by binary search over given edges, else uniform bins
                                  ///< (a value's bin computed from it, then NumPy's corrections)
    bool edges_evaluated = false; ///< explicit edges given as an expression (or a strided view):
                                  ///< evaluated into a temporary first, else read in place
    histogram_range range = histogram_range::none;
    double lo = 0, hi = 0;       ///< the given range (`range == histogram_range::given`)
    bool density = false;        ///< `density`: float64 densities
    std::string_view hist_dtype; ///< the histogram's element type
};

namespace detail {

// ---- histogram -----------------------------------------------------------------------------

// numpy.bincount's block: numpy.histogram sums weights per block of this many values.
inline constexpr index_t numpy_histogram_block = 65536;

// What NumPy 1.24's value-based casting makes of a Python float next to a float32 array:
// float32 unless the value is finite and outside (-3.4e38, 3.4e38) (numpy.min_scalar_type).
FUSOR_DECL bool fits_float32(double v);

// numpy.linspace(start, stop, bins + 1) in float64, rounded to C at the end.
template <class C>
std::vector<C> numpy_linspace(double start, double stop, index_t bins) {
    std::vector<C> out(static_cast<std::size_t>(bins + 1));
    const double delta = stop - start;
    const double step = delta / static_cast<double>(bins);
    for (index_t k = 0; k <= bins; ++k)
        out[static_cast<std::size_t>(k)] =
            static_cast<C>(linspace_value(k, bins, start, delta, step)); // as fusor::linspace
    out[static_cast<std::size_t>(bins)] = static_cast<C>(stop);
    return out;
}

[[noreturn]] inline void bad_bin_index(double f, index_t bins) {
    throw index_error("histogram: the bin index " + std::to_string(f)
                      + " computed for a value is outside the " + std::to_string(bins + 1)
                      + " edges (the range is too narrow for its type; NumPy raises IndexError "
                        "here too)");
}

[[noreturn]] inline void negative_bin() {
    throw value_error("histogram: a value below the first edge was kept (numpy.bincount refuses "
                      "a negative bin)");
}

// numpy.histogram's bin of a value for uniform bins. T: the data's type; K: the type values are
// compared with the range in; C: the edges' type; M: the type of `(x - first) * norm`. Returns
// -1 for a value outside the range (or NaN).
template <class T, class K, class C, class M>
struct uniform_binner {
    index_t bins;
    K lo, hi;
    C first;
    M norm;
    const C* edges; // bins + 1

    FUSOR_INLINE index_t operator()(T v) const {
        const K k = static_cast<K>(v);
        if (!(k >= lo && k <= hi))
            return -1;
        const C x = static_cast<C>(v);
        const double f = static_cast<double>(static_cast<M>(x - first) * norm);
        if (!(f >= 0.0 && f < static_cast<double>(bins) + 1.0)) [[unlikely]]
            bad_bin_index(f, bins);
        index_t i = static_cast<index_t>(f);
        if (i == bins)
            --i;
        if (x < edges[i])
            --i;
        if (i != bins - 1 && x >= edges[i + 1])
            ++i;
        if (i < 0) [[unlikely]]
            negative_bin();
        return i;
    }

    /// The same bins for `n` values at once, written to `out` (`bins` for a value outside the
    /// range), branch-free so that g++ vectorises it (the edges are read by gathers). Values
    /// whose bin NumPy would refuse are found afterwards by `operator()`, which throws.
    /// Needs `bins < 2^24` (exact as a float32 bound, and an int32 index).
    FUSOR_INLINE void fill(const T* p, index_t n, std::int32_t* out) const {
        // Locals, and an int32 flag rather than a bool: with either a field or a bool
        // reduction in the loop g++ does not vectorise it.
        const auto nb = static_cast<std::int32_t>(bins);
        const M top = static_cast<M>(bins + 1);
        const K l = lo, h = hi;
        const C x0 = first;
        const M scale = norm;
        const C* const e = edges;
        std::int32_t bad = 0;
        for (index_t j = 0; j < n; ++j) {
            const T v = p[j];
            const K k = static_cast<K>(v);
            const bool keep = (k >= l) & (k <= h); // `&`, not `&&`: no branch
            const C x = static_cast<C>(v);
            const M f = static_cast<M>(x - x0) * scale;
            const bool ok = (f >= M(0)) & (f < top);
            std::int32_t i = static_cast<std::int32_t>(ok ? f : M(0));
            i -= static_cast<std::int32_t>(i == nb);
            i -= static_cast<std::int32_t>(x < e[i]);
            i += static_cast<std::int32_t>((i != nb - 1) & (x >= e[i + 1]));
            bad |= static_cast<std::int32_t>(keep & (!ok | (i < 0)));
            out[j] = keep ? i : nb;
        }
        if (bad) [[unlikely]]
            for (index_t j = 0; j < n; ++j)
                (void)(*this)(p[j]);
    }
    static constexpr index_t fill_limit = index_t{1} << 24;
};

// The bin of a value for explicit edges (ascending under NumPy's order, NaN last): bin i holds
// `edges[i] <= x < edges[i+1]`, the last bin also `x == edges[n]`. -1 outside.
template <class T, class P>
struct edges_binner {
    index_t bins;
    const P* edges; // bins + 1

    index_t operator()(T v) const {
        const P x = static_cast<P>(v);
        const index_t u = bound<P>(bins + 1, x, true, [&](index_t i) { return edges[i]; });
        if (u == 0)
            return -1;
        if (u <= bins)
            return u - 1;
        return sorts_before(edges[bins], x) ? -1 : bins - 1;
    }
};

// Calls `each(j, b)` for every value p[j] of a run that falls in a bin b. A binner with `fill`
// finds the bins of up to 1024 values at a time vectorised, into a scratch buffer, with bin
// number `bins` (a slot past the last bin) for values outside; `each` then gets them all.
// The binner is a local copy: a count or sum stored through a pointer could alias its fields
// (`bins` is an index_t too), and g++ would reload them after every store (2.5x slower).
template <class Binner>
inline constexpr bool fills = requires {
    Binner::fill_limit;
};
inline constexpr index_t fill_step = 1024;

template <class Binner, class T, class F>
void bins_of_run(const Binner& bin_in, const T* p, index_t n, F&& each) {
    const Binner bin = bin_in;
    if constexpr (fills<Binner>) {
        if (bin.bins < Binner::fill_limit) {
            std::int32_t scratch[fill_step];
            for (index_t j = 0; j < n; j += fill_step) {
                const index_t m = std::min(fill_step, n - j);
                bin.fill(p + j, m, scratch);
                for (index_t k = 0; k < m; ++k)
                    each(j + k, static_cast<index_t>(scratch[k]));
            }
            return;
        }
    }
    for (index_t j = 0; j < n; ++j) {
        const index_t b = bin(p[j]);
        each(j, b < 0 ? bin.bins : b);
    }
}

// Counts into bins + 1 slots, the last one for values outside (dropped at the end).
template <class Binner, class E>
void count_bins(const Binner& bin, const E& e, const read_plan& pe, std::int64_t* counts) {
    std::vector<std::int64_t> slots(static_cast<std::size_t>(bin.bins + 1), 0);
    std::int64_t* const c = slots.data();
    chunk_reader<E> r(e, pe);
    for_each_value_chunk(pe.chunks, e.shape(), [&](const value_chunk& ch) {
        bins_of_run(bin, r.read(ch), ch.count, [c](index_t, index_t b) { ++c[b]; });
    });
    std::copy(slots.begin(), slots.end() - 1, counts);
}

// `a + b` in W as NumPy's `n += ...` does: logical or for bool, wrapping for integers.
template <class W>
W add_as_numpy(W a, W b) {
    if constexpr (std::is_same_v<W, bool>)
        return a || b;
    else if constexpr (std::is_integral_v<W>)
        return static_cast<W>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
    else
        return a + b;
}

// numpy.histogram's weighted uniform path: per block of 65536 values, each bin's weights summed
// in float64 in order (numpy.bincount), cast to W and added to the bin.
template <class W, class Binner, class E, class WE>
void sum_bins_by_block(const Binner& bin,
                       const E& e,
                       const read_plan& pe,
                       const WE& w,
                       const read_plan& pw,
                       W* hist,
                       index_t bins) {
    std::vector<double> block(static_cast<std::size_t>(bins + 1), 0.0); // + the outside slot
    double* const sums = block.data();
    const auto flush = [&] {
        for (index_t b = 0; b < bins; ++b) {
            hist[b] = add_as_numpy<W>(hist[b], convert<W>(sums[b]));
            sums[b] = 0.0;
        }
    };
    chunk_reader<E> r(e, pe);
    chunk_reader<WE> rw(w, pw);
    index_t next_flush = numpy_histogram_block;
    for_each_value_chunk(pe.chunks, e.shape(), [&](const value_chunk& c) {
        const auto* p = r.read(c);
        const auto* q = rw.read(c);
        // The run split where NumPy's blocks end.
        for (index_t j = 0; j < c.count;) {
            if (c.first + j == next_flush) {
                flush();
                next_flush += numpy_histogram_block;
            }
            const index_t m = std::min(c.count - j, next_flush - (c.first + j));
            const auto* qj = q + j;
            bins_of_run(bin, p + j, m, [sums, qj](index_t k, index_t b) {
                sums[b] += static_cast<double>(qj[k]);
            });
            j += m;
        }
    });
    flush();
}

// Weighted sums for explicit edges: float weights summed per bin in float64 (NumPy differences
// cumulative sums of the weights sorted by value, whose rounding depends on its sort; this is
// at least as exact), integer weights in wrapping 64-bit arithmetic (NumPy's sums modulo 2^64,
// exactly).
template <class W, class Binner, class E, class WE>
void sum_bins(const Binner& bin,
              const E& e,
              const read_plan& pe,
              const WE& w,
              const read_plan& pw,
              W* hist,
              index_t bins) {
    using A = std::conditional_t<std::is_floating_point_v<W>, double, std::uint64_t>;
    std::vector<A> acc(static_cast<std::size_t>(bins + 1), A{0}); // + the outside slot
    A* const sums = acc.data();
    chunk_reader<E> r(e, pe);
    chunk_reader<WE> rw(w, pw);
    for_each_value_chunk(pe.chunks, e.shape(), [&](const value_chunk& c) {
        const auto* p = r.read(c); // the data's chunk first, then the weights' (explain's order)
        const auto* q = rw.read(c);
        bins_of_run(bin, p, c.count, [sums, q](index_t k, index_t b) {
            if constexpr (std::is_floating_point_v<W>)
                sums[b] += static_cast<double>(q[k]);
            else
                sums[b] += static_cast<std::uint64_t>(q[k]);
        });
    });
    for (index_t b = 0; b < bins; ++b)
        hist[b] = static_cast<W>(sums[b]);
}

// np.diff of the edges in their own type (wrapping for integers, `!=` for bool), as float64.
template <class C>
double edge_width(C a, C b) {
    if constexpr (std::is_same_v<C, bool>)
        return a != b ? 1.0 : 0.0;
    else if constexpr (std::is_integral_v<C>)
        return static_cast<double>(
            static_cast<C>(static_cast<std::uint64_t>(b) - static_cast<std::uint64_t>(a)));
    else
        return static_cast<double>(static_cast<C>(b - a));
}

// numpy.histogram's `n / db / n.sum()`: the total is fusor's sum of the histogram.
template <class H, class C>
tensor<double> to_density(const tensor<H>& n, const C* edges) {
    const double total = static_cast<double>(fusor::sum(n).item());
    tensor<double> out(n.shape(), uninitialized);
    for (index_t i = 0; i < n.size(); ++i)
        out.data()[i] =
            static_cast<double>(n.data()[i]) / edge_width(edges[i], edges[i + 1]) / total;
    return out;
}

template <class O>
struct is_weights : std::false_type {};
template <class N>
struct is_weights<weights_t<N>> : std::true_type {};
template <class O>
concept histogram_option =
    std::is_same_v<O, range> || std::is_same_v<O, density_t> || is_weights<O>::value;

template <class... O>
struct weights_node {
    using type = void;
};
template <class N, class... O>
struct weights_node<weights_t<N>, O...> {
    using type = N;
};
template <class A, class... O>
struct weights_node<A, O...> : weights_node<O...> {};

// The options of one call, read from the tags: `weights_type` the weights' node type (void:
// none).
template <class... O>
struct histogram_options {
    using weights_type = typename weights_node<O...>::type;
    static constexpr bool weighted = !std::is_void_v<weights_type>;
    static constexpr bool dense = (std::is_same_v<O, density_t> || ...);
    std::optional<range> bounds;
    const weights_type* weights = nullptr;

    explicit histogram_options(const O&... o) {
        auto one = [&](const auto& opt) {
            using A = std::remove_cvref_t<decltype(opt)>;
            if constexpr (std::is_same_v<A, range>)
                bounds = opt;
            else if constexpr (is_weights<A>::value)
                weights = &opt.node;
        };
        (one(o), ...);
        (void)one;
    }
};

// The histogram's element type: densities are float64, weighted sums the weights' type, counts
// int64.
template <class W>
struct weight_value {
    using type = value_type_t<W>;
};
template <>
struct weight_value<void> {
    using type = std::int64_t;
};
template <class W, bool Dense>
using hist_value_t = std::conditional_t<Dense, double, typename weight_value<W>::type>;

// numpy.histogram's outer edges and types for `bins` uniform bins of `e` (of value type T).
struct uniform_setup {
    double first, last; // as float64 (exact for every float32 and float64 edge)
    bool float_edges;   // the edges' type (C) is float32, else float64
    bool float_keep;    // the range test compares in float32, else float64
    bool float_scale;   // `(x - first) * norm` multiplies in float32, else float64
    double keep_lo, keep_hi, norm;
};

// Where uniform bins take their range from: given, the data's, or (0, 1) without data.
FUSOR_DECL histogram_range range_source(const std::optional<range>& bounds, index_t size);

template <class E>
uniform_setup setup_uniform(const E& e, index_t bins, const std::optional<range>& bounds) {
    using T = value_type_t<E>;
    constexpr bool is_f32 = std::is_same_v<T, float>;
    if (bins < 1)
        throw value_error("histogram: `bins` must be positive, when an integer (got "
                          + std::to_string(bins) + ")");
    uniform_setup u{};
    // `typed`: the edges are the data's own minimum and maximum (numpy scalars of type T); else
    // Python floats (a given range, the empty default (0, 1), or the ±0.5 widening).
    bool typed = false, equal = false;
    double width = 0;
    const histogram_range source = range_source(bounds, e.size());
    if (source == histogram_range::given) {
        if (bounds->lo > bounds->hi)
            throw value_error("histogram: max must be larger than min in range parameter.");
        if (!std::isfinite(bounds->lo) || !std::isfinite(bounds->hi))
            throw value_error("histogram: supplied range of [" + std::to_string(bounds->lo) + ", "
                              + std::to_string(bounds->hi) + "] is not finite");
        u.first = bounds->lo;
        u.last = bounds->hi;
        equal = u.first == u.last;
    } else if (source == histogram_range::unit) {
        u.first = 0;
        u.last = 1;
    } else {
        const T mn = fusor::min(e).item();
        const T mx = fusor::max(e).item();
        u.first = static_cast<double>(mn);
        u.last = static_cast<double>(mx);
        if (!std::isfinite(u.first) || !std::isfinite(u.last))
            throw value_error("histogram: autodetected range of [" + std::to_string(u.first) + ", "
                              + std::to_string(u.last) + "] is not finite");
        equal = mn == mx; // compared as T: int64 values may differ yet round to one double
        typed = !equal;
        if constexpr (is_f32)
            width = static_cast<double>(static_cast<float>(mx - mn));
        else if constexpr (std::is_floating_point_v<T>)
            width = mx - mn;
        else {
            // NumPy subtracts integer edges in the unsigned type of their size.
            using U =
                std::make_unsigned_t<std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>>;
            width = static_cast<double>(static_cast<U>(static_cast<U>(mx) - static_cast<U>(mn)));
        }
    }
    if (equal) {
        u.first -= 0.5;
        u.last += 0.5;
    }
    if (!typed)
        width = u.last - u.first;
    u.norm = static_cast<double>(bins) / width;
    u.float_edges = is_f32 && (typed || (fits_float32(u.first) && fits_float32(u.last)));
    u.float_keep = u.float_edges;
    u.float_scale = u.float_edges && fits_float32(u.norm);
    // The range test: Python floats that fit float32 compare with float32 data in float32.
    const auto keep_bound = [&](double v) {
        return is_f32 && (typed || fits_float32(v)) ? static_cast<double>(static_cast<float>(v))
                                                    : v;
    };
    u.keep_lo = keep_bound(u.first);
    u.keep_hi = keep_bound(u.last);
    return u;
}

// Runs `f(binner, edges)` with the binner of NumPy's types for `u`.
template <class T, class F>
void with_uniform_binner(const uniform_setup& u, index_t bins, F&& f) {
    const auto run = [&]<class K, class C, class M>(K*, C*, M*) {
        const std::vector<C> edges = numpy_linspace<C>(u.first, u.last, bins);
        const uniform_binner<T, K, C, M> b{bins,
                                           static_cast<K>(u.keep_lo),
                                           static_cast<K>(u.keep_hi),
                                           static_cast<C>(u.first),
                                           static_cast<M>(u.norm),
                                           edges.data()};
        f(b, edges);
    };
    if constexpr (std::is_same_v<T, float>) {
        if (u.float_edges && u.float_scale)
            return run((float*)nullptr, (float*)nullptr, (float*)nullptr);
        if (u.float_edges)
            return run((float*)nullptr, (float*)nullptr, (double*)nullptr);
    }
    run((double*)nullptr, (double*)nullptr, (double*)nullptr);
}

// The plan of `histogram(e, bins or edges, opts...)` (`edges`: the number of explicit edges, or
// -1 for uniform bins; `edges_in_place`: whether they are read where they are).
template <class E, class... O>
histogram_plan
plan_histogram(const E& e, index_t bins, index_t edges, bool edges_in_place, const O&... opts) {
    using Opt = histogram_options<O...>;
    using WN = typename Opt::weights_type;
    const Opt opt(opts...);
    histogram_plan p;
    p.shape = e.shape();
    p.dtype = dtype_name<value_type_t<E>>();
    p.data = plan_read(e);
    if constexpr (Opt::weighted) {
        p.weighted = true;
        p.weights = plan_read(*opt.weights);
        p.weights_dtype = dtype_name<value_type_t<WN>>();
    }
    p.explicit_edges = edges >= 0;
    p.edges_evaluated = p.explicit_edges && !edges_in_place;
    p.bins = p.explicit_edges ? std::max<index_t>(edges - 1, 0) : bins;
    p.range = p.explicit_edges ? histogram_range::none : range_source(opt.bounds, e.size());
    if (opt.bounds) {
        p.lo = opt.bounds->lo;
        p.hi = opt.bounds->hi;
    }
    p.density = Opt::dense;
    p.hist_dtype = dtype_name<hist_value_t<WN, Opt::dense>>();
    return p;
}

// The data once evaluated whole (a plan's `read_mode::whole`) is read in place.
FUSOR_DECL read_plan in_place(const read_plan& r);

template <class E, class... O>
auto histogram_uniform(const E& e, const histogram_plan& plan, const O&... opts) {
    const index_t bins = plan.bins;
    using T = value_type_t<E>;
    using Opt = histogram_options<O...>;
    using WN = typename Opt::weights_type;
    using H = hist_value_t<WN, Opt::dense>;
    const Opt opt(opts...);
    if constexpr (Opt::weighted) {
        const auto& w = *opt.weights;
        if (!(w.shape() == e.shape()))
            throw value_error("histogram: weights should have the same shape as a ("
                              + to_string(w.shape()) + " and " + to_string(e.shape()) + ")");
    }
    const uniform_setup u = setup_uniform(e, bins, opt.bounds);
    histogram_result<H, double> r{tensor<H>(shape_t{bins}), tensor<double>(shape_t{bins + 1})};
    with_uniform_binner<T>(u, bins, [&](const auto& binner, const auto& edges) {
        std::copy(edges.begin(), edges.end(), r.edges.data());
        if constexpr (Opt::weighted) {
            using W = value_type_t<WN>;
            const auto& w = *opt.weights;
            tensor<W> sums(shape_t{bins});
            sum_bins_by_block<W>(binner, e, plan.data, w, plan.weights, sums.data(), bins);
            if constexpr (Opt::dense)
                r.hist = to_density(sums, edges.data());
            else
                r.hist = std::move(sums);
        } else {
            tensor<std::int64_t> counts(shape_t{bins});
            count_bins(binner, e, plan.data, counts.data());
            if constexpr (Opt::dense)
                r.hist = to_density(counts, edges.data());
            else
                r.hist = std::move(counts);
        }
    });
    return r;
}

// Explicit edges: 1-d, non-decreasing (NumPy's check), NaN only at the end.
template <class B>
void check_edges(const flat_values<B>& edges, const shape_t& shape) {
    if (shape.rank() != 1)
        throw value_error("histogram: `bins` must be 1d, when an array (got shape "
                          + to_string(shape) + ")");
    for (index_t i = 0; i + 1 < edges.size(); ++i) {
        if (edges[i] > edges[i + 1])
            throw value_error("histogram: `bins` must increase monotonically, when an array");
        if (is_nan_value(edges[i]) && !is_nan_value(edges[i + 1]))
            throw value_error("histogram: `bins` may hold NaN only at the end (fusor; NumPy "
                              "gives meaningless counts)");
    }
}

template <class E, class BE, class... O>
auto histogram_edges(const E& e,
                     const BE& bin_edges,
                     const histogram_plan& plan,
                     const O&... opts) {
    using T = value_type_t<E>;
    using B = value_type_t<BE>;
    using P = promote_t<std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>, B>;
    using Opt = histogram_options<O...>;
    using WN = typename Opt::weights_type;
    using H = hist_value_t<WN, Opt::dense>;
    static_assert(!(std::is_same_v<O, range> || ...),
                  "fusor::histogram: `range` applies to a number of bins; with explicit edges "
                  "NumPy ignores it, fusor refuses it");
    const Opt opt(opts...);
    const flat_values<BE> ev(bin_edges);
    check_edges(ev, bin_edges.shape());
    if constexpr (Opt::weighted) {
        const auto& w = *opt.weights;
        if (!(w.shape() == e.shape()))
            throw value_error("histogram: weights should have the same shape as a ("
                              + to_string(w.shape()) + " and " + to_string(e.shape()) + ")");
    }
    const index_t bins = std::max<index_t>(ev.size() - 1, 0);
    histogram_result<H, B> r{tensor<H>(shape_t{bins}), tensor<B>(shape_t{ev.size()})};
    std::copy(ev.data(), ev.data() + ev.size(), r.edges.data());
    if (bins == 0)
        return r;
    std::vector<P> edges(ev.data(), ev.data() + ev.size());
    const edges_binner<T, P> binner{bins, edges.data()};
    if constexpr (Opt::weighted) {
        using W = value_type_t<WN>;
        static_assert(!std::is_same_v<W, bool>,
                      "fusor::histogram: bool weights with explicit edges (NumPy raises "
                      "UFuncTypeError); cast them, e.g. weights(cast<int64_t>(w))");
        tensor<W> sums(shape_t{bins});
        sum_bins<W>(binner, e, plan.data, *opt.weights, plan.weights, sums.data(), bins);
        if constexpr (Opt::dense)
            r.hist = to_density(sums, r.edges.data());
        else
            r.hist = std::move(sums);
    } else {
        tensor<std::int64_t> counts(shape_t{bins});
        count_bins(binner, e, plan.data, counts.data());
        if constexpr (Opt::dense)
            r.hist = to_density(counts, r.edges.data());
        else
            r.hist = std::move(counts);
    }
    return r;
}
} // namespace detail

/// `histogram(e, bins = 10, options…)` (numpy.histogram): the histogram of `e`'s values
/// (flattened, any shape) in `bins` equal bins between the smallest and the largest value, or
/// over `range{lo, hi}`. Each bin is half-open `[edge_i, edge_i+1)` except the last, which is
/// closed; values outside the range are ignored (NaN too, when a range is given).
/// `histogram(e, edges, options…)`: explicit 1-d non-decreasing `edges` (any type; values
/// compare in `promote_t` of the two types); `range` does not compile there.
///
/// Options, in any order: `range{lo, hi}`, `density`, `weights(w)` (`w` of `e`'s shape).
/// Returns `histogram_result{hist, edges}` (`auto [hist, edges] = histogram(x, 10);`):
///  - `hist` (bins,): int64 counts; with weights, the weights' type (bool weights give bool, as
///    NumPy; not with explicit edges); with `density`, float64 `count / total / width`.
///  - `edges` (bins + 1,): with a number of bins, float64 holding NumPy's edges exactly (NumPy's
///    are float32 for float32 data with a range that fits float32; fusor computes them, and every
///    bin, in float32 as NumPy does and widens them exactly); with explicit edges, a copy of them.
/// `e` is read once, never stored: a tensor in place, an element-wise expression evaluated a
/// chunk at a time (`histogram(a * b + c, 100, range{0, 1})` allocates one chunk, not a*b+c).
/// bool data counts as uint8 (NumPy converts it).
/// Throws `value_error`: `bins < 1`; `lo > hi` or a range that is not finite; no range and a NaN
/// or infinity in `e` ("autodetected range of [nan, nan] is not finite"); `weights` of another
/// shape; edges not 1-d or decreasing (or with NaN before the end, which NumPy accepts).
/// Throws `index_error` where NumPy raises IndexError: a range too narrow for its type (e.g.
/// int64 data whose one value is 2^62, where `v ± 0.5` rounds back to `v`).
template <class E, class I, class... O>
    requires(expression<E>&& std::is_integral_v<I> && (detail::histogram_option<O> && ...))
auto histogram(const E& e, I bins, const O&... opts) {
    histogram_plan p = detail::plan_histogram(e, static_cast<index_t>(bins), -1, true, opts...);
    if constexpr (!chunkable<E>) { // p.data.mode == read_mode::whole
        const auto whole = eval(e);
        p.data = detail::in_place(p.data);
        return detail::histogram_uniform(whole, p, opts...);
    } else {
        return detail::histogram_uniform(e, p, opts...);
    }
}
template <class E, class... O>
    requires(expression<E> && (detail::histogram_option<O> && ...))
auto histogram(const E& e, const O&... opts) {
    return histogram(e, 10, opts...);
}
template <class E, class B, class... O>
    requires(expression<E>&& expression<B> && (detail::histogram_option<O> && ...))
auto histogram(const E& e, const B& edges, const O&... opts) {
    histogram_plan p =
        detail::plan_histogram(e, 0, edges.size(), detail::flat_in_place(edges), opts...);
    if constexpr (!chunkable<E>) { // p.data.mode == read_mode::whole
        const auto whole = eval(e);
        p.data = detail::in_place(p.data);
        return detail::histogram_edges(whole, edges, p, opts...);
    } else {
        return detail::histogram_edges(e, edges, p, opts...);
    }
}
/// `histogram(e, {e0, e1, ...}, options…)`: explicit edges as a braced list, as numpy.histogram
/// of a list of edges: the list is a 1-d tensor as NumPy's array of it (C++ integers int64,
/// floats their own type), so `{0, 1, 2}` gives int64 `edges` and `{0.0, 0.5}` float64, as
/// NumPy's. A `std::vector` of edges is read through `adapt(v)`.
template <class E, class L, class... O>
    requires(expression<E>&& scalar<L> && (detail::histogram_option<O> && ...))
auto histogram(const E& e, std::initializer_list<L> edges, const O&... opts) {
    return histogram(e, detail::list_tensor(edges), opts...);
}
/// `histogram(e, v, options…)` with a `std::vector` of edges: as `histogram(e, adapt(v), …)`.
template <class E, class L, class A, class... O>
    requires(expression<E>&& scalar<L> && (detail::histogram_option<O> && ...))
auto histogram(const E& e, const std::vector<L, A>& edges, const O&... opts) {
    return histogram(e, adapt(edges), opts...);
}

/// `histogram_bin_edges(e, bins = 10)`, `histogram_bin_edges(e, bins, range{lo, hi})`
/// (numpy.histogram_bin_edges): the float64 (bins + 1,) edges `histogram` uses; throws as
/// `histogram`. `histogram_bin_edges(e, edges)`: a copy of `edges` after `histogram`'s checks.
namespace detail {
template <class E>
tensor<double> uniform_edges(const E& e, index_t bins, const std::optional<range>& r) {
    const uniform_setup u = setup_uniform(e, bins, r);
    tensor<double> out(shape_t{bins + 1}, uninitialized);
    with_uniform_binner<value_type_t<E>>(u, bins, [&](const auto&, const auto& edges) {
        std::copy(edges.begin(), edges.end(), out.data());
    });
    return out;
}
} // namespace detail

template <class E, class I = index_t>
    requires(expression<E>&& std::is_integral_v<I>)
tensor<double> histogram_bin_edges(const E& e, I bins = 10) {
    return detail::uniform_edges(e, static_cast<index_t>(bins), std::nullopt);
}
template <class E, class I>
    requires(expression<E>&& std::is_integral_v<I>)
tensor<double> histogram_bin_edges(const E& e, I bins, range r) {
    return detail::uniform_edges(e, static_cast<index_t>(bins), r);
}
template <class E, class B>
    requires(expression<E>&& expression<B>)
tensor<value_type_t<B>> histogram_bin_edges(const E&, const B& edges) {
    const detail::flat_values<B> ev(edges);
    detail::check_edges(ev, edges.shape());
    tensor<value_type_t<B>> out(edges.shape(), uninitialized);
    std::copy(ev.data(), ev.data() + ev.size(), out.data());
    return out;
}
/// `histogram_bin_edges(e, {e0, e1, ...})` and `histogram_bin_edges(e, std_vector)`: the edges
/// as `histogram` reads a list or a vector of them, checked and copied.
template <class E, class L>
    requires(expression<E>&& scalar<L>)
auto histogram_bin_edges(const E& e, std::initializer_list<L> edges) {
    return histogram_bin_edges(e, detail::list_tensor(edges));
}
template <class E, class L, class A>
    requires(expression<E>&& scalar<L>)
auto histogram_bin_edges(const E& e, const std::vector<L, A>& edges) {
    return histogram_bin_edges(e, adapt(edges));
}

/// `bincount(x, minlength = 0)` (numpy.bincount): int64 counts of each value of the 1-d
/// non-negative integer `x`, shape (max(max(x) + 1, minlength),) ((minlength,) for an empty `x`).
/// `bincount(x, w, minlength = 0)`: the sums of the weights `w` (1-d, `x`'s length, any type)
/// of each value, float64, added in order as NumPy does (so bit for bit). `x` of bool and of
/// integers up to int64 (not uint64, which NumPy cannot cast to int64 safely); floats do not
/// compile. Throws `value_error`: `x` or `w` not 1-d, a negative value, `minlength < 0`, `w` of
/// another length. `x` is read without being stored (as `histogram`).
template <class E>
    requires expression<E> tensor<std::int64_t> bincount(const E& x, index_t minlength = 0);
template <class E, class W>
    requires(expression<E>&& expression<W>)
tensor<double> bincount(const E& x, const W& w, index_t minlength = 0);

namespace detail {
template <class E>
index_t bincount_length(const E& x, index_t minlength) {
    using T = value_type_t<E>;
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, std::uint64_t>,
                  "fusor::bincount: x must hold bool or integers that fit int64 (numpy.bincount "
                  "casts them safely to int64; floats and uint64 raise TypeError)");
    extent_of_1d(x.shape(), "bincount: x");
    if (minlength < 0)
        throw value_error("bincount: 'minlength' must not be negative");
    if (x.size() == 0)
        return minlength;
    if (static_cast<std::int64_t>(fusor::min(x).item()) < 0)
        throw value_error("bincount: 'list' argument must have no negative elements");
    return std::max<index_t>(static_cast<index_t>(fusor::max(x).item()) + 1, minlength);
}
// bincount's binner: the value is the bin (checked non-negative and below `bins` before).
struct identity_bin {
    index_t bins;
    template <class T>
    index_t operator()(T v) const {
        return static_cast<index_t>(v);
    }
};
} // namespace detail

template <class E>
    requires expression<E> tensor<std::int64_t> bincount(const E& x, index_t minlength) {
        if constexpr (!chunkable<E>) {
            return bincount(eval(x), minlength);
        } else {
            const index_t n = detail::bincount_length(x, minlength);
            tensor<std::int64_t> out(shape_t{n});
            detail::count_bins(detail::identity_bin{n}, x, plan_read(x), out.data());
            return out;
        }
    }
template <class E, class W>
    requires(expression<E>&& expression<W>)
tensor<double> bincount(const E& x, const W& w, index_t minlength) {
    if constexpr (!chunkable<E>) {
        return bincount(eval(x), w, minlength);
    } else {
        const index_t n = detail::bincount_length(x, minlength);
        if (detail::extent_of_1d(w.shape(), "bincount: weights") != x.shape()[0])
            throw value_error("bincount: The weights and list don't have the same length.");
        tensor<double> out(shape_t{n});
        detail::sum_bins<double>(
            detail::identity_bin{n}, x, plan_read(x), w, plan_read(w), out.data(), n);
        return out;
    }
}

namespace detail {
// numpy's _monotonicity: 1 increasing (or all equal, or empty), -1 decreasing, 0 neither,
// judged on the bins as float64 after skipping the leading run of equal values.
template <class B>
int monotonicity(const flat_values<B>& b) {
    const index_t n = b.size();
    if (n == 0)
        return 1;
    const auto at = [&](index_t i) {
        return static_cast<double>(b[i]);
    };
    index_t i = 1;
    while (i < n && at(i) == at(0))
        ++i;
    if (i == n)
        return 1;
    const bool increasing = at(i - 1) < at(i);
    for (++i; i < n; ++i)
        if (increasing ? at(i - 1) > at(i) : at(i - 1) < at(i))
            return 0;
    return increasing ? 1 : -1;
}
} // namespace detail

/// `digitize(x, bins, right = false)` (numpy.digitize): for each element of `x`, the index i of
/// its bin in the 1-d monotonic `bins`: increasing bins give `bins[i-1] <= x < bins[i]`
/// (`right`: `bins[i-1] < x <= bins[i]`), decreasing bins `bins[i-1] > x >= bins[i]` (`right`:
/// `bins[i-1] >= x > bins[i]`); 0 or `len(bins)` beyond the ends. int64 of `x`'s shape; values
/// compare in `promote_t` of the two types, NaN above every number. Throws `value_error` when
/// `bins` is not 1-d or not monotonic ("bins must be monotonically increasing or decreasing").
template <class X, class B>
    requires(expression<X>&& expression<B>)
tensor<std::int64_t> digitize(const X& x, const B& bins, bool right = false) {
    using P = promote_t<value_type_t<B>, value_type_t<X>>;
    const index_t n = detail::extent_of_1d(bins.shape(), "digitize: bins");
    const detail::flat_values<B> bv(bins);
    const int mono = detail::monotonicity(bv);
    if (mono == 0)
        throw value_error("digitize: bins must be monotonically increasing or decreasing");
    const detail::flat_values<X> xv(x);
    tensor<std::int64_t> out(x.shape(), uninitialized);
    // numpy.digitize is searchsorted with the other side; decreasing bins are searched reversed.
    const bool search_right = !right;
    for (index_t k = 0; k < xv.size(); ++k) {
        const P v = static_cast<P>(xv[k]);
        if (mono > 0)
            out.data()[k] = detail::bound<P>(
                n, v, search_right, [&](index_t i) { return static_cast<P>(bv[i]); });
        else
            out.data()[k] = n - detail::bound<P>(n, v, search_right, [&](index_t i) {
                                return static_cast<P>(bv[n - 1 - i]);
                            });
    }
    return out;
}

/// `digitize(x, bins, right)` with a C++ scalar `x` (weak next to the bins' type): its bin as a
/// 0-d int64 tensor (numpy.digitize of a Python scalar returns an int64 scalar).
template <class S, class B>
    requires(scalar<S>&& expression<B>)
tensor<std::int64_t> digitize(S x, const B& bins, bool right = false) {
    return digitize(detail::weak_scalar_tensor<value_type_t<B>>(x), bins, right);
}

/// `digitize(x, {b0, b1, ...}, right)` with a braced list of bins (numpy.digitize of a list):
/// the bins are a 1-d tensor as NumPy's array of the list (C++ integers int64, floats and bools
/// their own type), so `{0.1, 0.5}` against float32 `x` compares in float64, as NumPy does.
/// Example: `digitize(x, {0.0, 1.0, 2.5})`.
template <class X, class L>
    requires(expression<X>&& scalar<L>)
tensor<std::int64_t> digitize(const X& x, std::initializer_list<L> bins, bool right = false) {
    return digitize(x, detail::list_tensor(bins), right);
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/histogram.ipp>
#endif
