// fusor/random/generator.hpp: fusor::random::generator, NumPy's Generator over PCG64. Every
// method draws the bits NumPy draws, in NumPy's order (a tensor is filled in row-major order),
// and turns them into values with NumPy's arithmetic, so `default_rng(seed)` gives the values
// `numpy.random.default_rng(seed)` gives. Fills whose every value takes a fixed number of draws
// (random, uniform) run on several threads by advancing a copy of the state to each chunk's
// first draw: the values do not depend on the thread count.
#pragma once

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/parallel.hpp>
#include <fusor/core/rounding.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/random/bounded.hpp>
#include <fusor/random/pcg64.hpp>
#include <fusor/random/seed_sequence.hpp>
#include <fusor/random/ziggurat.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor::random {

/// A signed 128-bit integer: the bounds `integers` takes, wide enough for every bound NumPy
/// accepts (an exclusive `high` of 2^64 for uint64 included).
__extension__ typedef __int128 integer_bound;

/// A C++ integer type `integers` takes as a bound (bool excluded; `integer_bound` included,
/// which `std::integral` leaves out under -std=c++20).
template <class I>
concept bound_integer =
    (std::is_integral_v<I> && !std::is_same_v<I, bool>) || std::is_same_v<I, integer_bound>;

namespace detail {

using fusor::detail::rounded; // core/rounding.hpp: NumPy's rounded products

template <class T>
inline constexpr bool is_integer_dtype = std::is_integral_v<T>;

template <class T>
std::string dtype_name() {
    if constexpr (std::is_same_v<T, bool>)
        return "bool";
    else
        return std::string(std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
}

// Fills out[0, n) with f(u) for NumPy's doubles u = next_double(), one 64-bit draw each. Large
// fills are cut into chunks, each drawn by a copy advanced to its first draw; the state ends
// as after n serial draws, the buffered 32-bit half untouched (next_double never reads it).
template <class T, class F>
void fill_from_doubles(pcg64& g, T* out, std::int64_t n, F f) {
#if FUSOR_THREADS_OPENMP
    const int threads = num_threads();
    if (n >= parallel_threshold && threads > 1) {
        const pcg64 start = g;
        const std::int64_t chunks = std::min<std::int64_t>(threads, n / parallel_grain);
#pragma omp parallel for num_threads(threads) schedule(static)
        for (std::int64_t c = 0; c < chunks; ++c) {
            const std::int64_t begin = n * c / chunks, end = n * (c + 1) / chunks;
            pcg64 local = start;
            local.advance(static_cast<uint128_t>(begin));
            for (std::int64_t i = begin; i < end; ++i)
                out[i] = f(local.next_double());
        }
        pcg64_state s = start.state();
        g.advance(static_cast<uint128_t>(n));
        pcg64_state after = g.state();
        after.has_uint32 = s.has_uint32;
        after.uinteger = s.uinteger;
        g.set_state(after);
        return;
    }
#endif
    for (std::int64_t i = 0; i < n; ++i)
        out[i] = f(g.next_double());
}

// Fills out[0, n) with NumPy's floats (next_float: one 32-bit half per value, a buffered half
// first). The halves after the buffered one come in pairs from 64-bit draws, so chunks of
// pairs go to threads as in fill_from_doubles.
FUSOR_DECL void fill_floats(pcg64& g, float* out, std::int64_t n);

// NumPy's kahan_sum over choice's probabilities.
FUSOR_DECL double kahan_sum(const std::vector<double>& p);

// choice's cumulative distribution: NumPy's p.cumsum() (sequential) divided by its last value.
FUSOR_DECL std::vector<double> normalised_cdf(const std::vector<double>& p);

// cdf.searchsorted(u, side='right').
FUSOR_DECL std::int64_t search_right(const std::vector<double>& cdf, double u);

} // namespace detail

/// The probabilities `p` that `generator::choice` takes (NumPy's `p=`): none (`{}`, uniform), a
/// braced list, a `std::vector<double>`, or a 1-d expression of any real type (`w / sum(w)`),
/// evaluated once as float64. The sum must be 1 within sqrt(eps) of float64, or of the
/// expression's own float type when wider (float32: 3.5e-4), as NumPy's tolerance. Throws
/// `value_error` for an expression that is not 1-d (NumPy: "p must be 1-dimensional").
struct probabilities {
    std::vector<double> values;
    double atol = std::sqrt(std::numeric_limits<double>::epsilon()); ///< of `sum(p) - 1`

    probabilities() = default;
    probabilities(std::initializer_list<double> p) : values(p) {}
    probabilities(std::vector<double> p) : values(std::move(p)) {}
    // clang-format off
    template <class E>
        requires(expression<E> && !std::is_same_v<value_type_t<E>, bool>)
    probabilities(const E& p) {
        // clang-format on
        if (p.shape().rank() != 1)
            throw value_error("choice: p must be 1-dimensional (shape " + to_string(p.shape())
                              + ")");
        const tensor<double> t(p); // one fused loop, cast to float64
        values.assign(t.data(), t.data() + t.size());
        using T = value_type_t<E>;
        if constexpr (std::is_floating_point_v<T>)
            atol =
                std::max(atol, std::sqrt(static_cast<double>(std::numeric_limits<T>::epsilon())));
    }
};

/// NumPy's `Generator` (numpy.random.Generator) over a `pcg64` bit generator: the methods below
/// take the same arguments as NumPy's (a `shape_t` for NumPy's `size`) and return the same
/// values for the same state, filled in row-major order. Methods without a shape return one
/// value (NumPy's `size=None`). A generator is not thread-safe: give each thread its own
/// (`seed_sequence::spawn`, `pcg64::jumped`).
class generator {
public:
    /// A generator over `bit_generator` (as `numpy.random.Generator(bit_generator)`).
    explicit generator(pcg64 bit_generator) : g_(bit_generator) {}

    /// The bit generator, for its state, `advance` and `jumped`.
    pcg64& bit_generator() { return g_; }
    const pcg64& bit_generator() const { return g_; }

    // ---- uniform floats ----------------------------------------------------------------------

    /// `random()`: a double in [0, 1) (numpy's Generator.random).
    double random() { return g_.next_double(); }

    /// `random<T>(shape)`: uniform values in [0, 1) of `shape`; `T` is `double` (default, 53
    /// random bits each) or `float` (24 bits from half a 64-bit draw), as NumPy's `dtype=`.
    template <class T = double>
    tensor<T> random(const shape_t& shape) {
        static_assert(std::is_same_v<T, double> || std::is_same_v<T, float>,
                      "fusor: random<T> makes double or float values, as NumPy's dtype=");
        tensor<T> out(shape, uninitialized);
        if constexpr (std::is_same_v<T, double>)
            detail::fill_from_doubles(g_, out.data(), out.size(), [](double u) { return u; });
        else
            detail::fill_floats(g_, out.data(), out.size());
        return out;
    }

    /// `uniform(low, high, shape)` (numpy's Generator.uniform): `low + (high - low) * u` for
    /// NumPy's doubles u in [0, 1); float64, shape `shape`. Throws `value_error` when
    /// high - low < 0 or is -0.0 ("high - low < 0", NumPy's sign-bit test) and when it is not
    /// finite, NaN included ("high - low range exceeds valid bounds": NumPy's OverflowError,
    /// here fusor's error for a bad argument value).
    FUSOR_LAZY tensor<double> uniform(double low, double high, const shape_t& shape) {
        const double range = checked_range(low, high);
        tensor<double> out(shape, uninitialized);
        detail::fill_from_doubles(
            g_, out.data(), out.size(), [=](double u) { return low + detail::rounded(range * u); });
        return out;
    }
    /// One value of `uniform(low, high)`.
    FUSOR_LAZY double uniform(double low = 0.0, double high = 1.0) {
        const double range = checked_range(low, high);
        return low + detail::rounded(range * g_.next_double());
    }

    // ---- integers ----------------------------------------------------------------------------

    /// `integers<T>(low, high, shape, endpoint = false)` (numpy's Generator.integers): uniform
    /// integers of type `T` (default int64, any integer type or `bool`) in [low, high), or
    /// [low, high] with `endpoint`, by NumPy's bounded-integer method (Lemire's, with 8- and
    /// 16-bit values cut from shared 32-bit draws). Throws `value_error` as NumPy: "low is out
    /// of bounds for int8", "high is out of bounds for ...", "low >= high" (or "low > high"
    /// with `endpoint`; "high <= 0" and "high < 0" when low is 0). An empty `shape` gives an
    /// empty tensor without checking the bounds or drawing, as NumPy.
    template <class T = std::int64_t>
    tensor<T>
    integers(integer_bound low, integer_bound high, const shape_t& shape, bool endpoint = false) {
        static_assert(std::is_integral_v<T>, "fusor: integers<T> needs an integer type or bool");
        tensor<T> out(shape, uninitialized);
        if (out.size() != 0) // NumPy returns an empty array before it checks the bounds
            fill_integers<T>(low, high, endpoint, out.data(), out.size());
        return out;
    }
    /// `integers<T>(high, shape, endpoint = false)`: `integers<T>(0, high, shape, endpoint)`, as
    /// NumPy's `integers(high, size=shape)` (one bound is the exclusive high, low 0). A braced
    /// shape after one bound is a shape: `integers(10, {5})` is five values in [0, 10).
    template <class T = std::int64_t, bound_integer H>
    tensor<T> integers(H high, const shape_t& shape, bool endpoint = false) {
        return integers<T>(0, static_cast<integer_bound>(high), shape, endpoint);
    }
    /// One value of `integers<T>(high)`: in [0, high), as NumPy's `integers(high)`.
    template <class T = std::int64_t, bound_integer H>
    T integers(H high) {
        return integers<T>(integer_bound{0}, high);
    }
    /// One value of `integers<T>(low, high)` (exclusive `high`). Both bounds are integers of
    /// any type; deduced, so that a braced `{5}` after one bound is read as a shape
    /// (`integers(high, shape)`), not as `high`.
    template <class T = std::int64_t, bound_integer L, bound_integer H>
    T integers(L low, H high) {
        static_assert(std::is_integral_v<T>, "fusor: integers<T> needs an integer type or bool");
        T value;
        fill_integers<T>(
            static_cast<integer_bound>(low), static_cast<integer_bound>(high), false, &value, 1);
        return value;
    }

    // ---- normal and exponential --------------------------------------------------------------

    /// `standard_normal()`: one N(0, 1) value by NumPy's 256-box ziggurat.
    double standard_normal() { return detail::standard_normal(g_); }
    /// `standard_normal<T>(shape)`: N(0, 1) values; `T` double (default) or float (NumPy's
    /// float32 ziggurat, its own tables and 32-bit draws), as numpy's Generator.standard_normal.
    template <class T = double>
    tensor<T> standard_normal(const shape_t& shape) {
        static_assert(std::is_same_v<T, double> || std::is_same_v<T, float>,
                      "fusor: standard_normal<T> makes double or float values");
        if constexpr (std::is_same_v<T, double>)
            return filled<T>(shape, [this] { return detail::standard_normal(g_); });
        else
            return filled<T>(shape, [this] { return detail::standard_normal_float(g_); });
    }

    /// `normal(loc, scale, shape)` (numpy's Generator.normal): `loc + scale * z` for NumPy's
    /// standard normal z; float64. Throws `value_error` for scale < 0 or -0.0 ("scale < 0", as
    /// NumPy's sign-bit test); a NaN scale gives NaN values, as NumPy.
    FUSOR_LAZY tensor<double> normal(double loc, double scale, const shape_t& shape) {
        check_scale(scale);
        return filled<double>(
            shape, [&] { return loc + detail::rounded(scale * detail::standard_normal(g_)); });
    }
    /// One value of `normal(loc, scale)`.
    FUSOR_LAZY double normal(double loc = 0.0, double scale = 1.0) {
        check_scale(scale);
        return loc + detail::rounded(scale * detail::standard_normal(g_));
    }

    /// `standard_exponential()`: one Exp(1) value by NumPy's exponential ziggurat.
    double standard_exponential() { return detail::standard_exponential(g_); }
    /// `standard_exponential<T>(shape)`: Exp(1) values, `T` double or float (NumPy's
    /// `method='zig'`, the default; NumPy's `method='inv'` is not offered).
    template <class T = double>
    tensor<T> standard_exponential(const shape_t& shape) {
        static_assert(std::is_same_v<T, double> || std::is_same_v<T, float>,
                      "fusor: standard_exponential<T> makes double or float values");
        if constexpr (std::is_same_v<T, double>)
            return filled<T>(shape, [this] { return detail::standard_exponential(g_); });
        else
            return filled<T>(shape, [this] { return detail::standard_exponential_float(g_); });
    }

    /// `exponential(scale, shape)` (numpy's Generator.exponential): `scale * e` for NumPy's
    /// standard exponential e; float64. Throws `value_error` for scale < 0 or -0.0 ("scale < 0",
    /// as NumPy's sign-bit test); a NaN scale gives NaN values, as NumPy.
    FUSOR_LAZY tensor<double> exponential(double scale, const shape_t& shape) {
        check_scale(scale);
        return filled<double>(shape, [&] { return scale * detail::standard_exponential(g_); });
    }
    /// One value of `exponential(scale)`.
    FUSOR_LAZY double exponential(double scale = 1.0) {
        check_scale(scale);
        return scale * detail::standard_exponential(g_);
    }

    // ---- sampling and permutations -----------------------------------------------------------

    /// `choice(n, shape, replace = true, p = {})` (numpy's Generator.choice with an integer
    /// `a`): int64 indices in [0, n) of `shape`. With `replace`: uniform (`integers`) or, with
    /// probabilities `p` (size n, non-negative, summing to 1 within sqrt(eps)), the inverse CDF
    /// of NumPy's doubles. Without: distinct indices by NumPy's Floyd sampling or tail shuffle
    /// (then shuffled), or with `p` by NumPy's repeated draws without the indices found.
    /// Throws `value_error` with NumPy's messages: n <= 0 with samples to take ("a must be a
    /// positive integer unless no samples are taken"), "a and p must have same size",
    /// "probabilities contain NaN", "probabilities are not non-negative", "probabilities do
    /// not sum to 1", "Cannot take a larger sample than population when replace is False",
    /// "Fewer non-zero entries in p than size".
    FUSOR_LAZY tensor<std::int64_t>
    choice(std::int64_t n, const shape_t& shape, bool replace = true, const probabilities& p = {}) {
        const index_t size = shape_size(shape);
        if (n <= 0 && size != 0)
            throw value_error("a must be a positive integer unless no samples are taken");
        return choose(n, shape, replace, p);
    }

    /// `choice(a, shape, replace = true, p = {})` with an array `a`: `a`'s sub-arrays along
    /// axis 0 at the chosen indices (NumPy's `a.take(idx, axis=0)`); shape `shape` + a.shape[1:].
    /// Throws `value_error` for a 0-d `a` and, with samples to take, an empty one ("a cannot be
    /// empty unless no samples are taken"), else as above.
    template <class T>
    tensor<T> choice(const tensor<T>& a,
                     const shape_t& shape,
                     bool replace = true,
                     const probabilities& p = {}) {
        if (a.shape().rank() == 0)
            throw value_error("choice: a must be 1-dimensional or more (or an integer)");
        const index_t n = a.shape()[0];
        if (n == 0 && shape_size(shape) != 0)
            throw value_error("a cannot be empty unless no samples are taken");
        const tensor<std::int64_t> idx = choose(n, shape, replace, p);
        shape_t out_shape = shape;
        for (index_t d = 1; d < a.shape().rank(); ++d)
            out_shape.push_back(a.shape()[static_cast<std::size_t>(d)]);
        tensor<T> out(out_shape, uninitialized);
        const index_t inner = n == 0 ? 0 : a.size() / n;
        for (index_t k = 0; k < idx.size(); ++k)
            std::copy_n(a.data() + idx.data()[k] * inner, inner, out.data() + k * inner);
        return out;
    }

    /// `choice(a, shape, replace, p)` with `a` any expression (a view, `x * 2.0`, an advanced
    /// view): `a` evaluated once, then as above (NumPy converts `a` to an array first).
    // clang-format off
    template <class E>
        requires(expression<E> && !tensor_like<E>)
    tensor<value_type_t<E>> choice(const E& a,
                                   const shape_t& shape,
                                   bool replace = true,
                                   const probabilities& p = {}) {
        // clang-format on
        return choice(tensor<value_type_t<E>>(a), shape, replace, p);
    }

    /// `choice(n)`: one index in [0, n), as NumPy's `choice(n)` without a size (the draws of
    /// `choice(n, {})`). Throws as `choice(n, shape)`.
    FUSOR_LAZY std::int64_t choice(std::int64_t n) { return choice(n, shape_t{}).item(); }

    /// `choice(a)`: one of `a`'s sub-arrays along axis 0, shape `a.shape[1:]`, as NumPy's
    /// `choice(a)` without a size (the draws of `choice(a, {})`); for a 1-d `a` a 0-d tensor,
    /// whose `item()` is NumPy's scalar. Throws as `choice(a, shape)`.
    template <class E>
        requires expression<E> tensor<value_type_t<E>> choice(const E& a) {
            return choice(a, shape_t{});
        }

    /// `permutation(n)` (numpy's Generator.permutation with an integer): 0..n-1 shuffled,
    /// int64, shape (n,). Throws `value_error` for n < 0.
    FUSOR_LAZY tensor<std::int64_t> permutation(std::int64_t n) {
        if (n < 0)
            throw value_error("permutation: negative dimensions are not allowed");
        tensor<std::int64_t> out(shape_t{n}, uninitialized);
        for (std::int64_t i = 0; i < n; ++i)
            out.data()[i] = i;
        shuffle(out);
        return out;
    }

    /// `permutation(a, axis = 0)`: a shuffled copy of `a` along `axis` (as NumPy). Throws
    /// `axis_error` for a bad axis (any axis of a 0-d `a`).
    template <class T>
    tensor<T> permutation(const tensor<T>& a, index_t axis = 0) {
        tensor<T> out = a;
        // NumPy shuffles an index array of the axis' length, so an empty `a` (shape (3, 0))
        // still takes the draws, where shuffle takes none.
        fisher_yates(out, normalize_axis(axis, out.shape().rank()));
        return out;
    }

    /// `permutation(a, axis = 0)` with `a` any expression (a view, `x * 2.0`): `a` evaluated
    /// once into the result, which is then shuffled as above.
    // clang-format off
    template <class E>
        requires(expression<E> && !tensor_like<E>)
    tensor<value_type_t<E>> permutation(const E& a, index_t axis = 0) {
        // clang-format on
        tensor<value_type_t<E>> out(a);
        fisher_yates(out, normalize_axis(axis, out.shape().rank()));
        return out;
    }

    /// `shuffle(t, axis = 0)` (numpy's Generator.shuffle): reorders `t`'s sub-arrays along
    /// `axis` in place by NumPy's Fisher-Yates pass (from the last position down, a masked
    /// rejection draw for each). An empty `t` is left as it is and takes no draws (NumPy:
    /// "shuffling is a no-op"). Throws `axis_error` for a bad axis.
    template <class T>
    void shuffle(tensor<T>& t, index_t axis = 0) {
        const index_t a = normalize_axis(axis, t.shape().rank());
        if (t.size() != 0)
            fisher_yates(t, a);
    }

    /// `shuffle(v, axis = 0)` of a writable view (NumPy's `rng.shuffle(x[:, 0])`, `x[::2]`, ...):
    /// reorders the viewed sub-arrays along `axis` in place, in the tensor the view reads, with
    /// the draws a tensor of that shape takes. A view of a const tensor does not compile.
    /// Throws `axis_error` for a bad axis and `value_error` for a view that repeats an element
    /// (a broadcast axis, stride 0: NumPy's "assignment destination is read-only"); in checked
    /// mode `lifetime_error` when the viewed tensor was destroyed, moved or reshaped.
    template <class T>
    void shuffle(tensor_view<T> v, index_t axis = 0) {
        static_assert(!std::is_const_v<T>,
                      "fusor: shuffle writes in place; a view of a const tensor cannot be "
                      "shuffled (permutation(v) returns a shuffled copy)");
        fusor::detail::check_lifetimes(v); // checked mode: the viewed tensor still there
        const index_t a = normalize_axis(axis, v.shape().rank());
        if (v.size() == 0)
            return;
        const shape_t& s = v.shape();
        const strides_t& st = v.strides();
        // Where one sub-array's elements sit, relative to its first: every axis but `a`.
        std::vector<index_t> offsets{0};
        for (index_t d = 0; d < s.rank(); ++d) {
            const auto du = static_cast<std::size_t>(d);
            if (s[du] > 1 && st[du] == 0)
                throw value_error("shuffle: the view repeats its elements along axis "
                                  + std::to_string(d)
                                  + " (stride 0, a broadcast); NumPy: assignment destination "
                                    "is read-only");
            if (d == a || s[du] == 1)
                continue;
            std::vector<index_t> more;
            more.reserve(offsets.size() * static_cast<std::size_t>(s[du]));
            for (const index_t o : offsets)
                for (index_t k = 0; k < s[du]; ++k)
                    more.push_back(o + k * st[du]);
            offsets = std::move(more);
        }
        const index_t n = s[static_cast<std::size_t>(a)];
        const index_t step = st[static_cast<std::size_t>(a)];
        T* base = v.data();
        for (index_t i = n - 1; i >= 1; --i) {
            const auto j =
                static_cast<index_t>(detail::random_interval(g_, static_cast<std::uint64_t>(i)));
            if (i == j)
                continue;
            for (const index_t o : offsets)
                std::swap(base[i * step + o], base[j * step + o]);
        }
    }

private:
    // NumPy's Fisher-Yates pass over axis `a` of `t` (from the last position down, a masked
    // rejection draw for each), swapping sub-arrays when there are elements.
    template <class T>
    void fisher_yates(tensor<T>& t, index_t a) {
        const auto& s = t.shape();
        const index_t n = s[static_cast<std::size_t>(a)];
        index_t outer = 1, inner = 1;
        for (index_t d = 0; d < a; ++d)
            outer *= s[static_cast<std::size_t>(d)];
        for (index_t d = a + 1; d < s.rank(); ++d)
            inner *= s[static_cast<std::size_t>(d)];
        T* base = t.data();
        for (index_t i = n - 1; i >= 1; --i) {
            const auto j =
                static_cast<index_t>(detail::random_interval(g_, static_cast<std::uint64_t>(i)));
            if (i == j || t.size() == 0)
                continue;
            for (index_t o = 0; o < outer; ++o) {
                T* row = base + o * n * inner;
                std::swap_ranges(row + i * inner, row + (i + 1) * inner, row + j * inner);
            }
        }
    }

    // A tensor of `shape` whose elements, in row-major order, are successive `draw()`s: the
    // serial fill of every method whose values take a variable number of draws.
    template <class T, class Draw>
    static tensor<T> filled(const shape_t& shape, Draw draw) {
        tensor<T> out(shape, uninitialized);
        T* p = out.data();
        for (index_t i = 0, n = out.size(); i < n; ++i)
            p[i] = draw();
        return out;
    }

    FUSOR_LAZY static double checked_range(double low, double high) {
        const double range = high - low;
        if (!std::isfinite(range))
            throw value_error("high - low range exceeds valid bounds (NumPy: OverflowError)");
        if (std::signbit(range)) // NumPy's CONS_NON_NEGATIVE: -0.0 too (uniform(0.0, -0.0))
            throw value_error("high - low < 0");
        return range;
    }

    // NumPy's CONS_NON_NEGATIVE: the sign bit, so -0.0 is refused and NaN passes (its values
    // are NaN).
    FUSOR_LAZY static void check_scale(double scale) {
        if (std::signbit(scale) && !std::isnan(scale))
            throw value_error("scale < 0");
    }

    template <class T>
    void
    fill_integers(integer_bound low, integer_bound high, bool endpoint, T* out, std::int64_t n) {
        const integer_bound lowbnd = std::numeric_limits<T>::min();
        const integer_bound highbnd = std::numeric_limits<T>::max();
        if (!endpoint)
            high -= 1;
        if (low < lowbnd)
            throw value_error("low is out of bounds for " + detail::dtype_name<T>());
        if (high > highbnd)
            throw value_error("high is out of bounds for " + detail::dtype_name<T>());
        if (low > high) // NumPy's format_bounds_error: low 0 is the one-argument form's
            throw value_error(low == 0 ? (endpoint ? "high < 0" : "high <= 0")
                                       : (endpoint ? "low > high" : "low >= high"));
        if constexpr (std::is_same_v<T, bool>) {
            detail::bounded_fill_bool(g_, low != 0, high != low, out, n);
        } else {
            using U = std::make_unsigned_t<T>;
            const auto off = static_cast<U>(low);
            const auto rng = static_cast<U>(high - low);
            detail::bounded_fill<U>(g_, off, rng, reinterpret_cast<U*>(out), n);
        }
    }

    FUSOR_LAZY tensor<std::int64_t>
    choose(std::int64_t pop_size, const shape_t& shape, bool replace, const probabilities& probs) {
        const index_t size = shape_size(shape);
        const std::vector<double>& p = probs.values;
        if (!p.empty())
            check_probabilities(pop_size, p, probs.atol);
        if (replace) {
            if (p.empty())
                return integers<std::int64_t>(0, pop_size, shape);
            const std::vector<double> cdf = detail::normalised_cdf(p);
            const tensor<double> u = random(shape);
            tensor<std::int64_t> idx(shape, uninitialized);
            for (index_t k = 0; k < size; ++k)
                idx.data()[k] = detail::search_right(cdf, u.data()[k]);
            return idx;
        }
        if (size > pop_size)
            throw value_error("Cannot take a larger sample than population when replace is "
                              "False");
        tensor<std::int64_t> idx(shape, uninitialized);
        std::int64_t* found = idx.data();
        if (!p.empty()) {
            if (std::count_if(p.begin(), p.end(), [](double v) { return v > 0; }) < size)
                throw value_error("Fewer non-zero entries in p than size");
            std::vector<double> q = p;
            std::int64_t n_uniq = 0;
            while (n_uniq < size) {
                const tensor<double> x = random(shape_t{size - n_uniq});
                for (std::int64_t k = 0; k < n_uniq; ++k)
                    q[static_cast<std::size_t>(found[k])] = 0;
                const std::vector<double> cdf = detail::normalised_cdf(q);
                // NumPy keeps each new index's first occurrence, in order of appearance.
                std::vector<std::int64_t> fresh;
                for (index_t k = 0; k < x.size(); ++k) {
                    const std::int64_t v = detail::search_right(cdf, x.data()[k]);
                    if (std::find(fresh.begin(), fresh.end(), v) == fresh.end())
                        fresh.push_back(v);
                }
                std::copy(fresh.begin(), fresh.end(), found + n_uniq);
                n_uniq += static_cast<std::int64_t>(fresh.size());
            }
            return idx;
        }
        if (pop_size > 10000 && size > pop_size / 50) {
            // NumPy's tail shuffle: the last `size` positions of a shuffled 0..pop_size-1.
            std::vector<std::int64_t> all(static_cast<std::size_t>(pop_size));
            for (std::int64_t i = 0; i < pop_size; ++i)
                all[static_cast<std::size_t>(i)] = i;
            shuffle_int(all.data(), pop_size, std::max<std::int64_t>(pop_size - size, 1));
            std::copy(all.end() - size, all.end(), found);
            return idx;
        }
        // Floyd's algorithm with NumPy's open-addressing set, then NumPy's shuffle of the
        // result.
        auto set_size = static_cast<std::uint64_t>(1.2 * static_cast<double>(size));
        const std::uint64_t mask = detail::covering_mask(set_size);
        std::vector<std::uint64_t> hash_set(static_cast<std::size_t>(mask + 1),
                                            std::numeric_limits<std::uint64_t>::max());
        constexpr std::uint64_t empty = std::numeric_limits<std::uint64_t>::max();
        for (std::int64_t j = pop_size - size; j < pop_size; ++j) {
            const std::uint64_t val = detail::bounded_uint64(g_, static_cast<std::uint64_t>(j));
            std::uint64_t loc = val & mask;
            while (hash_set[loc] != empty && hash_set[loc] != val)
                loc = (loc + 1) & mask;
            std::int64_t& slot = found[j - pop_size + size];
            if (hash_set[loc] == empty) {
                hash_set[loc] = val;
                slot = static_cast<std::int64_t>(val);
            } else {
                loc = static_cast<std::uint64_t>(j) & mask;
                while (hash_set[loc] != empty)
                    loc = (loc + 1) & mask;
                hash_set[loc] = static_cast<std::uint64_t>(j);
                slot = j;
            }
        }
        shuffle_int(found, size, 1);
        return idx;
    }

    // NumPy's _shuffle_int: Fisher-Yates down to `first` with Lemire draws.
    FUSOR_LAZY void shuffle_int(std::int64_t* data, std::int64_t n, std::int64_t first) {
        for (std::int64_t i = n - 1; i >= first; --i) {
            const auto j = static_cast<std::int64_t>(
                detail::bounded_uint64(g_, static_cast<std::uint64_t>(i)));
            std::swap(data[j], data[i]);
        }
    }

    FUSOR_LAZY static void
    check_probabilities(std::int64_t pop_size, const std::vector<double>& p, double atol) {
        if (static_cast<std::int64_t>(p.size()) != pop_size)
            throw value_error("a and p must have same size");
        const double sum = detail::kahan_sum(p);
        if (std::isnan(sum))
            throw value_error("probabilities contain NaN");
        if (std::any_of(p.begin(), p.end(), [](double v) { return v < 0; }))
            throw value_error("probabilities are not non-negative");
        if (std::abs(sum - 1.0) > atol)
            throw value_error("probabilities do not sum to 1");
    }

    pcg64 g_;
};

/// `default_rng()` (numpy.random.default_rng()): a generator seeded from fresh OS entropy.
FUSOR_DECL generator default_rng();

/// `default_rng(seed)` (numpy.random.default_rng(seed)): PCG64 seeded through
/// `seed_sequence(seed)`: the same values as NumPy's for the same non-negative seed. Throws
/// `value_error` for a negative seed (NumPy: "expected non-negative integer").
template <std::integral I>
generator default_rng(I seed) {
    if constexpr (std::is_signed_v<I>)
        if (seed < 0)
            throw value_error("default_rng: expected non-negative integer, got "
                              + std::to_string(seed));
    return generator(pcg64{seed_sequence{static_cast<std::uint64_t>(seed)}});
}

/// `default_rng(seq)`: PCG64 seeded by a `seed_sequence` (e.g. one of `seq.spawn(n)`).
FUSOR_DECL generator default_rng(const seed_sequence& seq);

/// `default_rng(bit_generator)`: a generator over a given `pcg64` (e.g. `g.jumped()`).
FUSOR_DECL generator default_rng(const pcg64& bit_generator);

/// `random::uniform<T>(shape, low, high, seed)`: shorthand for
/// `default_rng(seed).uniform(low, high, shape)` cast to `T` (float or double; a float result
/// is NumPy's `default_rng(seed).uniform(low, high, shape).astype(np.float32)`).
template <class T = double>
tensor<T> uniform(const shape_t& shape, double low, double high, std::uint64_t seed) {
    static_assert(std::is_floating_point_v<T>, "fusor: random::uniform<T> needs a float type");
    tensor<double> values = default_rng(seed).uniform(low, high, shape);
    if constexpr (std::is_same_v<T, double>) {
        return values;
    } else {
        tensor<T> out(shape, uninitialized);
        std::transform(values.data(), values.data() + values.size(), out.data(), [](double v) {
            return static_cast<T>(v);
        });
        return out;
    }
}

/// `random::normal<T>(shape, mean, stddev, seed)`: shorthand for
/// `default_rng(seed).normal(mean, stddev, shape)` cast to `T` (as `uniform` above).
template <class T = double>
tensor<T> normal(const shape_t& shape, double mean, double stddev, std::uint64_t seed) {
    static_assert(std::is_floating_point_v<T>, "fusor: random::normal<T> needs a float type");
    tensor<double> values = default_rng(seed).normal(mean, stddev, shape);
    if constexpr (std::is_same_v<T, double>) {
        return values;
    } else {
        tensor<T> out(shape, uninitialized);
        std::transform(values.data(), values.data() + values.size(), out.data(), [](double v) {
            return static_cast<T>(v);
        });
        return out;
    }
}

} // namespace fusor::random

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/random/generator.ipp>
#endif
