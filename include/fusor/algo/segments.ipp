// fusor/algo/segments.ipp: the definitions of segments.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/algo/segments.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF std::vector<axis_run>
runs_of(const std::vector<index_t>& src, index_t cut0, index_t cut1) {
    std::vector<axis_run> out;
    const index_t n = static_cast<index_t>(src.size());
    index_t p = 0;
    while (p < n) {
        axis_run run{p, 1, src[static_cast<std::size_t>(p)], 0};
        index_t q = p + 1;
        if (q < n && q != cut0 && q != cut1) {
            const index_t d = src[static_cast<std::size_t>(q)] - src[static_cast<std::size_t>(p)];
            if (d >= -1 && d <= 1) {
                run.step = d;
                while (q < n && q != cut0 && q != cut1
                       && src[static_cast<std::size_t>(q)] - src[static_cast<std::size_t>(q - 1)]
                              == d)
                    ++q;
            }
        }
        run.length = q - p;
        out.push_back(run);
        p = q;
    }
    return out;
}

FUSOR_DEF std::vector<index_t>
pad_axis_map(pad_mode mode, index_t n, index_t before, index_t after) {
    const index_t total = before + n + after;
    std::vector<index_t> idx(static_cast<std::size_t>(total), 0);
    auto at = [&](index_t p) -> index_t& {
        return idx[static_cast<std::size_t>(p)];
    };
    for (index_t i = 0; i < n; ++i)
        at(before + i) = i;
    index_t left = before, right = after;
    // numpy.pad: a singleton axis is edge-padded by 'reflect' and 'symmetric' (legacy).
    if (mode == pad_mode::edge
        || ((mode == pad_mode::reflect || mode == pad_mode::symmetric) && n == 1)) {
        for (index_t p = 0; p < before; ++p)
            at(p) = 0;
        for (index_t p = before + n; p < total; ++p)
            at(p) = n - 1;
        return idx;
    }
    if (mode == pad_mode::wrap) { // numpy.lib.arraypad._set_wrap_both, repeated
        while (left > 0 || right > 0) {
            const index_t period = total - right - left;
            index_t new_left = 0, new_right = 0;
            if (left > 0) {
                const index_t take = std::min(period, left);
                const index_t from = total - right - take;
                const index_t to = left > period ? left - period : 0;
                new_left = left > period ? left - period : 0;
                for (index_t j = 0; j < take; ++j)
                    at(to + j) = at(from + j);
            }
            if (right > 0) {
                const index_t take = std::min(period, right);
                const index_t to = total - right;
                new_right = right > period ? right - period : 0;
                for (index_t j = 0; j < take; ++j)
                    at(to + j) = at(left + j);
            }
            left = new_left;
            right = new_right;
        }
        return idx;
    }
    // numpy.lib.arraypad._set_reflect_both (method 'even'), repeated.
    const index_t edge_offset = mode == pad_mode::symmetric ? 1 : 0;
    while (left > 0 || right > 0) {
        const index_t old_length = total - right - left - (1 - edge_offset);
        if (left > 0) {
            const index_t chunk = std::min(old_length, left);
            const index_t first = left - edge_offset + chunk; // read backwards from here
            for (index_t j = 0; j < chunk; ++j)
                at(left - chunk + j) = at(first - j);
            left -= chunk;
        }
        if (right > 0) {
            const index_t chunk = std::min(old_length, right);
            const index_t first = total - right + edge_offset - 2; // read backwards from here
            for (index_t j = 0; j < chunk; ++j)
                at(total - right + j) = at(first - j);
            right -= chunk;
        }
    }
    return idx;
}

FUSOR_DEF std::vector<axis_run> roll_runs(index_t n, index_t shift) {
    if (n == 0)
        return {};
    const index_t o = ((shift % n) + n) % n;
    if (o == 0)
        return {{0, n, 0, 1}};
    return {{0, o, n - o, 1}, {o, n - o, 0, 1}};
}

FUSOR_DEF index_t check_repeat_counts(const shape_t& s,
                                      const std::vector<index_t>& counts,
                                      std::optional<index_t> axis) {
    const index_t ax = normalize_axis(axis ? *axis : 0, s.rank());
    const index_t n = s[static_cast<std::size_t>(ax)];
    if (counts.size() != 1 && static_cast<index_t>(counts.size()) != n)
        throw value_error("repeat: operands could not be broadcast together with shape ("
                          + std::to_string(n) + ",) (" + std::to_string(counts.size())
                          + ",) (along axis " + std::to_string(ax) + " of shape " + to_string(s)
                          + ")");
    for (index_t c : counts)
        if (c < 0 && n != 0)
            throw value_error(counts.size() == 1
                                  ? "repeat: negative dimensions are not allowed (repeats "
                                        + std::to_string(c) + ")"
                                  : "repeat: repeats may not contain negative values.");
    return ax;
}

} // namespace detail
} // namespace fusor
