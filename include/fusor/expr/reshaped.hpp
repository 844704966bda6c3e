// fusor/expr/reshaped.hpp: `reshape` of an expression that is not a tensor or a view.
#pragma once

#include <optional>

#include <fusor/core/affine_map.hpp>
#include <fusor/core/expression.hpp>

namespace fusor {

/// The reshape of an expression. When the reshape only splits axes and adds or drops extent-1
/// axes, `split` holds it as an affine index map and the planner composes it into the leaves'
/// strides like any view (nothing is copied). Otherwise (axes merge: (2, 3) → (6,)) the child
/// is a materialisation boundary: the planner evaluates it into a contiguous temporary of the
/// child's shape first and reads that in the new shape; `explain` shows it as a `reshape copy`.
template <class C>
struct reshaped : value_node<reshaped<C>> {
    static constexpr node_tag tag = node_tag::reshaped;
    using value_type = typename C::value_type;

    C child;
    shape_t out_shape;
    std::optional<affine_map> split; ///< empty: the child is materialised

    const shape_t& shape() const { return out_shape; }
    index_t rank() const { return out_shape.rank(); }
    index_t size() const { return shape_size(out_shape); }
};

} // namespace fusor
