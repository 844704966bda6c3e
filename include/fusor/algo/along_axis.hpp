// fusor/algo/along_axis.hpp: the lane split shared by scans and sorts. An operand of shape
// s seen along axis a is outer × n × inner (MNN's ArgMax split): `outer = prod(s[:a])`,
// `n = s[a]`, `inner = prod(s[a+1:])`; lane (o, i) holds the n elements
// `o * n * inner + k * inner + i`, k in [0, n).
#pragma once

#include <fusor/core/axis.hpp>
#include <fusor/core/shape.hpp>

namespace fusor::detail {

struct lane_split {
    index_t outer = 1, n = 1, inner = 1;

    lane_split(const shape_t& s, index_t axis) {
        for (index_t k = 0; k < s.rank(); ++k) {
            const index_t e = s[static_cast<std::size_t>(k)];
            if (k < axis)
                outer *= e;
            else if (k == axis)
                n = e;
            else
                inner *= e;
        }
    }

    /// Element k of lane (o, i) is at `first(o, i) + k * inner` of a row-major buffer.
    index_t first(index_t o, index_t i) const { return o * n * inner + i; }

    /// Calls `f(o, i)` for every lane, in row-major order of the lanes.
    template <class F>
    void for_each_lane(F&& f) const {
        for (index_t o = 0; o < outer; ++o)
            for (index_t i = 0; i < inner; ++i)
                f(o, i);
    }
};

} // namespace fusor::detail
