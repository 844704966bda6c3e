// fusor/exec/driver.ipp: the definitions of driver.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/exec/driver.hpp>

namespace fusor::exec {

FUSOR_DECL void drive(const loop_plan& p,
                      int depth,
                      index_t begin,
                      index_t end,
                      block_kernel kernel,
                      void* context,
                      bool traced) {
    if (p.empty || begin >= end)
        return;
    const std::size_t ops = p.operand_count;
    const std::size_t levels = p.extents.size();
    shape_t offsets(ops, 0); // inline storage: no allocation per evaluation
    auto call = [&](index_t rows, index_t cols) {
#ifdef FUSOR_TRACE_INNER_LOOP
        if (!traced) {
        } else if (rows == 1) {
            FUSOR_TRACE_INNER_LOOP(p, offsets.data(), cols);
        } else {
            shape_t row(ops, 0);
            for (index_t r = 0; r < rows; ++r) {
                for (std::size_t k = 0; k < ops; ++k)
                    row[k] = offsets[k] + r * p.stride(k, levels - 2);
                FUSOR_TRACE_INNER_LOOP(p, row.data(), cols);
            }
        }
#else
        (void)traced;
#endif
        kernel(context, block{offsets.data(), rows, cols});
    };
    if (levels == 0) {
        call(1, 1);
        return;
    }
    const std::size_t split = p.split_inner ? levels - 1 : 0;
    const std::size_t outer = levels - static_cast<std::size_t>(depth); // odometer levels
    auto low = [&](std::size_t l) {
        return l == split ? begin : index_t{0};
    };
    auto high = [&](std::size_t l) {
        return l == split ? end : p.extents[l];
    };
    for (std::size_t k = 0; k < ops; ++k)
        offsets[k] = begin * p.stride(k, split);
    const index_t rows = depth == 2 ? high(levels - 2) - low(levels - 2) : 1;
    const index_t cols = high(levels - 1) - low(levels - 1);
    if (outer == 0) {
        call(rows, cols);
        return;
    }
    shape_t counter(outer, 0);
    for (std::size_t l = 0; l < outer; ++l)
        counter[l] = low(l);
    for (;;) {
        call(rows, cols);
        // Carry from the innermost odometer level outwards.
        std::size_t l = outer;
        for (;;) {
            --l;
            for (std::size_t k = 0; k < ops; ++k)
                offsets[k] += p.stride(k, l);
            if (++counter[l] < high(l))
                break;
            if (l == 0)
                return;
            for (std::size_t k = 0; k < ops; ++k)
                offsets[k] -= p.stride(k, l) * (high(l) - low(l));
            counter[l] = low(l);
        }
    }
}

} // namespace fusor::exec
