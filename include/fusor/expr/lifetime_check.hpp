// fusor/expr/lifetime_check.hpp: checked mode's walk over an expression's operands before it is
// evaluated (core/lifetime.hpp has what each operand records).
#pragma once

#include <string>

#include <boost/hana/for_each.hpp>

#include <fusor/core/dtype.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/lifetime.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/leaf.hpp>

namespace fusor::detail {

#if FUSOR_CHECKED
// Numbers the tensors and views of the tree from the left (1, 2, ...) and checks each.
template <class N>
void check_operands(const N& n, int& position) {
    if constexpr (tag_of<N> == node_tag::leaf) {
        using V = typename N::value_type;
        check_stamp(
            n.stamp, ++position, std::string(dtype_name<V>()) + (n.is_view ? " view" : " tensor"));
    } else if constexpr (tag_of<N> == node_tag::scalar) {
    } else if constexpr (tag_of<N> == node_tag::elementwise) {
        boost::hana::for_each(n.children, [&](const auto& c) { check_operands(c, position); });
    } else {
        check_operands(n.child, position); // remap, reshaped, reduction, materialised
    }
}
#endif

/// Checked mode: throws `lifetime_error` when an operand of `e` (a tensor, view or expression)
/// was destroyed, moved from, reallocated or reshaped since `e` was built. Release: nothing.
template <class E>
void check_lifetimes([[maybe_unused]] const E& e) {
#if FUSOR_CHECKED
    int position = 0;
    if constexpr (view_like<E>)
        check_stamp(
            e.lifetime(), ++position, std::string(dtype_name<typename E::value_type>()) + " view");
    else if constexpr (node<E>)
        check_operands(e, position);
#endif
}

template <class E>
const shape_t& checked_shape_of(const E& e) {
    check_lifetimes(e);
    return e.shape();
}

} // namespace fusor::detail
