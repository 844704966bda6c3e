// fusor/exec/rebuild.hpp: a node rebuilt over transformed children, same kind and parameters.
// The one place where the walks that replace parts of a tree construct nodes: eval_eager's
// materialisation (exec/eager.hpp) and the filling of lazy segments (exec/segmented_eval.hpp).
#pragma once

#include <cstddef>
#include <utility>

#include <fusor/core/expression.hpp>
#include <fusor/core/traverse.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/reshaped.hpp>
#include <fusor/reduce/reduction.hpp>

namespace fusor::detail {

/// Node `n` (element-wise, reduction, reshape or remap) rebuilt with each child `c` replaced by
/// `f(c)`: the same operation, axes, shape or index map over the new children.
template <class N, class F>
auto rebuild_with(const N& n, F&& f) {
    constexpr node_tag t = tag_of<N>;
    if constexpr (t == node_tag::elementwise) {
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            return elementwise<typename N::op_type, decltype(f(child<I>(n)))...>(f(child<I>(n))...);
        }
        (std::make_index_sequence<child_count<N>>{});
    } else if constexpr (t == node_tag::reduction) {
        auto c = f(n.child);
        return reduction<typename N::reducer_type, decltype(c)>(
            std::move(c), n.axes, n.keepdims, n.flat, n.shape());
    } else if constexpr (t == node_tag::reshaped) {
        auto c = f(n.child);
        return reshaped<decltype(c)>{{}, std::move(c), n.out_shape, n.split};
    } else {
        static_assert(t == node_tag::remap, "fusor: rebuild_with of a node without children");
        auto c = f(n.child);
        return remap<decltype(c)>{{}, std::move(c), n.map};
    }
}

/// The members of a tree walk that rebuilds a tree (`traverse`'s visitor): leaves and scalars
/// stay as they are, and each node with children is rebuilt (`rebuild_with`) over its children
/// as `Derived::child_of(c)` makes them. A walk adds what it does differently (a segmented
/// node, a node it evaluates instead) as members of its own.
template <class Derived>
struct child_rebuilder {
    template <class N>
    N on_leaf(const N& n) const {
        return n;
    }
    template <class N>
    N on_scalar(const N& n) const {
        return n;
    }
    template <class N>
    auto on_elementwise(const N& n) const {
        return rebuilt(n);
    }
    template <class N>
    auto on_reduction(const N& n) const {
        return rebuilt(n);
    }
    template <class N>
    auto on_reshaped(const N& n) const {
        return rebuilt(n);
    }
    template <class N>
    auto on_remap(const N& n) const {
        return rebuilt(n);
    }

private:
    template <class N>
    auto rebuilt(const N& n) const {
        const Derived& self = static_cast<const Derived&>(*this);
        return rebuild_with(n, [&self](const auto& c) { return self.child_of(c); });
    }
};

} // namespace fusor::detail
