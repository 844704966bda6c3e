// fusor/expr/elementwise.hpp: the element-wise node: an operation applied to broadcast
// children.
#pragma once

#include <type_traits>
#include <utility>

#include <boost/hana/tuple.hpp>
#include <boost/hana/unpack.hpp>

#include <fusor/core/broadcast.hpp>
#include <fusor/expr/expression.hpp>

namespace fusor {

/// `Op` applied element by element to `Cs...`, broadcast together (NumPy's rule). The shape is
/// computed when the node is built, so a mismatch throws `broadcast_error` at `a + b`, naming
/// every operand's shape. `value_type` is `Op`'s result type for the children's types.
template <class Op, class... Cs>
struct elementwise : expr_node {
    static constexpr node_tag tag = node_tag::elementwise;
    using value_type = typename Op::template result<typename Cs::value_type...>;
    using op_type = Op;

    boost::hana::tuple<Cs...> children;
    shape_t shape_; ///< after `children`: computed from them, in place

    /// Moves (or copies) each child into place once; the shape is computed from the children
    /// where they now live, so no shape is copied on the way.
    template <class... As>
        requires(sizeof...(As) == sizeof...(Cs) && (std::is_constructible_v<Cs, As&&> && ...))
    explicit elementwise(As&&... cs)
        : children(std::forward<As>(cs)...),
          shape_(boost::hana::unpack(children, [](const auto&... c) {
              return broadcast_shapes({&c.shape()...});
          })) {}

    const shape_t& shape() const { return shape_; }
    index_t rank() const { return shape_.rank(); }
    index_t size() const { return shape_size(shape_); }
};

} // namespace fusor
