// fusor/algo/joining.ipp: the definitions of joining.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/joining.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF std::pair<shape_t, shape_t>
adjusted_part(join_kind kind, const shape_t& s, index_t axis) {
    const index_t r = s.rank();
    auto insert = [&](const shape_t& axes) {
        shape_t out = s;
        for (index_t a : axes)
            out.insert(out.begin() + a, 1);
        return std::pair{out, axes};
    };
    switch (kind) {
    case join_kind::stack:
        return insert(shape_t{axis});
    case join_kind::hstack:
        return insert(r == 0 ? shape_t{0} : shape_t{});
    case join_kind::vstack:
        return insert(r == 0 ? shape_t{0, 1} : r == 1 ? shape_t{0} : shape_t{});
    case join_kind::dstack:
        return insert(r == 0   ? shape_t{0, 1, 2}
                      : r == 1 ? shape_t{0, 2}
                      : r == 2 ? shape_t{2}
                               : shape_t{});
    case join_kind::column_stack:
        return insert(r == 0 ? shape_t{0, 1} : r == 1 ? shape_t{1} : shape_t{});
    default:
        return {s, shape_t{}};
    }
}

FUSOR_DEF join_plan plan_join(join_kind kind,
                              const std::vector<shape_t>& shapes,
                              std::optional<index_t> axis_in) {
    const char* name = join_name(kind);
    if (shapes.empty())
        throw value_error(std::string(name) + ": need at least one array to "
                          + (kind == join_kind::stack ? "stack" : "concatenate"));
    join_plan p;
    if (!axis_in) { // numpy.concatenate(axis=None): raveled parts, end to end
        p.flat = true;
        index_t total = 0;
        for (const shape_t& s : shapes) {
            p.offsets.push_back(total);
            p.extents.push_back(shape_size(s));
            p.inserted.emplace_back();
            total += shape_size(s);
        }
        p.shape = shape_t{total};
        return p;
    }
    index_t axis = *axis_in;
    if (kind == join_kind::stack) {
        for (std::size_t i = 1; i < shapes.size(); ++i)
            if (!(shapes[i] == shapes[0]))
                throw value_error("stack: all input arrays must have the same shape, but the "
                                  "tensor at index 0 has shape "
                                  + to_string(shapes[0]) + " and the tensor at index "
                                  + std::to_string(i) + " has shape " + to_string(shapes[i]));
        axis = normalize_axis(axis, shapes[0].rank() + 1);
    } else if (kind == join_kind::hstack) {
        axis = shapes[0].rank() <= 1 ? 0 : 1; // numpy.hstack: 1-d (after atleast_1d) joins on 0
    } else if (kind == join_kind::vstack) {
        axis = 0;
    } else if (kind == join_kind::dstack) {
        axis = 2;
    } else if (kind == join_kind::column_stack) {
        axis = 1;
    }
    std::vector<shape_t> adjusted;
    for (const shape_t& s : shapes) {
        auto [a, ins] = adjusted_part(kind, s, axis);
        adjusted.push_back(std::move(a));
        p.inserted.push_back(std::move(ins));
    }
    const shape_t& first = adjusted[0];
    const index_t r = first.rank();
    if (r == 0)
        throw value_error("concatenate: zero-dimensional arrays cannot be concatenated");
    axis = normalize_axis(axis, r);
    const auto ax = static_cast<std::size_t>(axis);
    index_t total = 0;
    for (std::size_t i = 0; i < adjusted.size(); ++i) {
        const shape_t& s = adjusted[i];
        if (s.rank() != r)
            throw value_error(std::string(name)
                              + ": all the input arrays must have same number of dimensions, but "
                                "the array at index 0 has "
                              + std::to_string(r) + " dimension(s) and the array at index "
                              + std::to_string(i) + " has " + std::to_string(s.rank())
                              + " dimension(s) (shapes " + to_string(shapes[0]) + " and "
                              + to_string(shapes[i]) + ")");
        for (std::size_t d = 0; d < s.size(); ++d)
            if (d != ax && s[d] != first[d])
                throw value_error(
                    std::string(name) + " on axis " + std::to_string(axis)
                    + ": all the input array dimensions except for the concatenation axis must "
                      "match exactly, but along dimension "
                    + std::to_string(d) + ", the array at index 0 has size "
                    + std::to_string(first[d]) + " and the array at index " + std::to_string(i)
                    + " has size " + std::to_string(s[d]) + " (shapes " + to_string(shapes[0])
                    + " and " + to_string(shapes[i]) + ")");
        p.offsets.push_back(total);
        p.extents.push_back(s[ax]);
        total += s[ax];
    }
    p.shape = first;
    p.shape[ax] = total;
    p.axis = axis;
    return p;
}

} // namespace detail
} // namespace fusor
