// fusor/core/dtype.hpp: element types, their NumPy names, and NumPy's promotion rules.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

namespace fusor {

/// True for the element types a tensor may hold: `bool`, `int8_t`..`int64_t`,
/// `uint8_t`..`uint64_t`, `float`, `double`.
template <class T>
concept element_type = std::is_same_v<T, bool> || std::is_same_v<T, std::int8_t> || std::is_same_v<
    T,
    std::int16_t> || std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> || std::
    is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t> || std::
        is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t> || std::
            is_same_v<T, float> || std::is_same_v<T, double>;

/// NumPy's kinds, in the order same_kind casting and weak scalars use: b < u < i < f.
enum class kind { boolean = 0, unsigned_integer = 1, signed_integer = 2, floating = 3 };

/// The kind of an element type: `kind_of<std::uint8_t>() == kind::unsigned_integer`.
template <class T>
constexpr kind kind_of() {
    if constexpr (std::is_same_v<T, bool>)
        return kind::boolean;
    else if constexpr (std::is_floating_point_v<T>)
        return kind::floating;
    else if constexpr (std::is_signed_v<T>)
        return kind::signed_integer;
    else
        return kind::unsigned_integer;
}

/// The fixed-width element type of the same kind and size as any C++ arithmetic type
/// (`long long` → `int64_t`, `char` → `int8_t`, `long double` → `double`).
template <class T>
struct canonical {
    using U = std::remove_cvref_t<T>;
    template <std::size_t N>
    using sint = std::conditional_t<
        N == 1,
        std::int8_t,
        std::conditional_t<N == 2,
                           std::int16_t,
                           std::conditional_t<N == 4, std::int32_t, std::int64_t>>>;
    template <std::size_t N>
    using uint = std::make_unsigned_t<sint<N>>;
    using type = std::conditional_t<
        std::is_same_v<U, bool>,
        bool,
        std::conditional_t<
            std::is_floating_point_v<U>,
            std::conditional_t<std::is_same_v<U, float>, float, double>,
            std::conditional_t<std::is_signed_v<U>, sint<sizeof(U)>, uint<sizeof(U)>>>>;
};
template <class T>
using canonical_t = typename canonical<T>::type;

/// NumPy's name of an element type: `float64`, `int32`, `bool`, ...
template <class T>
constexpr std::string_view dtype_name() {
    using U = canonical_t<T>;
    if constexpr (std::is_same_v<U, bool>)
        return "bool";
    else if constexpr (std::is_same_v<U, float>)
        return "float32";
    else if constexpr (std::is_same_v<U, double>)
        return "float64";
    else if constexpr (std::is_same_v<U, std::int8_t>)
        return "int8";
    else if constexpr (std::is_same_v<U, std::int16_t>)
        return "int16";
    else if constexpr (std::is_same_v<U, std::int32_t>)
        return "int32";
    else if constexpr (std::is_same_v<U, std::int64_t>)
        return "int64";
    else if constexpr (std::is_same_v<U, std::uint8_t>)
        return "uint8";
    else if constexpr (std::is_same_v<U, std::uint16_t>)
        return "uint16";
    else if constexpr (std::is_same_v<U, std::uint32_t>)
        return "uint32";
    else
        return "uint64";
}

namespace detail {
template <class A, class B>
constexpr auto promote_impl() {
    if constexpr (std::is_same_v<A, B>)
        return A{};
    else if constexpr (std::is_same_v<A, bool>)
        return B{};
    else if constexpr (std::is_same_v<B, bool>)
        return A{};
    else if constexpr (std::is_floating_point_v<A> && std::is_floating_point_v<B>)
        return std::conditional_t<(sizeof(A) > sizeof(B)), A, B>{};
    else if constexpr (std::is_floating_point_v<A> || std::is_floating_point_v<B>) {
        // float32 holds 8- and 16-bit integers exactly; wider integers need float64.
        using F = std::conditional_t<std::is_floating_point_v<A>, A, B>;
        using I = std::conditional_t<std::is_floating_point_v<A>, B, A>;
        return std::conditional_t<(sizeof(I) <= 2), F, double>{};
    } else if constexpr (std::is_signed_v<A> == std::is_signed_v<B>)
        return std::conditional_t<(sizeof(A) > sizeof(B)), A, B>{};
    else {
        using S = std::conditional_t<std::is_signed_v<A>, A, B>;
        using U = std::conditional_t<std::is_signed_v<A>, B, A>;
        if constexpr (sizeof(S) > sizeof(U))
            return S{};
        else if constexpr (sizeof(U) == 8)
            return double{}; // int64 + uint64 -> float64, as NumPy
        else
            return typename canonical<std::int64_t>::template sint<2 * sizeof(U)>{};
    }
}
} // namespace detail

/// `numpy.result_type` for two element types (promotion by dtype only):
/// `int8 + uint8 → int16`, `int64 + uint64 → float64`, `int32 + float32 → float64`.
template <class A, class B>
using promote_t = decltype(detail::promote_impl<canonical_t<A>, canonical_t<B>>());

namespace detail {
// numpy.result_type of several element types (promote_t, folded left to right).
template <class T, class... Rest>
struct promote_all {
    using type = T;
};
template <class T, class U, class... Rest>
struct promote_all<T, U, Rest...> : promote_all<promote_t<T, U>, Rest...> {};

// NEP 50 compares a weak scalar with an operand by kind only, where signed and unsigned are
// one "integer" kind: bool (0) < integer (1) < floating (2).
constexpr int weak_kind_rank(kind k) {
    return k == kind::boolean ? 0 : k == kind::floating ? 2 : 1;
}
} // namespace detail

/// The type a weak C++ scalar of type `S` takes next to an operand of element type `T`
/// (NEP 50 by kind, `bool < integer < floating`): `T` when the scalar's kind is not above
/// `T`'s, otherwise the default of the scalar's kind (`int64_t` or `double`).
/// `weak_scalar_t<float, double>` is `float`; `weak_scalar_t<int32_t, double>` is `double`.
template <class T, class S>
using weak_scalar_t =
    std::conditional_t<(detail::weak_kind_rank(kind_of<canonical_t<S>>())
                        <= detail::weak_kind_rank(kind_of<T>())),
                       T,
                       std::conditional_t<std::is_floating_point_v<S>, double, std::int64_t>>;

/// Result type of the math functions (`exp`, `sqrt`, ...): floating types keep theirs;
/// `bool` and 8/16-bit integers give `float`; 32/64-bit integers give `double` (NumPy, with no
/// float16).
template <class T>
using float_result_t = std::conditional_t<
    std::is_floating_point_v<T>,
    T,
    std::conditional_t<(std::is_same_v<T, bool> || sizeof(T) <= 2), float, double>>;

/// True division's result type: integers and bools divide as `double`.
template <class A, class B>
using true_divide_t =
    std::conditional_t<std::is_floating_point_v<promote_t<A, B>>, promote_t<A, B>, double>;

/// NumPy's `same_kind` casting rule from `From` to `To` (used by compound assignment):
/// allowed when `From`'s kind is not above `To`'s (b < u < i < f).
template <class From, class To>
constexpr bool same_kind_castable = static_cast<int>(kind_of<From>())
                                    <= static_cast<int>(kind_of<To>());

} // namespace fusor
