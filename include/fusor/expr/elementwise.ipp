// fusor/expr/elementwise.ipp: the definitions of elementwise.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/expr/elementwise.hpp>

namespace fusor {
namespace detail {

FUSOR_DECL int
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

} // namespace detail
} // namespace fusor
