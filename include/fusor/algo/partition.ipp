// fusor/algo/partition.ipp: the definitions of partition.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/partition.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF std::vector<index_t>
normalize_kth(const std::vector<index_t>& kth, index_t n, const char* fn) {
    if (kth.empty())
        throw value_error(std::string(fn) + ": kth is an empty list (NumPy: TypeError)");
    std::vector<index_t> out;
    out.reserve(kth.size());
    for (index_t k : kth) {
        const index_t p = k < 0 ? k + n : k;
        if (p < 0 || p >= n)
            throw value_error(std::string(fn) + ": kth = " + std::to_string(k)
                              + " (kth(=" + std::to_string(p)
                              + ")) out of bounds for an axis of size " + std::to_string(n));
        out.push_back(p);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace detail
} // namespace fusor
