// fusor/expr/splitting.hpp: split, array_split, hsplit, vsplit and dsplit, as NumPy's: a
// std::vector of views (slices along one axis), never a copy: writable views of a tensor or a
// view, lazy remaps of an expression (each part holds its own copy of the expression node).
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/axis.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/slice.hpp>
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {

/// What splitting takes, as NumPy's `indices_or_sections`: a number of sections (`3`), or
/// the indices where parts begin (`{2, 5}`, or a `std::vector<index_t>`; a one-element list
/// `{3}` is an index list, as NumPy's `[3]`).
struct split_spec {
    bool by_sections;
    index_t sections = 0;
    std::vector<index_t> indices;

    split_spec(index_t n) : by_sections(true), sections(n) {}
    split_spec(std::initializer_list<index_t> i) : by_sections(false), indices(i) {}
    split_spec(std::vector<index_t> i) : by_sections(false), indices(std::move(i)) {}
};

/// The slices of an axis of extent `n` that the parts are (NumPy's array_split): `sections`
/// parts of `n / sections` elements, the first `n % sections` one more; or the Python slices
/// `[:i0], [i0:i1], ..., [ik:]` of an index list (negative indices count from the end, out of
/// range ones clamp: parts may be empty). `equal` (numpy.split) refuses an unequal division.
/// Throws `value_error` for `sections <= 0` ("number sections must be larger than 0") and, when
/// `equal`, "array split does not result in an equal division".
FUSOR_DECL std::vector<slice> split_slices(const split_spec& spec, index_t n, bool equal);

/// The parts of `e` along `axis`, one view per slice: an rvalue tensor is moved into storage
/// the views share; an rvalue expression is kept and copied into each part.
template <class E>
auto split_views(E&& e, const split_spec& spec, index_t axis_in, bool equal) {
    using U = std::remove_cvref_t<E>;
    if constexpr (tensor_like<E> && !std::is_lvalue_reference_v<E>) {
        using T = typename U::value_type;
        auto owned = std::make_shared<U>(std::move(e));
        const tensor_view<T> v(owned->data(), owned->shape(), owned->strides(), owned);
        return split_views(v, spec, axis_in, equal);
    } else if constexpr (node<E> && !std::is_lvalue_reference_v<E>) {
        const U kept = std::move(e);
        return split_views(kept, spec, axis_in, equal);
    } else {
        const shape_t& s = detail::checked_shape_of(e);
        const index_t axis = normalize_axis(axis_in, s.rank());
        const std::vector<slice> parts =
            split_slices(spec, s[static_cast<std::size_t>(axis)], equal);
        std::vector<view_index> idx(s.size(), slice(none, none));
        const auto one = [&](const slice& part) {
            idx[static_cast<std::size_t>(axis)] = part;
            return apply_view(e, [&](const shape_t& in) { return view_map(in, idx); });
        };
        std::vector<decltype(one(parts[0]))> out;
        out.reserve(parts.size());
        for (const slice& part : parts)
            out.push_back(one(part));
        return out;
    }
}

// The N parts of a split as a std::array (parts are views: not default-constructible).
template <std::size_t N, class V, std::size_t... I>
std::array<V, N> parts_array(std::vector<V>&& parts, std::index_sequence<I...>) {
    return {{std::move(parts[I])...}};
}

// `value_error` unless `e` has at least `rank` axes (numpy.hsplit/vsplit/dsplit).
FUSOR_DECL void require_split_rank(const shape_t& s, index_t rank, const char* what);

} // namespace detail

/// `split(e, sections_or_indices, axis = 0)` as numpy.split: a `std::vector` of views of `e`
/// along `axis`, either `sections` equal parts (`split(t, 3)`: (6, 2) → three (2, 2)), or the
/// parts between the given indices (`split(t, {2, 5})`: [:2], [2:5], [5:], Python's slice
/// rules, so parts may be empty). No copy: each part is a `tensor_view` of a tensor or view
/// (writable when it is), or a lazy remap of an expression. Throws `axis_error` for an axis
/// out of range (any 0-d operand), `value_error` for `sections <= 0` or sections that do not
/// divide the axis ("array split does not result in an equal division").
template <class E>
    requires expression<E>
auto split(E&& e, const detail::split_spec& sections_or_indices, index_t axis = 0) {
    return detail::split_views(std::forward<E>(e), sections_or_indices, axis, true);
}

/// `array_split(e, sections_or_indices, axis = 0)` as numpy.array_split: as `split`, but
/// `sections` need not divide the axis: the first `n % sections` parts get one element more
/// ((5,) into 3 → (2,), (2,), (1,)). Throws as `split` except for the unequal division.
template <class E>
    requires expression<E>
auto array_split(E&& e, const detail::split_spec& sections_or_indices, index_t axis = 0) {
    return detail::split_views(std::forward<E>(e), sections_or_indices, axis, false);
}

/// `split<N>(e, axis = 0)`: `split(e, N, axis)` as a `std::array` of the N parts, so that
/// structured bindings take them as NumPy's tuple unpacking does: `auto [a, b] = split<2>(x);`
/// (`a, b = np.split(x, 2)`). Throws as `split`.
template <std::size_t N, class E>
    requires expression<E>
auto split(E&& e, index_t axis = 0) {
    static_assert(N > 0, "fusor::split<N>: number sections must be larger than 0");
    return detail::parts_array<N>(
        detail::split_views(std::forward<E>(e), static_cast<index_t>(N), axis, true),
        std::make_index_sequence<N>{});
}

/// `array_split<N>(e, axis = 0)`: `array_split(e, N, axis)` as a `std::array` of the N parts
/// (`auto [a, b, c] = array_split<3>(x);`). Throws as `array_split`.
template <std::size_t N, class E>
    requires expression<E>
auto array_split(E&& e, index_t axis = 0) {
    static_assert(N > 0, "fusor::array_split<N>: number sections must be larger than 0");
    return detail::parts_array<N>(
        detail::split_views(std::forward<E>(e), static_cast<index_t>(N), axis, false),
        std::make_index_sequence<N>{});
}

/// `hsplit(e, sections_or_indices)` as numpy.hsplit: `split` along axis 1, or axis 0 for a 1-d
/// operand. Throws `value_error` for a 0-d operand ("hsplit only works on arrays of 1 or more
/// dimensions"), else as `split`.
template <class E>
    requires expression<E>
auto hsplit(E&& e, const detail::split_spec& sections_or_indices) {
    const index_t r = detail::checked_shape_of(e).rank();
    detail::require_split_rank(e.shape(), 1, "hsplit");
    return detail::split_views(std::forward<E>(e), sections_or_indices, r > 1 ? 1 : 0, true);
}

/// `vsplit(e, sections_or_indices)` as numpy.vsplit: `split` along axis 0 of an operand of rank
/// ≥ 2. Throws `value_error` for a lower rank ("vsplit only works on arrays of 2 or more
/// dimensions"), else as `split`.
template <class E>
    requires expression<E>
auto vsplit(E&& e, const detail::split_spec& sections_or_indices) {
    detail::require_split_rank(detail::checked_shape_of(e), 2, "vsplit");
    return detail::split_views(std::forward<E>(e), sections_or_indices, 0, true);
}

/// `dsplit(e, sections_or_indices)` as numpy.dsplit: `split` along axis 2 of an operand of rank
/// ≥ 3. Throws `value_error` for a lower rank ("dsplit only works on arrays of 3 or more
/// dimensions"), else as `split`.
template <class E>
    requires expression<E>
auto dsplit(E&& e, const detail::split_spec& sections_or_indices) {
    detail::require_split_rank(detail::checked_shape_of(e), 3, "dsplit");
    return detail::split_views(std::forward<E>(e), sections_or_indices, 2, true);
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/expr/splitting.ipp>
#endif
