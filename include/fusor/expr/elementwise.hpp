// fusor/expr/elementwise.hpp: the element-wise node: an operation applied to broadcast
// children.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include <fusor/config.hpp>
#include <fusor/core/broadcast.hpp>
#include <fusor/core/child_slots.hpp>
#include <fusor/core/expression.hpp>

namespace fusor {

namespace detail {
// Where node `n`'s shape lives when that is outside the node, so a pointer to it survives
// copying the node: a leaf over an lvalue tensor or view (its shape_t), a scalar (a static
// `()`), an element-wise node that points at one of those. Null when the node holds its shape.
template <class N>
const shape_t* stable_shape(const N& n) {
    if constexpr (tag_of<N> == node_tag::scalar)
        return n.shape_ref;
    else if constexpr (tag_of<N> == node_tag::elementwise)
        return n.shape_child < 0 ? n.shape_ref : nullptr; // not into its own children
    else if constexpr (tag_of<N> == node_tag::leaf) {
        if constexpr (std::is_pointer_v<decltype(n.shape_store)>)
            return n.shape_store;
        else
            return nullptr;
    } else
        return nullptr;
}

// The child whose shape is the broadcast shape of all of `shapes` (the first of the highest
// rank, when no other operand stretches one of its axes), or -1 when there is none. Shapes
// that do not broadcast are left to broadcast_shapes, which names them in its error. Bit i of
// `exact` is set when shapes[i] equals that child's shape (all bits clear on -1).
// Inline in every mode, FUSOR_SEPARATE_COMPILATION included: every element-wise node built
// calls it (an out-of-line call cost S1 at 64 elements about a third of its time).
inline int
broadcast_result_of(const shape_t* const* shapes, std::size_t count, std::uint64_t& exact) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < count; ++i)
        if (shapes[i]->size() > shapes[best]->size())
            best = i;
    const shape_t& r = *shapes[best];
    exact = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const shape_t& s = *shapes[i];
        bool equal = true;
        if (&s != &r) {
            const std::size_t lead = r.size() - s.size();
            equal = lead == 0;
            for (std::size_t k = 0; k < s.size(); ++k) {
                if (s[k] == r[lead + k])
                    continue;
                if (s[k] != 1) {
                    exact = 0;
                    return -1; // r is stretched (or the shapes do not broadcast)
                }
                equal = false;
            }
        }
        exact |= std::uint64_t{equal} << i;
    }
    return static_cast<int>(best);
}

// Of two shapes that differ, the one (0 or 1) that is their broadcast shape: the other has no
// more axes and, aligned to its end, each of its extents equals this one's or is 1. -1 when
// neither is (both stretch, or they do not broadcast: broadcast_shapes then names them).
FUSOR_INLINE int covering_child(const shape_t& s0, const shape_t& s1) {
    const bool first_big = s0.size() >= s1.size();
    const index_t* big = first_big ? s0.data() : s1.data();
    const index_t* small = first_big ? s1.data() : s0.data();
    const std::size_t n = first_big ? s1.size() : s0.size();
    const std::size_t lead = (first_big ? s0.size() : s1.size()) - n;
    bool big_covers = true, small_covers = lead == 0;
    for (std::size_t k = 0; k < n; ++k) {
        const index_t a = big[lead + k], b = small[k];
        if (a != b) {
            big_covers = big_covers && b == 1;
            small_covers = small_covers && a == 1;
        }
    }
    if (big_covers)
        return first_big ? 0 : 1;
    if (small_covers)
        return first_big ? 1 : 0;
    return -1;
}

// Whether child `c` of an element-wise node, with `same_shape` when its shape is the node's
// shape, reads every tensor at that shape in row-major order, element for element: a scalar,
// a tensor of that shape, a view of that shape with row-major strides, or an element-wise
// node of that shape whose children all are (its `dense`). Other nodes are not.
template <class N>
FUSOR_INLINE bool dense_child(const N& c, bool same_shape) {
    if constexpr (tag_of<N> == node_tag::scalar)
        return true;
    else if constexpr (tag_of<N> == node_tag::leaf)
        return same_shape && (!c.is_view || is_row_major(c.shape(), c.strides()));
    else if constexpr (tag_of<N> == node_tag::elementwise)
        return same_shape && c.dense;
    else
        return false;
}

// As dense_child, for node `n` read at shape `s`.
template <class N>
FUSOR_INLINE bool dense_over(const N& n, const shape_t& s) {
    if constexpr (tag_of<N> == node_tag::scalar)
        return true;
    else
        return dense_child(n, &n.shape() == &s || n.shape() == s);
}
} // namespace detail

namespace detail {
// What an element-wise node points at between giving up its held shape and taking another
// (elementwise::drop_own_shape).
inline const shape_t no_shape{};

// One argument that is the node itself: a copy, not a child (see elementwise's constructor).
template <class Node, class... As>
inline constexpr bool copies_node = false;
template <class Node, class A>
inline constexpr bool copies_node<Node, A> = std::is_same_v<std::remove_cvref_t<A>, Node>;

/// Tag of elementwise's constructor from operands (tensors, views or nodes), whose leaves it
/// makes in their slots.
struct from_operands_t {
    explicit from_operands_t() = default;
};
inline constexpr from_operands_t from_operands{};
// The child made from operand `a` (expr/leaf.hpp).
template <class A>
decltype(auto) child_of_operand(A&& a);
} // namespace detail

/// `Op` applied element by element to `Cs...`, broadcast together (NumPy's rule). The shape is
/// computed when the node is built, so a mismatch throws `broadcast_error` at `a + b`, naming
/// every operand's shape. `value_type` is `Op`'s result type for the children's types.
///
/// When the broadcast shape is some child's shape and that shape lives outside the tree (a
/// tensor's own shape_t: the usual `a * b + c` over tensors of one shape, or a tensor and
/// scalars), the node points at it instead of copying it: building an expression over small
/// tensors then copies no shape at all.
template <class Op, class... Cs>
struct elementwise : value_node<elementwise<Op, Cs...>> {
    static constexpr node_tag tag = node_tag::elementwise;
    using value_type = typename Op::template result<typename Cs::value_type...>;
    using op_type = Op;
    static constexpr std::size_t arity = sizeof...(Cs); ///< the number of children

    detail::child_slots<Cs...> children;
    /// The broadcast shape, when it lives outside the node's own storage: outside the tree, or
    /// in child `shape_child` (re-pointed when the node is copied or moved).
    const shape_t* shape_ref = nullptr;
    /// The broadcast shape otherwise: alive only while `shape_ref` is null, so that the usual
    /// node (one that points at its shape) neither builds nor destroys a shape_t (bench_small's
    /// S1, `c = a * b + d`, builds two nodes and moves one per evaluation).
    union {
        shape_t own_shape;
    };
    int shape_child = -1; ///< the child whose shape is the broadcast shape, when it holds it
    /// Every tensor below has this node's shape and row-major layout (detail::dense_over),
    /// found once here, so that the flat case (plan/make_plan.hpp) compares no leaf's shape
    /// again when the expression is evaluated.
    bool dense = false;

    /// Moves (or copies) each child into place once; the shape is found from the children
    /// where they now live. Never a copy of the node itself: a one-child node (`-x`) held in a
    /// non-const variable is an `elementwise&`, and a leaf child (an aggregate) is constructible
    /// from it through its base (C++20's parenthesised aggregate initialisation), so without the
    /// exclusion `auto v = -x; v + 1.0` built a node whose child was a sliced copy of `v`.
    template <class... As>
        requires(sizeof...(As) == sizeof...(Cs)
                 && !detail::copies_node<elementwise,
                                         As...> && (std::is_constructible_v<Cs, As&&> && ...))
    FUSOR_INLINE explicit elementwise(As&&... cs) : children{{std::forward<As>(cs)}...} {
        find_shape();
    }
    /// The children made from operands `as...` where they live: a node (a scalar included) is
    /// moved or copied in, a tensor or view becomes a leaf made in its slot (detail::make_leaf,
    /// never moved: an rvalue view's leaf holds a shape and strides, `x[1:] - x[:-1]`).
    template <class... As>
        requires(sizeof...(As) == sizeof...(Cs))
    FUSOR_INLINE elementwise(detail::from_operands_t, As&&... as)
        : children{{detail::child_of_operand(std::forward<As>(as))}...} {
        find_shape();
    }

    // Copies and moves carry own_shape only when it is the shape: a node that points at its
    // shape (the usual case) moves as its children and one pointer, re-pointed at the new
    // child when the shape is a child's.
    elementwise(const elementwise& o) : children(o.children) { take_shape(o); }
    elementwise(elementwise&& o) noexcept(
        std::is_nothrow_move_constructible_v<detail::child_slots<Cs...>>)
        : children(std::move(o.children)) {
        take_shape(std::move(o));
    }
    elementwise& operator=(const elementwise& o) {
        if (this != &o) {
            children = o.children;
            drop_own_shape();
            take_shape(o);
        }
        return *this;
    }
    elementwise& operator=(elementwise&& o) noexcept(
        std::is_nothrow_move_assignable_v<detail::child_slots<Cs...>>) {
        if (this != &o) {
            children = std::move(o.children);
            drop_own_shape();
            take_shape(std::move(o));
        }
        return *this;
    }
    ~elementwise() { drop_own_shape(); }

    const shape_t& shape() const { return shape_ref ? *shape_ref : own_shape; }
    index_t rank() const { return shape().rank(); }
    index_t size() const { return shape_size(shape()); }

private:
    // The shape of `o` (a copy or move of this node), its children already copied or moved here.
    // own_shape is not alive here (a new node, or drop_own_shape ran). The copy of a held shape
    // comes before shape_ref is set: if it throws (a rank above 6 allocates), an assigned node
    // still points at drop_own_shape's placeholder and its destructor destroys nothing.
    template <class O>
    void take_shape(O&& o) {
        shape_child = o.shape_child;
        dense = o.dense;
        const shape_t* ref = shape_child >= 0 ? child_shape(shape_child) : o.shape_ref;
        if (!ref)
            std::construct_at(&own_shape, std::forward<O>(o).own_shape);
        shape_ref = ref;
    }
    // Ends own_shape's life when it is alive; the node then points at an empty placeholder
    // shape until take_shape gives it its new one.
    void drop_own_shape() {
        if (!shape_ref)
            own_shape.~shape_t();
        shape_ref = &detail::no_shape;
    }
    // Child `i`'s shape.
    const shape_t* child_shape(int i) const {
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            const shape_t* shapes[] = {&detail::slot_value<I>(children).shape()...};
            return shapes[i];
        }
        (std::index_sequence_for<Cs...>{});
    }
    // The broadcast shape and `dense`, from the children where they live.
    FUSOR_INLINE void find_shape() {
        // An index sequence, not a fold over a tuple: at -O0 each of those is functions of its
        // own per node type.
        [this]<std::size_t... I>(std::index_sequence<I...>) FUSOR_FORWARD_LAMBDA {
            const shape_t* shapes[] = {&detail::slot_value<I>(children).shape()...};
            const shape_t* stable[] = {detail::stable_shape(detail::slot_value<I>(children))...};
            if constexpr (sizeof...(Cs) == 2) {
                // A child and a scalar, or two children of one shape: what broadcast_result_of
                // finds for them, found without its walk (bench_small's S1, `c = a * b + d` at 4
                // elements: 27.7-28.3 -> 25.1-25.7 ns).
                const auto& c0 = detail::slot_value<0>(children);
                const auto& c1 = detail::slot_value<1>(children);
                if constexpr (tag_of<std::remove_cvref_t<decltype(c1)>> == node_tag::scalar) {
                    if (stable[0]) {
                        shape_ref = stable[0];
                        dense = detail::dense_child(c0, true);
                        return;
                    }
                } else if constexpr (tag_of<
                                         std::remove_cvref_t<decltype(c0)>> == node_tag::scalar) {
                    if (stable[1]) {
                        shape_ref = stable[1];
                        dense = detail::dense_child(c1, true);
                        return;
                    }
                } else if (*shapes[0] == *shapes[1]) {
                    shape_ref = shapes[0];
                    if (!stable[0])
                        shape_child = 0; // held in the child: re-pointed on copies and moves
                    dense = detail::dense_child(c0, true) && detail::dense_child(c1, true);
                    return;
                } else if (const int c = detail::covering_child(*shapes[0], *shapes[1]); c >= 0) {
                    // One child's shape is the broadcast shape, the other's is not (a row or
                    // a column of it): found in one pass, without broadcast_result_of's call
                    // (`(x - m) / s` over (8, 16): two such nodes).
                    shape_ref = shapes[c];
                    if (!stable[c])
                        shape_child = c;
                    dense = detail::dense_child(c0, c == 0) && detail::dense_child(c1, c == 1);
                    return;
                }
            }
            std::uint64_t exact = 0;
            const int same = detail::broadcast_result_of(shapes, sizeof...(Cs), exact);
            if (same >= 0) {
                shape_ref = shapes[same]; // that child's shape is the broadcast shape
                if (!stable[same])
                    shape_child = same; // held in the child: re-pointed on copies and moves
            } else
                std::construct_at(&own_shape, broadcast_shapes({shapes[I]...}));
            dense = (detail::dense_child(detail::slot_value<I>(children), (exact >> I) & 1) && ...);
        }
        (std::index_sequence_for<Cs...>{});
    }
};

} // namespace fusor
