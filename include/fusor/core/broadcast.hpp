// fusor/core/broadcast.hpp: NumPy's broadcasting rule on shapes.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>

#include <fusor/config.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>

namespace fusor {

namespace detail {
FUSOR_DECL std::string shapes_message(std::initializer_list<const shape_t*> shapes);
} // namespace detail

/// The broadcast shape of several shapes, as `numpy.broadcast_shapes`: align on the right,
/// prepend 1s to the shorter, each pair of extents must be equal or one of them 1 (an extent
/// 0 broadcasts only with 1, to 0).
/// Throws `broadcast_error` naming every shape: `operands could not be broadcast together
/// with shapes (3,4) (2,)`.
FUSOR_DECL shape_t broadcast_shapes(std::initializer_list<const shape_t*> shapes);

/// Two-shape convenience form of `broadcast_shapes`.
FUSOR_DECL shape_t broadcast_shapes(const shape_t& a, const shape_t& b);

/// True when `from` broadcasts to exactly `to` (NumPy's rule for `broadcast_to` and for
/// writing into a destination): `from` may have extra leading extent-1 axes when
/// `allow_leading_ones` (plain assignment), but never when it is false (compound assignment).
FUSOR_DECL bool broadcasts_to(const shape_t& from, const shape_t& to, bool allow_leading_ones);

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/core/broadcast.ipp>
#endif
