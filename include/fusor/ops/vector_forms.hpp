// fusor/ops/vector_forms.hpp: which math functions have a vectorised form in this build, as one
// list. The planner reads it to decide whether a loop runs its math in blocks through SLEEF
// (and explain prints that decision); exec/vector_math.hpp reads the same list to call SLEEF.
#pragma once

#include <string_view>
#include <type_traits>

#include <boost/container/small_vector.hpp>
#include <boost/hana/for_each.hpp>

#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/reshaped.hpp>
#include <fusor/ops/math.hpp>

/// 1 when fusor was built with SLEEF (CMake `FUSOR_SLEEF`, or `-DFUSOR_HAS_SLEEF=1 -lsleef` by
/// hand) for an x86 SIMD target: then the functions of `FUSOR_VECTOR_FUNCTIONS` run in SIMD
/// registers over blocks of the inner loop.
#if defined(FUSOR_HAS_SLEEF) && (defined(__SSE2__) || defined(__AVX__) || defined(__AVX512F__))
#define FUSOR_VECTOR_MATH 1
#else
#define FUSOR_VECTOR_MATH 0
#endif

/// The functions with a vectorised form: X(numpy name, SLEEF name). Left out: sinh and cosh
/// (SLEEF's overflow to inf comes early: sinhf(89) is inf, not 2.2e38) and log1p (inf for the
/// largest finite values); those stay on the C library.
#define FUSOR_VECTOR_FUNCTIONS(X)                                                                  \
    X(exp, exp)                                                                                    \
    X(exp2, exp2)                                                                                  \
    X(expm1, expm1)                                                                                \
    X(log, log)                                                                                    \
    X(log2, log2)                                                                                  \
    X(log10, log10)                                                                                \
    X(cbrt, cbrt)                                                                                  \
    X(sin, sin)                                                                                    \
    X(cos, cos)                                                                                    \
    X(tan, tan)                                                                                    \
    X(arcsin, asin)                                                                                \
    X(arccos, acos)                                                                                \
    X(arctan, atan)                                                                                \
    X(tanh, tanh)

namespace fusor {

namespace detail {
template <class Op>
struct listed_vector_function : std::false_type {};
#define FUSOR_LIST_VECTOR_FUNCTION(OP, FN)                                                         \
    template <>                                                                                    \
    struct listed_vector_function<ops::OP> : std::true_type {};
FUSOR_VECTOR_FUNCTIONS(FUSOR_LIST_VECTOR_FUNCTION)
#undef FUSOR_LIST_VECTOR_FUNCTION
} // namespace detail

/// True when `Op` over element type `T` runs through a vectorised function in this build:
/// float32 and float64 results of the listed functions, with SLEEF.
template <class Op, class T>
inline constexpr bool has_vector_form = FUSOR_VECTOR_MATH != 0
                                        && detail::listed_vector_function<Op>::value
                                        && (std::is_same_v<T, float> || std::is_same_v<T, double>);

/// True when node `N` calls, outside any reduction or materialised boundary, a math function
/// with a vectorised form: only then is a blocked evaluator worth instantiating.
template <class N>
inline constexpr bool has_vector_math = false;
template <class Op, class... Cs>
inline constexpr bool has_vector_math<elementwise<Op, Cs...>> =
    has_vector_form<Op, typename elementwise<Op, Cs...>::value_type> || (has_vector_math<Cs> || ...);
template <class C>
inline constexpr bool has_vector_math<remap<C>> = has_vector_math<C>;
template <class C>
inline constexpr bool has_vector_math<reshaped<C>> = has_vector_math<C>;

/// The names of the functions with a vectorised form that the loop computing `n` calls itself
/// (not those inside a reduction, or inside a reshape that is copied first: other loops run
/// them), depth-first, each once.
template <class N>
void vector_functions_of(const N& n, boost::container::small_vector<std::string_view, 4>& out) {
    if constexpr (tag_of<N> == node_tag::elementwise) {
        using Op = typename N::op_type;
        if constexpr (has_vector_form<Op, typename N::value_type>) {
            bool seen = false;
            for (std::string_view f : out)
                seen = seen || f == Op::name;
            if (!seen)
                out.push_back(Op::name);
        }
        boost::hana::for_each(n.children, [&out](const auto& c) { vector_functions_of(c, out); });
    } else if constexpr (tag_of<N> == node_tag::remap) {
        vector_functions_of(n.child, out);
    } else if constexpr (tag_of<N> == node_tag::reshaped) {
        if (n.split)
            vector_functions_of(n.child, out);
    }
}

} // namespace fusor
