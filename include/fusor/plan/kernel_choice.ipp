// fusor/plan/kernel_choice.ipp: the definitions of kernel_choice.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/plan/kernel_choice.hpp>

namespace fusor {
namespace planning {

FUSOR_DEF bool collapsible_runs(const loop_plan& p) {
    const std::size_t L = p.extents.size();
    if (L < 2 || p.empty || p.flat_reduction // exec::execute_flat_reduction: a run at a time
        || (p.reduction != reduce_kernel::pairwise && p.reduction != reduce_kernel::compensated)
        || (p.kernel != inner_kernel::broadcast
            && !(p.kernel == inner_kernel::contiguous && !p.vector_functions.empty()))
        || !collapses(
            p.extents[L - 2], p.extents[L - 1], p.operands[0].itemsize, !p.vector_functions.empty())
        || p.operands[0].strides[L - 1] != 0)
        return false;
    const index_t cols = p.extents[L - 1];
    for (std::size_t k = 1; k < p.operands.size(); ++k) {
        const operand_plan& o = p.operands[k];
        if (o.kind == operand_plan::role::scalar)
            continue;
        const index_t inner = o.strides[L - 1], outer = o.strides[L - 2];
        if (!(inner == 0 || (inner == 1 && (outer == cols || outer == 0))))
            return false;
    }
    return true;
}

FUSOR_DEF void
choose_elementwise_kernel(loop_plan& p, const elementwise_facts& facts, const void* e) {
    if (p.empty || p.extents.empty() || p.alias_copy)
        return;
    if (facts.vector_math) {
        // Every layout computes its math functions through SLEEF, so an element gets the same
        // bits whichever loop computes it: a strided loop gathers each block of its operands off
        // unit stride into a buffer first, and so does a transposed operand's loop (the tiles
        // stage for locality; a math function costs more than the strided reads they save).
        if (p.kernel == inner_kernel::tiled) {
            p.kernel = inner_kernel::strided;
            p.tile_packed = false;
        }
        facts.vector_functions(e, p.vector_functions);
        // Short rows collapse from fewer elements when each row's loop would call the math
        // functions (order_and_coalesce decided before they were known).
        if ((p.kernel == inner_kernel::contiguous || p.kernel == inner_kernel::broadcast)
            && collapsible_rows(p))
            p.kernel = inner_kernel::collapsed;
    }
    if (facts.scalar_math)
        p.scalar_math = true;
    if (facts.held_candidates) {
        if (p.kernel != inner_kernel::broadcast || !p.vector_functions.empty())
            return;
        int still = 0, at = -1;
        const std::size_t inner = p.extents.size() - 1;
        for (std::size_t k = 1; k < p.operands.size(); ++k) {
            const operand_plan& o = p.operands[k];
            if ((o.kind == operand_plan::role::tensor || o.kind == operand_plan::role::view)
                && o.strides[inner] == 0) {
                ++still;
                at = static_cast<int>(k);
            }
        }
        // A flat-rows plan's one still operand is a column, which its loop splats per row
        // (exec::execute_flat): no held operand.
        if (still == 1 && !p.flat_rows)
            p.held_operand = at;
    }
}

FUSOR_DEF void choose_copy_kernel(loop_plan& p) {
    if (!p.alias_copy || p.empty || p.extents.empty() || p.kernel != inner_kernel::broadcast
        || p.operands.size() != 2)
        return;
    if (p.operands[1].kind == operand_plan::role::temporary
        && p.stride(1, p.extents.size() - 1) == 0)
        p.held_operand = 1;
}

FUSOR_DEF void choose_math_in_registers(loop_plan& p,
                                        const elementwise_facts& facts,
                                        std::string_view destination_dtype,
                                        index_t destination_inner_stride) {
#if FUSOR_MATH_IN_REGISTERS
    if (facts.register_candidate)
        p.math_in_registers =
            !p.vector_functions.empty()
            && math_registers_allowed(facts, destination_dtype, destination_inner_stride);
    // Rows a register at a time (exec::run_blocked): a broadcast or collapsed loop's rows, each
    // operand at unit stride or still in the row, computed whole registers from the row itself,
    // an operand still in the row broadcast into a register, not splatted into a buffer per row
    // nor repeated over a block of rows (softmax's `exp(x - m) / s`, m and s reduction results
    // of shape (rows, 1)), when the rows are two registers long or more
    // (nest_rows_fill_registers). Not where the compiler may fuse a multiply and an add: the
    // rows' loop is another function than the blocks', and it might fuse them otherwise. A flat
    // plan (`flat`, `flat_rows`) decides this itself (planning::is_flat_rows_case).
    if (p.math_in_registers && !facts.contractible && !p.flat && !p.flat_rows
        && (p.kernel == inner_kernel::broadcast || p.kernel == inner_kernel::collapsed)
        && nest_rows_fill_registers(p.extents.back(), facts.itemsize)) {
        const std::size_t inner = p.extents.size() - 1;
        bool unit_or_still = true, still = false;
        for (std::size_t k = 1; k < p.operands.size(); ++k) {
            if (p.operands[k].kind == operand_plan::role::scalar)
                continue; // a register of its value, whatever the kernel
            const index_t s = p.stride(k, inner);
            unit_or_still = unit_or_still && (s == 0 || s == 1);
            still = still || s == 0;
        }
        if (unit_or_still) {
            p.rows_in_registers = true;
            // Rows one at a time, not collapsed: no operand is repeated over a block.
            p.kernel = still ? inner_kernel::broadcast : inner_kernel::contiguous;
        }
    }
#if FUSOR_STRIDE2_IN_REGISTERS
    if (p.math_in_registers && p.kernel == inner_kernel::strided && !p.extents.empty()) {
        const std::size_t inner = p.extents.size() - 1;
        bool pairs = true;
        for (std::size_t k = 1; k < p.operands.size(); ++k) {
            const index_t s = p.stride(k, inner);
            pairs = pairs && (s == 0 || s == 1 || s == 2);
        }
        index_t elements = 1;
        for (const index_t e : p.extents)
            elements *= e;
        p.stride2_in_registers =
            pairs && !facts.contractible && elements >= stride2_register_min_elements;
    }
#endif
#endif
    (void)p, (void)facts, (void)destination_dtype, (void)destination_inner_stride;
}

FUSOR_DEF bool math_registers_allowed(const elementwise_facts& facts,
                                      std::string_view destination_dtype,
                                      index_t destination_inner_stride) {
    // The same literal first: a compare's memcmp call was 45 instructions per evaluation.
    return FUSOR_MATH_IN_REGISTERS && facts.register_candidate && math_in_registers_enabled
           && destination_inner_stride == 1
           && (destination_dtype.data() == facts.dtype.data() || destination_dtype == facts.dtype);
}

FUSOR_DEF bool choose_rows_in_registers(const flat_plan& f, index_t itemsize, bool same_dtype) {
#if FUSOR_MATH_IN_REGISTERS
    const index_t half_register = compiled_simd_target().bytes / 2 / itemsize;
    return math_in_registers_enabled && same_dtype && f.inline_loop
           && (f.column != 0 || (!f.collapsed && f.cols % half_register != 0));
#else
    (void)f, (void)itemsize, (void)same_dtype;
    return false;
#endif
}

FUSOR_DEF index_t choose_stream_stores(const loop_plan& p,
                                       index_t elements,
                                       index_t itemsize,
                                       bool fresh_destination) {
#if defined(__x86_64__) && defined(__SSE2__)
    const index_t block =
        p.operand_count <= 2 ? stream_block_bytes_one_operand : stream_block_bytes;
    const bool streamed = stream_stores_enabled && !fresh_destination && p.reducer.empty()
                          && !p.alias_copy && !p.empty && !p.extents.empty()
                          && p.kernel == inner_kernel::contiguous && p.vector_functions.empty()
                          && elements * itemsize >= stream_stores_min_bytes
                          && p.extents.back() * itemsize >= block;
    return streamed ? block : 0;
#else
    (void)p, (void)elements, (void)itemsize, (void)fresh_destination;
    return 0;
#endif
}

} // namespace planning
} // namespace fusor
