// fusor/core/broadcast.ipp: the definitions of broadcast.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/core/broadcast.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF std::string shapes_message(std::initializer_list<const shape_t*> shapes) {
    std::string msg = "operands could not be broadcast together with shapes";
    for (const shape_t* s : shapes)
        msg += " " + to_compact_string(*s);
    return msg;
}

} // namespace detail
} // namespace fusor

namespace fusor {

FUSOR_DEF shape_t broadcast_shapes(std::initializer_list<const shape_t*> shapes) {
    std::size_t rank = 0;
    for (const shape_t* s : shapes)
        rank = std::max(rank, s->size());
    shape_t out(rank, 1);
    for (const shape_t* s : shapes) {
        const std::size_t lead = rank - s->size();
        for (std::size_t i = 0; i < s->size(); ++i) {
            const index_t e = (*s)[i];
            index_t& o = out[lead + i];
            if (e == o || e == 1)
                continue;
            if (o == 1)
                o = e;
            else
                throw broadcast_error(detail::shapes_message(shapes));
        }
    }
    return out;
}

FUSOR_DEF shape_t broadcast_shapes(const shape_t& a, const shape_t& b) {
    return broadcast_shapes({&a, &b});
}

FUSOR_DEF bool broadcasts_to(const shape_t& from, const shape_t& to, bool allow_leading_ones) {
    std::size_t lead_from = 0;
    if (from.size() > to.size()) {
        if (!allow_leading_ones)
            return false;
        lead_from = from.size() - to.size();
        for (std::size_t i = 0; i < lead_from; ++i)
            if (from[i] != 1)
                return false;
    }
    const std::size_t lead_to = to.size() - (from.size() - lead_from);
    for (std::size_t i = lead_from; i < from.size(); ++i) {
        const index_t f = from[i], t = to[lead_to + i - lead_from];
        if (f != t && f != 1)
            return false;
    }
    return true;
}

} // namespace fusor
