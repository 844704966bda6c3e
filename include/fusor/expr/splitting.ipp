// fusor/expr/splitting.ipp: the definitions of splitting.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/expr/splitting.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF std::vector<slice> split_slices(const split_spec& spec, index_t n, bool equal) {
    std::vector<slice> out;
    if (!spec.by_sections) {
        index_t prev = 0;
        for (index_t i : spec.indices) {
            out.emplace_back(prev, i);
            prev = i;
        }
        out.emplace_back(prev, none);
        return out;
    }
    const index_t k = spec.sections;
    if (k <= 0)
        throw value_error("number sections must be larger than 0, got " + std::to_string(k));
    if (equal && n % k != 0)
        throw value_error("array split does not result in an equal division: an axis of extent "
                          + std::to_string(n) + " into " + std::to_string(k) + " sections");
    const index_t each = n / k, extras = n % k;
    index_t start = 0;
    for (index_t j = 0; j < k; ++j) {
        const index_t len = each + (j < extras ? 1 : 0);
        out.emplace_back(start, start + len);
        start += len;
    }
    return out;
}

FUSOR_DEF void require_split_rank(const shape_t& s, index_t rank, const char* what) {
    if (s.rank() < rank)
        throw value_error(std::string(what) + " only works on arrays of " + std::to_string(rank)
                          + " or more dimensions, got shape " + to_string(s));
}

} // namespace detail
} // namespace fusor
