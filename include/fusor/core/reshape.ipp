// fusor/core/reshape.ipp: the definitions of reshape.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/core/reshape.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF std::string requested_text(const shape_t& s) {
    std::string out = "(";
    for (std::size_t k = 0; k < s.size(); ++k)
        out += (k ? ", " : "") + std::to_string(s[k]);
    return out + (s.size() == 1 ? ",)" : ")");
}

} // namespace detail
} // namespace fusor

namespace fusor {

FUSOR_DEF shape_t reshape_target(const shape_t& in, const shape_t& requested) {
    const index_t size = shape_size(in);
    index_t known = 1;
    std::optional<std::size_t> unknown;
    for (std::size_t k = 0; k < requested.size(); ++k) {
        const index_t n = requested[k];
        if (n == -1) {
            if (unknown)
                throw value_error("reshape: can only specify one unknown dimension (-1), got "
                                  + detail::requested_text(requested));
            unknown = k;
        } else if (n < 0) {
            throw value_error("reshape: negative dimensions are not allowed, got "
                              + detail::requested_text(requested));
        } else {
            known *= n;
        }
    }
    shape_t out = requested;
    if (unknown) {
        // NumPy: with a zero among the known extents the unknown one is undetermined.
        if (known == 0 || size % known != 0)
            throw value_error("cannot reshape tensor of size " + std::to_string(size)
                              + " into shape " + detail::requested_text(requested));
        out[*unknown] = size / known;
    } else if (known != size) {
        throw value_error("cannot reshape tensor of size " + std::to_string(size) + " into shape "
                          + detail::requested_text(requested));
    }
    return out;
}

FUSOR_DEF std::optional<strides_t>
reshape_strides(const shape_t& shape, const strides_t& strides, const shape_t& to) {
    if (shape_size(shape) == 0)
        return row_major_strides(to);
    strides_t out(to.size(), 0); // unit axes outside every group keep stride 0
    bool ok = true;
    detail::for_each_reshape_group(
        shape, to, [&](std::size_t f0, std::size_t f1, std::size_t t0, std::size_t t1) {
            // The source run must walk memory as one axis: skip its unit axes, then each
            // stride must be the next one times the next extent.
            index_t last = -1;
            for (std::size_t k = f0; k < f1; ++k) {
                if (shape[k] == 1)
                    continue;
                if (last >= 0 && strides[static_cast<std::size_t>(last)] != shape[k] * strides[k])
                    ok = false;
                last = static_cast<index_t>(k);
            }
            index_t s = strides[static_cast<std::size_t>(last)];
            for (std::size_t k = t1; k-- > t0;) {
                out[k] = s;
                s *= to[k];
            }
        });
    if (!ok)
        return std::nullopt;
    return out;
}

FUSOR_DEF std::optional<affine_map> reshape_map(const shape_t& in, const shape_t& to) {
    affine_map m(in, to, map_label("reshape(shape=%t)", to));
    if (shape_size(in) == 0)
        return m;
    bool affine = true;
    detail::for_each_reshape_group(
        in, to, [&](std::size_t f0, std::size_t f1, std::size_t t0, std::size_t t1) {
            std::size_t source = in.size();
            for (std::size_t k = f0; k < f1; ++k)
                if (in[k] != 1) {
                    if (source != in.size())
                        affine = false; // two source axes merge
                    source = k;
                }
            if (!affine)
                return;
            index_t s = 1;
            for (std::size_t k = t1; k-- > t0;) {
                m.at(source, k) = s;
                s *= to[k];
            }
        });
    if (!affine)
        return std::nullopt;
    return m;
}

} // namespace fusor
