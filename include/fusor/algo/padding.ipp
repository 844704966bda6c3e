// fusor/algo/padding.ipp: the definitions of padding.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/padding.hpp>

namespace fusor {

FUSOR_DEF pad_mode pad_mode_from(std::string_view name) {
    for (pad_mode m : {pad_mode::constant,
                       pad_mode::edge,
                       pad_mode::reflect,
                       pad_mode::symmetric,
                       pad_mode::wrap})
        if (name == detail::pad_mode_name(m))
            return m;
    const bool numpy_has = name == "linear_ramp" || name == "maximum" || name == "mean"
                           || name == "median" || name == "minimum" || name == "empty";
    throw value_error(
        "pad: mode '" + std::string(name) + "' is not supported"
        + (numpy_has ? " by fusor (it has constant, edge, reflect, symmetric, wrap)" : ""));
}

} // namespace fusor
