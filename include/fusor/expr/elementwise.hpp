// fusor/expr/elementwise.hpp: the element-wise node: an operation applied to broadcast
// children.
#pragma once

#include <boost/hana/tuple.hpp>

#include <fusor/core/broadcast.hpp>
#include <fusor/expr/expression.hpp>

namespace fusor {

/// `Op` applied element by element to `Cs...`, broadcast together (NumPy's rule). The shape is
/// computed when the node is built, so a mismatch throws `broadcast_error` at `a + b`, naming
/// every operand's shape. `value_type` is `Op`'s result type for the children's types.
template <class Op, class... Cs>
struct elementwise : expr_node {
    using value_type = typename Op::template result<typename Cs::value_type...>;
    using op_type = Op;

    boost::hana::tuple<Cs...> children;
    shape_t shape_;

    explicit elementwise(Cs... cs) : elementwise(broadcast_shapes({&cs.shape()...}), cs...) {}

    const shape_t& shape() const { return shape_; }
    index_t rank() const { return shape_.rank(); }
    index_t size() const { return shape_size(shape_); }

private:
    // The shape is computed from the children before they are moved into the tuple.
    elementwise(shape_t s, Cs&... cs) : children(std::move(cs)...), shape_(std::move(s)) {}
};

} // namespace fusor
