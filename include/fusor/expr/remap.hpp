// fusor/expr/remap.hpp: a view of an expression: a lazy index remapping, never a copy.
#pragma once

#include <fusor/core/affine_map.hpp>
#include <fusor/core/expression.hpp>

namespace fusor {

/// A view (transpose, diagonal, view(...)) of an expression that is not a tensor. It holds
/// the child and the affine index map; the planner composes the map into the strides of every
/// leaf below, so `transpose(a + b)` reads `a` and `b` transposed and allocates nothing.
template <class C>
struct remap : value_node<remap<C>> {
    static constexpr node_tag tag = node_tag::remap;
    using value_type = typename C::value_type;

    C child;
    affine_map map;

    const shape_t& shape() const { return map.out_shape; }
    index_t rank() const { return map.out_shape.rank(); }
    index_t size() const { return shape_size(map.out_shape); }
};

} // namespace fusor
