// fusor/exec/eager.hpp: eval_eager, NumPy-style evaluation with a temporary per node. It
// exists to measure what fusion buys: same values, one allocation and one pass per node.
#pragma once

#include <utility>

#include <boost/hana/transform.hpp>
#include <boost/hana/unpack.hpp>

#include <fusor/exec/assign.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/reshaped.hpp>
#include <fusor/reduce/reduction.hpp>

namespace fusor {

namespace detail {
// Rebuilds a node over children that were each evaluated into their own tensor. Views stay
// views (NumPy's are free too); leaves and scalars stay as they are.
template <class N>
auto eager_children(const N& n);

template <class N>
auto eager_materialised(const N& n) {
    if constexpr (tag_of<N> == node_tag::leaf || tag_of<N> == node_tag::scalar)
        return n;
    else if constexpr (tag_of<N> == node_tag::reshaped) {
        auto c = eager_materialised(n.child);
        return reshaped<decltype(c)>{{}, std::move(c), n.out_shape, n.split};
    } else if constexpr (tag_of<N> == node_tag::remap) {
        auto c = eager_materialised(n.child);
        return remap<decltype(c)>{{}, std::move(c), n.map};
    } else
        return make_leaf(eval(eager_children(n)));
}

template <class N>
auto eager_children(const N& n) {
    if constexpr (tag_of<N> == node_tag::reduction) {
        auto c = eager_materialised(n.child);
        return reduction<typename N::reducer_type, decltype(c)>{
            {}, std::move(c), n.axes, n.keepdims, n.flat, n.shape()};
    } else if constexpr (tag_of<N> == node_tag::elementwise) {
        auto cs =
            boost::hana::transform(n.children, [](const auto& c) { return eager_materialised(c); });
        return boost::hana::unpack(std::move(cs), [](auto&&... c) {
            return elementwise<typename N::op_type, std::remove_cvref_t<decltype(c)>...>(
                std::move(c)...);
        });
    } else if constexpr (tag_of<N> == node_tag::reshaped) {
        auto c = eager_materialised(n.child);
        return reshaped<decltype(c)>{{}, std::move(c), n.out_shape, n.split};
    } else if constexpr (tag_of<N> == node_tag::remap) {
        auto c = eager_materialised(n.child);
        return remap<decltype(c)>{{}, std::move(c), n.map};
    } else {
        return n;
    }
}
} // namespace detail

/// Evaluates `e` as NumPy would: every element-wise and reduction node below the root is
/// materialised into a temporary before its parent runs; the values equal `eval(e)`'s. For
/// benchmarks of fusion against eager evaluation.
template <class E>
    requires expression<E> tensor<value_type_t<E>> eval_eager(const E& e) {
        detail::check_lifetimes(e);
        return eval(detail::eager_children(as_node(e)));
    }

} // namespace fusor
