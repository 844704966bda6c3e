// fusor/expr/lifetime_check.hpp: checked mode's walk over an expression's operands before it is
// evaluated (core/lifetime.hpp has what each operand records).
#pragma once

#include <string>

#include <fusor/core/dtype.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/lifetime.hpp>
#include <fusor/core/traverse.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/leaf.hpp>

namespace fusor::detail {

#if FUSOR_CHECKED
// Numbers the tensors and views of the tree from the left (1, 2, ...) and checks each.
struct operand_checker {
    int position = 0;
    template <class N>
    void on_leaf(const N& n) {
        using V = typename N::value_type;
        check_stamp(n.stamp, ++position, dtype_name<V>(), n.is_view ? "view" : "tensor");
    }
    template <class N>
    void on_scalar(const N&) {}
    // a segmented node: the view each segment reads
    template <class N>
    void on_segmented(const N& n) {
        using V = typename N::value_type;
        for (const auto& seg : n.list->segments)
            check_stamp(seg.source.lifetime(), ++position, dtype_name<V>(), "view");
    }
    // element-wise, remap, reshaped, reduction, materialised: their children
    template <class N>
    void on_elementwise(const N& n) {
        visit_children(n);
    }
    template <class N>
    void on_remap(const N& n) {
        visit_children(n);
    }
    template <class N>
    void on_reshaped(const N& n) {
        visit_children(n);
    }
    template <class N>
    void on_reduction(const N& n) {
        visit_children(n);
    }
    template <class N>
    void on_materialised(const N& n) {
        visit_children(n);
    }
    template <class N>
    void visit_children(const N& n) {
        for_each_child(n, [this](const auto& c) FUSOR_FORWARD_LAMBDA { traverse(c, *this); });
    }
};
#endif

/// Checked mode: throws `lifetime_error` when an operand of `e` (a tensor, view or expression)
/// was destroyed, moved from, reallocated or reshaped since `e` was built. Release: nothing.
template <class E>
void check_lifetimes([[maybe_unused]] const E& e) {
#if FUSOR_CHECKED
    if constexpr (view_like<E>)
        check_stamp(e.lifetime(), 1, dtype_name<typename E::value_type>(), "view");
    else if constexpr (node<E>)
        traverse(e, operand_checker{});
#endif
}

template <class E>
const shape_t& checked_shape_of(const E& e) {
    check_lifetimes(e);
    return e.shape();
}

} // namespace fusor::detail
