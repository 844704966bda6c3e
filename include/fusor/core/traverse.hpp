// fusor/core/traverse.hpp: the one traversal of an expression tree. Every walk over a tree
// (planning, evaluator building, eager evaluation, the plan cache's key, the lifetime check)
// dispatches on the node's kind here and reaches children only through for_each_child and
// all_children; explain reads what the planning walk recorded. A new node kind then needs one
// case here, and a walk that meets it without handling it does not compile.
#pragma once

#include <cstddef>
#include <utility>

#include <fusor/config.hpp>
#include <fusor/core/child_slots.hpp>
#include <fusor/core/expression.hpp>

namespace fusor {

/// Calls the member of visitor `v` for the kind of node `n` (its `node_tag`), with `args...`
/// after the node, and returns what it returns: `v.on_leaf(n, args...)`, `v.on_scalar`,
/// `v.on_elementwise`, `v.on_remap`, `v.on_reshaped`, `v.on_reduction`, `v.on_segmented`,
/// `v.on_materialised`.
/// Only the members for the kinds a walk meets are needed (each is instantiated on use), so a
/// visitor that meets a kind it has no member for is a compile error, never a silent skip.
/// A visitor that recurses calls `traverse` again on the children it chooses to visit.
template <class N, class V, class... A>
FUSOR_FORWARD decltype(auto) traverse(const N& n, V&& v, A&&... args) {
    constexpr node_tag t = tag_of<N>;
    if constexpr (t == node_tag::leaf)
        return v.on_leaf(n, std::forward<A>(args)...);
    else if constexpr (t == node_tag::scalar)
        return v.on_scalar(n, std::forward<A>(args)...);
    else if constexpr (t == node_tag::elementwise)
        return v.on_elementwise(n, std::forward<A>(args)...);
    else if constexpr (t == node_tag::remap)
        return v.on_remap(n, std::forward<A>(args)...);
    else if constexpr (t == node_tag::reshaped)
        return v.on_reshaped(n, std::forward<A>(args)...);
    else if constexpr (t == node_tag::reduction)
        return v.on_reduction(n, std::forward<A>(args)...);
    else if constexpr (t == node_tag::segmented)
        return v.on_segmented(n, std::forward<A>(args)...);
    else {
        static_assert(t == node_tag::materialised, "fusor: a node_tag without a traverse case");
        return v.on_materialised(n, std::forward<A>(args)...);
    }
}

/// The number of children of node type `N`: an element-wise node's operands, 1 for a remap,
/// reshape, reduction or materialised node, 0 for a leaf, scalar or segmented node (its
/// sources are views, not nodes).
template <class N>
inline constexpr std::size_t child_count = [] {
    constexpr node_tag t = tag_of<N>;
    if constexpr (t == node_tag::leaf || t == node_tag::scalar || t == node_tag::segmented)
        return std::size_t{0};
    else if constexpr (t == node_tag::elementwise)
        return std::remove_cvref_t<N>::arity;
    else
        return std::size_t{1};
}();

/// Child `I` of node `n` (as child_count counts them).
template <std::size_t I, class N>
FUSOR_FORWARD const auto& child(const N& n) {
    if constexpr (tag_of<N> == node_tag::elementwise)
        return detail::slot_value<I>(n.children);
    else
        return n.child;
}

/// Calls `f(c)` for each child `c` of `n`, left to right (so leaves are met depth-first in the
/// order the planner numbers operands).
template <class N, class F>
FUSOR_FORWARD void for_each_child(const N& n, F&& f) {
    [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
        (f(child<I>(n)), ...);
    }
    (std::make_index_sequence<child_count<N>>{});
}

/// True when `f(c)` is true for every child `c` of `n`, asked left to right until one is false
/// (true for a node without children).
template <class N, class F>
FUSOR_FORWARD bool all_children(const N& n, F&& f) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
        return (true && ... && static_cast<bool>(f(child<I>(n))));
    }
    (std::make_index_sequence<child_count<N>>{});
}

} // namespace fusor
