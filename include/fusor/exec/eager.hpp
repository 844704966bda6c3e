// fusor/exec/eager.hpp: eval_eager, NumPy-style evaluation with a temporary per node. It
// exists to measure what fusion buys: same values, one allocation and one pass per node.
#pragma once

#include <cstddef>
#include <utility>

#include <fusor/core/traverse.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/exec/rebuild.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/reshaped.hpp>
#include <fusor/reduce/reduction.hpp>

namespace fusor {

namespace detail {
// The two walks of eager evaluation: eager_rebuilder rebuilds a node over children that were
// each evaluated into their own tensor by eager_materialiser, where views stay views (NumPy's
// are free too), leaves and scalars stay as they are, and any other node becomes a leaf over
// its value.
struct eager_rebuilder : child_rebuilder<eager_rebuilder> {
    template <class C>
    auto child_of(const C& c) const;
    // A segmented node at the root is evaluated as it is (one copy loop per segment).
    template <class N>
    N on_segmented(const N& n) const {
        return n;
    }
};

// Leaves, scalars and views as eager_rebuilder has them; computed nodes become leaves.
struct eager_materialiser : eager_rebuilder {
    template <class N>
    auto on_elementwise(const N& n) const {
        return make_leaf(eval(eager_rebuilder{}.on_elementwise(n)));
    }
    template <class N>
    auto on_reduction(const N& n) const {
        return make_leaf(eval(eager_rebuilder{}.on_reduction(n)));
    }
    // NumPy's roll, pad or concatenate makes a new array.
    template <class N>
    auto on_segmented(const N& n) const {
        return make_leaf(eval(n));
    }
};

// The children of a node rebuilt by eager_rebuilder: each through eager_materialiser.
template <class C>
auto eager_rebuilder::child_of(const C& c) const {
    return traverse(c, eager_materialiser{});
}
} // namespace detail

/// Evaluates `e` as NumPy would: every element-wise and reduction node below the root is
/// materialised into a temporary before its parent runs; the values equal `eval(e)`'s. For
/// benchmarks of fusion against eager evaluation.
template <class E>
    requires expression<E> tensor<value_type_t<E>> eval_eager(const E& e) {
        detail::check_lifetimes(e);
        return eval(traverse(as_node(e), detail::eager_rebuilder{}));
    }

} // namespace fusor
