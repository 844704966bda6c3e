// fusor/core/affine_map.ipp: the definitions of affine_map.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/core/affine_map.hpp>

namespace fusor {

FUSOR_HEADER_INLINE std::string map_label::str() const {
    if (!text.empty())
        return text;
    std::string out;
    const std::size_t half = numbers.size() / 2;
    for (const char* p = pattern; *p; ++p) {
        if (*p != '%' || !p[1]) {
            out += *p;
            continue;
        }
        const char c = *++p;
        if (c == 't')
            out += to_string(numbers);
        else if (c == 'a')
            out += to_string(shape_t(numbers.begin(), numbers.begin() + half));
        else if (c == 'b')
            out += to_string(shape_t(numbers.begin() + half, numbers.end()));
        else
            out += std::to_string(numbers[static_cast<std::size_t>(c - '0')]);
    }
    return out;
}

namespace detail {
// One flag per axis, inline up to rank 8: views of small tensors are made in inner loops.
using axis_flags = boost::container::small_vector<bool, 8>;
} // namespace detail

FUSOR_DEF shape_t detail::transpose_axes(const shape_t& in, const shape_t& axes_in) {
    const index_t r = in.rank();
    shape_t axes = axes_in;
    if (axes.empty())
        for (index_t i = r - 1; i >= 0; --i)
            axes.push_back(i);
    if (axes.rank() != r)
        throw value_error("axes don't match array: " + std::to_string(axes.size())
                          + " axes for tensor of rank " + std::to_string(r));
    detail::axis_flags seen(static_cast<std::size_t>(r), false);
    for (index_t& a : axes) {
        a = normalize_axis(a, r);
        if (seen[static_cast<std::size_t>(a)])
            throw value_error("repeated axis in transpose: axes " + to_string(axes_in)
                              + " are not a permutation");
        seen[static_cast<std::size_t>(a)] = true;
    }
    return axes;
}

FUSOR_DEF affine_map transpose_map(const shape_t& in, const shape_t& axes_in) {
    const shape_t axes = detail::transpose_axes(in, axes_in);
    shape_t out;
    for (index_t a : axes)
        out.push_back(in[static_cast<std::size_t>(a)]);
    affine_map m(in, out, map_label("transpose(axes=%t)", axes));
    for (std::size_t j = 0; j < axes.size(); ++j)
        m.at(static_cast<std::size_t>(axes[j]), j) = 1;
    return m;
}

FUSOR_DEF affine_map swapaxes_map(const shape_t& in, index_t axis1, index_t axis2) {
    const index_t r = in.rank();
    const index_t a = normalize_axis(axis1, r), b = normalize_axis(axis2, r);
    shape_t perm;
    for (index_t k = 0; k < r; ++k)
        perm.push_back(k == a ? b : k == b ? a : k);
    affine_map m = transpose_map(in, perm);
    m.label = map_label("swapaxes(%0, %1)", shape_t{a, b});
    return m;
}

FUSOR_DEF affine_map moveaxis_map(const shape_t& in,
                                  const shape_t& source,
                                  const shape_t& destination) {
    const index_t r = in.rank();
    if (source.size() != destination.size())
        throw value_error("moveaxis: `source` and `destination` arguments must have the same "
                          "number of elements, got "
                          + to_string(source) + " and " + to_string(destination));
    auto normalized = [r](const shape_t& axes, const char* what) {
        shape_t out;
        for (index_t a : axes) {
            const index_t n = normalize_axis(a, r);
            if (std::find(out.begin(), out.end(), n) != out.end())
                throw value_error(std::string("moveaxis: repeated axis in `") + what + "` argument "
                                  + to_string(axes));
            out.push_back(n);
        }
        return out;
    };
    const shape_t src = normalized(source, "source"), dst = normalized(destination, "destination");
    // NumPy's construction: the axes not moved, in order, then each moved axis inserted at its
    // destination in increasing destination order.
    boost::container::small_vector<std::pair<index_t, index_t>, 6> moves;
    for (std::size_t i = 0; i < src.size(); ++i)
        moves.emplace_back(dst[i], src[i]);
    std::sort(moves.begin(), moves.end());
    shape_t order;
    for (index_t k = 0; k < r; ++k)
        if (std::find(src.begin(), src.end(), k) == src.end())
            order.push_back(k);
    for (const auto& [d, s] : moves)
        order.insert(order.begin() + d, s);
    affine_map m = transpose_map(in, order);
    shape_t both = src; // the pattern's halves: source, then destination
    both.insert(both.end(), dst.begin(), dst.end());
    m.label = map_label("moveaxis(%a -> %b)", std::move(both));
    return m;
}

FUSOR_DEF affine_map expand_dims_map(const shape_t& in, const shape_t& axes) {
    const index_t r = in.rank() + axes.rank();
    detail::axis_flags inserted(static_cast<std::size_t>(r), false);
    for (index_t a : axes) {
        const auto k = static_cast<std::size_t>(normalize_axis(a, r));
        if (inserted[k])
            throw value_error("expand_dims: repeated axis in " + to_string(axes));
        inserted[k] = true;
    }
    shape_t out;
    std::size_t next = 0;
    for (std::size_t k = 0; k < inserted.size(); ++k)
        out.push_back(inserted[k] ? 1 : in[next++]);
    affine_map m(in, std::move(out), map_label("expand_dims(axes=%t)", axes));
    next = 0;
    for (std::size_t k = 0; k < inserted.size(); ++k)
        if (!inserted[k])
            m.at(next++, k) = 1;
    return m;
}

FUSOR_DEF affine_map squeeze_map(const shape_t& in, const std::optional<shape_t>& axes) {
    detail::axis_flags dropped(in.size(), false);
    if (axes) {
        for (index_t a : normalize_axes(*axes, in.rank())) {
            const auto k = static_cast<std::size_t>(a);
            if (in[k] != 1)
                throw value_error("cannot select an axis to squeeze out which has size not equal "
                                  "to one (axis "
                                  + std::to_string(a) + " of shape " + to_string(in) + ")");
            dropped[k] = true;
        }
    } else {
        for (std::size_t k = 0; k < in.size(); ++k)
            dropped[k] = in[k] == 1;
    }
    shape_t out;
    for (std::size_t k = 0; k < in.size(); ++k)
        if (!dropped[k])
            out.push_back(in[k]);
    affine_map m(
        in, std::move(out), axes ? map_label("squeeze(axes=%t)", *axes) : map_label("squeeze"));
    std::size_t j = 0;
    for (std::size_t k = 0; k < in.size(); ++k)
        if (!dropped[k])
            m.at(k, j++) = 1;
    return m;
}

FUSOR_DEF affine_map diagonal_map(const shape_t& in, index_t offset, index_t axis1, index_t axis2) {
    const index_t r = in.rank();
    if (r < 2)
        throw value_error("diagonal requires a tensor of at least two dimensions, got rank "
                          + std::to_string(r));
    const index_t a1 = normalize_axis(axis1, r), a2 = normalize_axis(axis2, r);
    if (a1 == a2)
        throw value_error("axis1 and axis2 cannot be the same (both are axis " + std::to_string(a1)
                          + ")");
    const index_t off1 = offset < 0 ? -offset : 0, off2 = offset > 0 ? offset : 0;
    const index_t n1 = in[static_cast<std::size_t>(a1)] - off1;
    const index_t n2 = in[static_cast<std::size_t>(a2)] - off2;
    const index_t len = std::max<index_t>(0, std::min(n1, n2));
    shape_t out;
    for (index_t k = 0; k < r; ++k)
        if (k != a1 && k != a2)
            out.push_back(in[static_cast<std::size_t>(k)]);
    out.push_back(len);
    affine_map m(in, out, map_label("diagonal(offset=%0, axis1=%1, axis2=%2)", {offset, a1, a2}));
    std::size_t j = 0;
    for (index_t k = 0; k < r; ++k)
        if (k != a1 && k != a2)
            m.at(static_cast<std::size_t>(k), j++) = 1;
    const std::size_t last = out.size() - 1;
    m.at(static_cast<std::size_t>(a1), last) = 1;
    m.at(static_cast<std::size_t>(a2), last) = 1;
    // An empty diagonal keeps offset 0 so that no stored offset points past the operand.
    m.offset[static_cast<std::size_t>(a1)] = len > 0 ? off1 : 0;
    m.offset[static_cast<std::size_t>(a2)] = len > 0 ? off2 : 0;
    return m;
}

FUSOR_DEF affine_map flip_map(const shape_t& in, const std::optional<shape_t>& axes_in) {
    shape_t axes;
    if (axes_in)
        axes = normalize_axes(*axes_in, in.rank());
    else
        for (index_t k = 0; k < in.rank(); ++k)
            axes.push_back(k);
    affine_map m(in, in, map_label("flip(axes=%t)", axes));
    for (std::size_t k = 0; k < in.size(); ++k)
        m.at(k, k) = 1;
    for (index_t a : axes) {
        const auto k = static_cast<std::size_t>(a);
        m.at(k, k) = -1;
        m.offset[k] = in[k] > 0 ? in[k] - 1 : 0; // empty: no offset past the operand
    }
    return m;
}

FUSOR_DEF affine_map broadcast_map(const shape_t& in, const shape_t& to) {
    if (!broadcasts_to(in, to, false))
        throw broadcast_error("cannot broadcast a tensor of shape " + to_string(in) + " to shape "
                              + to_string(to));
    affine_map m(in, to, map_label("broadcast_to(shape=%t)", to));
    const std::size_t lead = to.size() - in.size();
    for (std::size_t k = 0; k < in.size(); ++k)
        m.at(k, lead + k) = (in[k] == to[lead + k]) ? 1 : 0;
    return m;
}

FUSOR_DEF affine_map view_map(const shape_t& in, std::span<const view_index> idx) {
    boost::container::small_vector<detail::view_axis, 6> axes;
    shape_t out;
    detail::for_each_view_axis(in, idx, [&](std::size_t, const detail::view_axis& a) {
        axes.push_back(a);
        if (a.keeps)
            out.push_back(a.extent);
    });
    affine_map m(in, std::move(out), "view");
    std::size_t operand_axis = 0, view_axis = 0;
    for (const detail::view_axis& a : axes) {
        if (a.reads) {
            m.offset[operand_axis] = a.start;
            if (a.keeps)
                m.at(operand_axis, view_axis) = a.step;
            ++operand_axis;
        }
        view_axis += a.keeps;
    }
    return m;
}

} // namespace fusor
