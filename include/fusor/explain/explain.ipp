// fusor/explain/explain.ipp: the definitions of explain.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/exec/gemm.hpp> // query_blas_identity: the BLAS's kernels, for the text
#include <fusor/explain/explain.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF std::string pad(std::string s, std::size_t width) {
    if (s.size() < width)
        s.append(width - s.size(), ' ');
    return s;
}

FUSOR_DEF std::string plural(index_t n, const char* one, const char* many) {
    return std::to_string(n) + ' ' + (n == 1 ? one : many);
}

FUSOR_DEF void collect_loops(const loop_plan& p,
                             const plan_notes& n,
                             const boundary_plan* b,
                             std::vector<loop_ref>& out) {
    for (std::size_t k = 0; k < p.boundaries.size(); ++k)
        if (!p.boundaries[k].reused)
            collect_loops(*p.boundaries[k].plan, n.boundaries[k], &p.boundaries[k], out);
    out.push_back({&p, b, &n});
}

FUSOR_DEF std::size_t loop_number(const std::vector<loop_ref>& loops, int temporary) {
    for (std::size_t k = 0; k < loops.size(); ++k)
        if (loops[k].boundary && loops[k].boundary->temporary == temporary)
            return k + 1;
    return 0;
}

FUSOR_DEF std::string why_text(const boundary_plan& b, const plan_notes& sub) {
    switch (b.why) {
    case boundary_plan::reason::reduction:
        return "reduction result";
    case boundary_plan::reason::hoisted:
        return "hoisted (reads only reduction results)";
    case boundary_plan::reason::product_factor:
        return "factor of a BLAS product";
    case boundary_plan::reason::reshape_copy:
        return "reshape copy of " + to_string(b.shape) + " into " + to_string(b.read_shape);
    case boundary_plan::reason::broadcast_result:
        return b.plan->reducer.empty() ? "computed over its own shape, broadcast into out"
                                       : "reduction result, broadcast into out";
    case boundary_plan::reason::alias_copy: {
        std::string names;
        for (const int k : b.overlapping)
            names += (names.empty() ? "" : ", ") + sub.names[static_cast<std::size_t>(k)];
        return "aliasing copy: out overlaps " + names;
    }
    }
    return "";
}

FUSOR_DEF bool names_its_root(const boundary_plan& b) {
    return !b.plan->reducer.empty() || b.why == boundary_plan::reason::hoisted
           || b.why == boundary_plan::reason::product_factor
           || b.why == boundary_plan::reason::broadcast_result;
}

FUSOR_DEF void tree_rows(const loop_plan& p,
                         const plan_notes& n,
                         int offset,
                         bool skip_root,
                         const std::vector<loop_ref>& loops,
                         std::vector<tree_row>& rows) {
    for (std::size_t i = skip_root ? 1 : 0; i < n.tree.size(); ++i) {
        const tree_line& l = n.tree[i];
        const int depth = l.depth + offset - (skip_root ? 1 : 0);
        tree_row r{std::string(static_cast<std::size_t>(2 * depth), ' ') + l.what,
                   l.dtype,
                   to_string(l.shape),
                   ""};
        if (l.operand >= 0) {
            const auto& o = p.operands[static_cast<std::size_t>(l.operand)];
            if (o.kind == operand_plan::role::tensor || o.kind == operand_plan::role::view)
                r.detail = "strides "
                           + to_string(p.iter_strides_of(static_cast<std::size_t>(l.operand)))
                           + " offset " + std::to_string(o.base_offset);
            else if (o.kind == operand_plan::role::temporary)
                r.detail = "strides "
                           + to_string(p.iter_strides_of(static_cast<std::size_t>(l.operand)))
                           + " <- loop " + std::to_string(loop_number(loops, o.temporary));
        }
        rows.push_back(std::move(r));
        if (l.boundary >= 0) {
            const auto k = static_cast<std::size_t>(l.boundary);
            const boundary_plan& b = p.boundaries[k];
            if (b.reused)
                rows.back().detail += " (reused)";
            else
                tree_rows(*b.plan, n.boundaries[k], depth + 1, names_its_root(b), loops, rows);
        }
    }
}

FUSOR_DEF void print_tree(text_builder& os,
                          const loop_plan& p,
                          const plan_notes& n,
                          const std::vector<loop_ref>& loops) {
    std::vector<tree_row> rows;
    tree_rows(p, n, 0, false, loops, rows);
    std::size_t w_what = 0, w_shape = 0;
    for (const auto& r : rows) {
        w_what = std::max(w_what, r.what.size());
        w_shape = std::max(w_shape, r.shape.size());
    }
    os << "tree:\n";
    for (const auto& r : rows) {
        std::string line =
            "  " + pad(r.what, w_what) + "  " + pad(r.dtype, 7) + "  " + pad(r.shape, w_shape);
        if (!r.detail.empty())
            line += "  " + r.detail;
        line.erase(line.find_last_not_of(' ') + 1);
        os << line << '\n';
    }
}

FUSOR_DEF std::string formula(const loop_plan& p, const plan_notes& n, std::size_t& i) {
    const tree_line& l = n.tree[i++];
    std::vector<std::string> args;
    while (i < n.tree.size() && n.tree[i].depth > l.depth)
        args.push_back(formula(p, n, i));
    if (l.operand >= 0) {
        const auto k = static_cast<std::size_t>(l.operand);
        return p.operands[k].kind == operand_plan::role::scalar ? n.names[k] : "*" + n.names[k];
    }
    if (l.kind == node_kind::view && args.size() == 1)
        return args[0]; // a view: its index map already lives in the strides
    if (!l.symbol.empty() && args.size() == 2)
        return "(" + args[0] + " " + l.symbol + " " + args[1] + ")";
    if (!l.symbol.empty() && args.size() == 1)
        return l.symbol + args[0];
    std::string s = l.what + "(";
    for (std::size_t k = 0; k < args.size(); ++k)
        s += (k ? ", " : "") + args[k];
    return s + ")";
}

FUSOR_DEF std::string body_of(const loop_plan& p, const plan_notes& n) {
    std::size_t i = 0;
    const std::string out = "*" + n.names[0];
    const std::string reducer(p.reducer);
    if (p.reducer.empty()) {
        std::string f = formula(p, n, i);
        if (f.size() > 2 && f.front() == '(' && f.back() == ')')
            f = f.substr(1, f.size() - 2);
        return out + " = " + f;
    }
    i = 1; // the reduction's own line; its child is the formula
    const std::string f = i < n.tree.size() ? formula(p, n, i) : "";
    const bool arg = p.operands.back().kind == operand_plan::role::index;
    return out + " = " + reducer + "_step(" + out + ", " + f + (arg ? ", *idx" : "") + ")";
}

FUSOR_DEF std::vector<std::size_t> moving_operands(const loop_plan& p) {
    std::vector<std::size_t> moving;
    for (std::size_t k = 0; k < p.operands.size(); ++k)
        if (p.operands[k].kind != operand_plan::role::scalar)
            moving.push_back(k);
    return moving;
}

FUSOR_DEF bool reduces_at(const loop_plan& p, std::size_t level) {
    return !p.reducer.empty() && p.stride(0, level) == 0;
}

FUSOR_DEF bool broadcast_at(const loop_plan& p, std::size_t k, std::size_t level) {
    const operand_plan& o = p.operands[k];
    return k != 0 && o.kind != operand_plan::role::index && p.stride(k, level) == 0;
}

FUSOR_DEF std::string runs_of(const loop_plan& p) {
    if (!p.reducer.empty())
        return reduce_kernel_name(p.reduction);
    if (!p.vector_functions.empty())
        return !p.math_in_registers     ? "blocked"
               : p.stride2_in_registers ? "registers_stride2"
                                        : "registers";
    if (p.rows_in_registers)
        return "row_registers";
    if (p.kernel == inner_kernel::broadcast && p.held_operand >= 0)
        return "held";
    if (p.stream_block)
        return "contiguous_streamed";
    return inner_kernel_name(p.kernel);
}

FUSOR_DEF std::string gemm_text(const loop_plan& p, const plan_notes& n) {
    const gemm_plan& g = p.gemm;
    const bool single = p.operands[1].dtype == "float32";
    auto layout = [](bool transposed, index_t ld) {
        return std::string(transposed ? "column-major (transpose flag, no copy)" : "row-major")
               + ", ld " + std::to_string(ld);
    };
    index_t calls = 1;
    for (const index_t e : g.batch)
        calls *= e;
    const std::string b_text =
        g.gemv ? "a vector at stride " + std::to_string(g.ldb) : layout(g.trans_b, g.ldb);
    return std::string("BLAS ") + (single ? "s" : "d") + (g.gemv ? "gemv " : "gemm ")
           + std::to_string(g.m) + " x " + std::to_string(g.n) + " x " + std::to_string(g.k)
           + " (m x n x k): " + n.names[g.swapped ? 2 : 1] + " " + layout(g.trans_a, g.lda) + "; "
           + n.names[g.swapped ? 1 : 2] + " " + b_text + "; " + std::to_string(calls)
           + (calls == 1 ? " call" : " calls (batch loops)")
           + (g.direct ? ", writing " + n.names[0] + " directly"
                       : ", into a buffer converted into " + n.names[0]);
}

FUSOR_DEF std::string small_gemm_text(const loop_plan& p, const plan_notes& n) {
    const gemm_plan& g = p.gemm;
    index_t calls = 1;
    for (const index_t e : g.batch)
        calls *= e;
    return "small_gemm: fusor's matrix product " + std::to_string(g.m) + " x " + std::to_string(g.n)
           + " x " + std::to_string(g.k) + " (m x n x k, under the "
           + std::to_string(planning::gemm_min_work) + " multiply-adds the BLAS takes): each "
           + "element of " + n.names[1] + " times a row of " + n.names[2]
           + " into a row of accumulators, one term at a time in k order (the steps of the kernel "
             "it replaces), blocks of up to 4 rows x 8 columns held in registers; "
           + std::to_string(calls) + (calls == 1 ? " product" : " products (batch loops)")
           + (p.flat_product
                  ? "; flat: straight into " + n.names[0] + " (no plan cache, no finalize loop)"
                  : "");
}

FUSOR_DEF std::string kernel_text(const loop_plan& p, const plan_notes& n) {
    if (p.reduction == reduce_kernel::gemm)
        return gemm_text(p, n);
    if (p.reduction == reduce_kernel::small_gemm)
        return small_gemm_text(p, n);
    if (p.empty || p.extents.empty())
        return p.empty ? "none (the loop body never runs)" : "one element (a 0-d loop)";
    std::string s;
    if (p.kernel == inner_kernel::contiguous) {
        s = p.flat             ? "contiguous (flat: every tensor of the output's shape and layout)"
            : p.flat_rows      ? "contiguous (flat rows: each tensor the output's shape, or a row)"
            : p.flat_reduction ? "contiguous (flat runs: every tensor of the operand's shape)"
                               : "contiguous (every operand at unit stride)";
        if (p.stream_block) // planning::choose_stream_stores
            s += "; streaming stores (each " + std::to_string(p.stream_block / 1024)
                 + " KiB block computed into a buffer, then stored past the caches: no read of "
                   "the destination's lines)";
    } else if (p.kernel == inner_kernel::broadcast) {
        std::string still;
        for (std::size_t k : moving_operands(p))
            if (k != 0 && p.stride(k, p.extents.size() - 1) == 0)
                still += (still.empty() ? "" : ", ") + n.names[k];
        s = p.held_operand >= 0
                ? "broadcast (stride 0: " + still
                      + " held in a register, single-element operand; contiguous loop)"
            : p.flat_rows // columns of the row-broadcast case (planning::is_flat_rows_case)
                ? "broadcast (stride 0: " + still
                      + (p.rows_in_registers ? ", broadcast into a register per row"
                                             : ", splatted per row")
                      + "; flat rows and columns)"
                : p.flat_reduction // columns of a flat reduction (planning::is_flat_reduction)
                      ? "broadcast (stride 0: " + still
                            + (p.reduction == reduce_kernel::pairwise_rows_simd
                                       || p.reduction == reduce_kernel::float_lanes_simd
                                   ? ", broadcast into a register per run"
                                   : ", splatted per run")
                            + "; flat runs and columns)"
                      : p.rows_in_registers // planning::choose_math_in_registers or a sum's
                            ? "broadcast (stride 0: " + still
                                  + (p.reducer.empty()
                                         ? ", broadcast into a register per row; rows one at a "
                                           "time)"
                                         : ", broadcast into a register per run; runs one at a "
                                           "time)")
                            // a register accumulation reading its run in blocks
                            : !p.reducer.empty()
                                  ? "broadcast (stride 0: " + still + ", splatted; blocks of "
                                        + std::to_string(broadcast_block) + ")"
                                  : "broadcast (stride 0: " + still
                                        + "; splatted per inner loop, contiguous blocks of "
                                        + std::to_string(broadcast_block) + ")";
    } else if (p.kernel == inner_kernel::collapsed) {
        const std::size_t L = p.extents.size();
        std::string rows, columns, still;
        for (std::size_t k : moving_operands(p)) {
            const index_t inner = p.operands[k].strides[L - 1],
                          outer = p.operands[k].strides[L - 2];
            if (k == 0 || (inner != 0 && outer != 0))
                continue; // the destination, and operands continuing from row to row
            std::string& group = inner != 0 ? rows : outer != 0 ? columns : still;
            group += (group.empty() ? "" : ", ") + n.names[k];
        }
        // A reduction's rows are its runs, each summed from the block once it is computed.
        const char* row = p.reducer.empty() ? "row" : "run";
        const index_t cols = p.extents[L - 1];
        s = std::string("collapsed (") + row + "s of " + std::to_string(cols)
            + " as one loop, in blocks of " + std::to_string(collapse_block(cols) / cols) + " "
            + row + "s" + (rows.empty() ? "" : "; a row repeated: " + rows)
            + (columns.empty()
                   ? ""
                   : "; an element per " + std::string(row) + ", repeated over it: " + columns)
            + (still.empty() ? "" : "; splatted: " + still)
            + (p.reducer.empty() ? "" : "; each run summed from the block") + ")";
    } else if (p.kernel == inner_kernel::tiled) {
        const std::size_t L = p.extents.size();
        std::string staged;
        for (std::size_t k : moving_operands(p))
            if (k != 0 && p.operands[k].strides[L - 1] != 1)
                staged += (staged.empty() ? "" : ", ") + n.names[k] + " (stride "
                          + std::to_string(p.operands[k].strides[L - 1]) + ")";
        if (p.tile_packed)
            s = "tiled (the two inner loops in tiles of " + std::to_string(tile_rows) + " rows of "
                + std::to_string(p.extents[L - 1]) + "; staged into a tile buffer: " + staged
                + "; each tile one contiguous loop)";
        else
            s = "tiled (the two inner loops in " + std::to_string(tile_rows) + " x "
                + std::to_string(tile_cols) + " tiles; staged into a tile buffer: " + staged
                + "; each tile row contiguous)";
    } else {
        s = "strided (";
        const std::size_t inner = p.extents.size() - 1;
        // Operands off unit stride, grouped by stride: `stride 0 (broadcast): t1, t2; stride 8:
        // t0`.
        std::vector<std::pair<index_t, std::string>> groups;
        for (std::size_t k : moving_operands(p)) {
            const operand_plan& o = p.operands[k];
            const index_t st = o.strides[inner];
            if (st == 1 || o.kind == operand_plan::role::index || (k == 0 && !p.reducer.empty()))
                continue;
            auto g = std::find_if(
                groups.begin(), groups.end(), [&](const auto& x) { return x.first == st; });
            if (g == groups.end())
                groups.emplace_back(st, n.names[k]);
            else
                g->second += ", " + n.names[k];
        }
        std::string parts;
        for (const auto& [st, names] : groups)
            parts += (parts.empty() ? "" : "; ") + std::string("stride ") + std::to_string(st)
                     + (st == 0 ? " (broadcast)" : "") + ": " + names;
        s += parts + ")";
    }
    if (p.reduction == reduce_kernel::single_term) {
        s += "; a contraction summing nothing: the element-wise loop of its terms";
    } else if (!p.reducer.empty()) {
        s += row_of_accumulators(p.reduction) ? ", row of accumulators" : ", register accumulator";
        if (const index_t rows = arg_rows_per_pass(p.reduction))
            s += rows == 8 ? ", values and indices apart, eight rows per pass"
                           : ", values and indices apart";
        if (const index_t rows = jammed_rows(p.reduction))
            s += rows == 2   ? ", two rows per pass"
                 : rows == 4 ? ", four rows per pass"
                             : ", eight rows per pass";
        if (p.reduction == reduce_kernel::rescaled_rows)
            s += ", rows in blocks of " + std::to_string(rescaled_block_rows);
    }
    return s;
}

FUSOR_DEF std::string wrapped(const std::string& text, std::size_t indent, std::size_t width) {
    std::string out, line;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string word = text.substr(start, end - start);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += line + '\n';
            line = std::string(indent, ' ');
        } else if (!line.empty() && line.find_first_not_of(' ') != std::string::npos) {
            line += ' ';
        }
        line += word;
        start = end + 1;
    }
    return out + line + '\n';
}

FUSOR_DEF std::string vector_math_text(const loop_plan& p) {
    std::string sleef, fast, exact;
    for (const std::string_view m : p.vector_functions) {
        std::string& names = exact_vector_form(m) ? exact : fast_vector_form(m) ? fast : sleef;
        names += (names.empty() ? "" : ", ") + std::string(m);
    }
    const std::string isa(exec::vector_math_isa);
    std::string s;
    auto join = [&s](const std::string& part) {
        s += (s.empty() || part.empty() ? "" : "; ") + part;
    };
    join(sleef.empty() ? "" : sleef + " by SLEEF (" + isa + ", 1 ulp)");
    join(fast.empty() ? "" : fast + " by SLEEF (" + isa + ", 3.5 ulp)");
    join(exact.empty() ? "" : exact + " by SIMD sqrt (exact)");
    return s + (p.math_in_registers ? "; in registers with their arguments" : "");
}

FUSOR_DEF std::string exp_engine() {
    const std::string isa(exec::vector_math_isa);
    return isa.empty() ? "the C library" : "SLEEF (" + isa + ", 1 ulp)";
}

FUSOR_DEF std::string vector_text(const loop_plan& p) {
    if (p.reduction == reduce_kernel::gemm) {
        // The BLAS chose its kernels for this processor when the program started; OpenBLAS says
        // which (exec::query_blas_identity), and whether they are its generic fallback.
        const exec::blas_identity id = exec::query_blas_identity();
        if (id.core.empty())
            return "the BLAS's own kernels";
        std::string s = "the BLAS's own kernels (OpenBLAS, core " + id.core + ")";
        if (id.generic)
            s += "; OpenBLAS's generic kernels: it does not recognise this processor, which has "
                 + std::string(id.suggested_core == "SkylakeX" ? "AVX-512" : "AVX2")
                 + " (set OPENBLAS_CORETYPE=" + id.suggested_core
                 + " before the program starts for its kernels)";
        return s;
    }
    const simd_target target = compiled_simd_target();
    if (p.reduction == reduce_kernel::small_gemm) {
        const gemm_plan& g = p.gemm;
        if (g.b_n == 1 && g.c_n == 1 && p.operands[1].dtype == "float32")
            return std::string(target.name)
                   + ": float32 products 8 or 4 columns at a time (single columns for the "
                     "rest), converted to float64 accumulators";
        return "none (one accumulator at a time)";
    }
    if (p.kernel == inner_kernel::strided && !p.vector_functions.empty() && !p.empty
        && !p.extents.empty()) {
        if (p.stride2_in_registers)
            return vector_math_text(p) + ", every second element read by two loads and a permute";
        return vector_math_text(p) + " over blocks of " + std::to_string(broadcast_block)
               + " gathered from the strided operands";
    }
    if (p.kernel == inner_kernel::strided || p.empty || p.extents.empty())
        return "none (a strided inner loop is not vectorised)";
    if (p.kernel == inner_kernel::tiled)
        return std::string(p.tile_packed ? "each tile's loop" : "the rows of each tile")
               + ", compiler-vectorised (" + std::string(target.name) + ", "
               + std::to_string(p.vector_bytes) + "-byte registers)";
    if (p.vector_bytes == 0)
        return "none (no SIMD target known at compile time)";
    const std::string regs =
        std::string(target.name) + ", " + std::to_string(p.vector_bytes) + "-byte registers";
    if (!p.reducer.empty()) {
        const index_t itemsize = p.operands.size() > 1 ? p.operands[1].itemsize : 0;
        if (p.reduction == reduce_kernel::minmax_simd)
            // One register of lanes per set (lane_vector_bytes, the plan's vector_bytes); within
            // explain's 100 columns for AVX-512 and an arg-reduction.
            return std::to_string(minmax_lane_sets) + " x "
                   + std::to_string(p.vector_bytes / itemsize) + " "
                   + std::string(p.operands[1].dtype) + " lanes"
                   + (p.reducer.starts_with("arg") ? " (value, index)" : "")
                   + ", merged in index order (" + regs + ")";
        if (p.reduction == reduce_kernel::arg_rows) // within explain's 100 columns
            return regs + ": " + std::to_string(p.vector_bytes / itemsize) + " x "
                   + std::string(p.operands[1].dtype) + " per compare (compiler-vectorised)";
        if (p.reduction == reduce_kernel::arg_eight_rows) { // row numbers of the values' width
            const std::string lanes = std::to_string(p.vector_bytes / itemsize) + " x ";
            return regs + ": " + lanes + std::string(p.operands[1].dtype) + " beside " + lanes
                   + (itemsize == 4 ? "int32" : "int64") + " row numbers per compare";
        }
        if (p.operands.back().kind == operand_plan::role::index)
            return "none (an arg-reduction compares one element at a time, in index order)";
        if (p.reduction == reduce_kernel::rescaled_blocks) // within explain's 100 columns
            return "float64 blocks of " + std::to_string(rescaled_block)
                   + ": 8-lane max, exp(x - max) by " + exp_engine() + ", 8-lane sum";
        if (p.reduction == reduce_kernel::rescaled_rows) // within explain's 100 columns
            return "float64 strips of " + std::to_string(rescaled_block)
                   + ": column max, exp(x - max) by " + exp_engine() + ", column sums";
        if (p.reduction == reduce_kernel::pairwise_rows) // within explain's 100 columns
            return "8 float64 lanes per run, " + std::to_string(pairwise_rows_per_pass)
                   + " runs per pass (" + regs + ")";
        if (p.reduction == reduce_kernel::pairwise_rows_simd) // within explain's 100 columns
            return std::to_string(pairwise_rows_per_pass)
                   + " runs of 8 float64 lanes per pass, 16 terms per register (" + regs + ")";
        if (p.reduction == reduce_kernel::float_lanes_simd) // within explain's 100 columns
            // (the instructions are AVX-512's whenever the planner chooses this kernel)
            return "32 float32 lanes of up to 16 terms, then 32 float64 lanes (AVX-512, 16 terms "
                   "per load)";
        if (p.reduction == reduce_kernel::float_lanes) { // within explain's 100 columns
            const std::string lanes = "32 float32 lanes of up to 16 terms, then 32 float64 lanes";
            if (p.vector_functions.empty())
                return lanes + " (" + regs + ")";
            return lanes + "; " + vector_math_text(p) + " over blocks of "
                   + std::to_string(broadcast_block);
        }
        if (p.reduction == reduce_kernel::pairwise_simd && !p.vector_functions.empty())
            // Each run a register at a time with its functions (exec::detail::register_runs).
            return "float64 lanes 8 to a register (" + regs + "); " + vector_math_text(p);
        if (p.reduction == reduce_kernel::pairwise_simd)
            return "float64 lanes 8 to a register, 16 float32 terms converted per load (" + regs
                   + ")";
        if (!row_of_accumulators(p.reduction)) {
            if (p.vector_functions.empty())
                return "8 accumulators in flight, vectorised by the compiler (" + regs + ")";
            return "8 accumulators in flight (" + regs + "); " + vector_math_text(p);
        }
    }
    // The lanes of the widest element the loop moves (the destination's type for element-wise
    // loops; a row of accumulators holds the accumulator type).
    index_t widest = 0;
    std::string dtype;
    for (std::size_t k : moving_operands(p))
        if (p.operands[k].itemsize > widest && p.operands[k].kind != operand_plan::role::index) {
            widest = p.operands[k].itemsize;
            dtype = std::string(p.operands[k].dtype);
        }
    const index_t lanes = widest ? p.vector_bytes / widest : 0;
    std::string s = regs + ": " + std::to_string(lanes) + " x " + dtype + " per instruction";
    if (p.scalar_math)
        return s
               + " (compiler-vectorised; exp, log ... called one element at a time: compiled "
                 "without SLEEF, add -DFUSOR_HAS_SLEEF=1 and -lsleef to vectorise them)"
               + (p.vector_functions.empty() ? "" : "; " + vector_math_text(p));
    if (p.rows_in_registers) { // flat rows: execute_flat
        const std::string rows = " (each row a register at a time, the tail by a masked store)";
        return p.vector_functions.empty() ? s + rows : s + rows + "; " + vector_math_text(p);
    }
    if (p.vector_functions.empty())
        return s + " (compiler-vectorised)";
    return s + "; " + vector_math_text(p);
}

FUSOR_DEF std::string threads_text(const loop_plan& p) {
    using why = loop_plan::serial_reason;
    if (p.reduction == reduce_kernel::gemm)
        return "the BLAS's own (e.g. OPENBLAS_NUM_THREADS); each result element is one dot "
               "product whatever their number";
    if (p.threads <= 1) {
        switch (p.serial) {
        case why::no_openmp:
            return "1 (compiled without OpenMP: add -fopenmp, or CMake's FUSOR_OPENMP, to split "
                   "loops this large across threads)";
        case why::one_thread:
            return "1 (one thread allowed: set_num_threads, OMP_NUM_THREADS or a single core)";
        case why::blas_product:
            return "1 (next to a BLAS product: the BLAS's own threads run the product, and "
                   "OpenMP workers left spinning after a split loop would take their cores)";
        case why::reduce_order:
            return "1 (every loop that could be split reduces: splitting would change the "
                   "order of the sums)";
        default:
            return "1 (runs on the calling thread; no parallel split)";
        }
    }
    index_t total = 1;
    for (const index_t e : p.extents)
        total *= e;
    const index_t split = p.split_inner ? p.extents.back() : p.extents[0];
    const index_t per_outer = total / split;
    const index_t chunks = (split + p.chunk - 1) / p.chunk;
    return std::to_string(p.threads)
           + (p.split_inner ? " (the innermost loop in " : " (the outermost loop in ")
           + std::to_string(chunks) + " chunks of " + std::to_string(p.chunk) + ", "
           + std::to_string(p.chunk * per_outer) + " elements each; a fixed split)";
}

FUSOR_DEF void print_nest(text_builder& os, const loop_plan& p, const plan_notes& n) {
    const std::string in = "    ";
    const std::vector<std::size_t> moving = moving_operands(p);
    const std::size_t levels = p.extents.size();
    std::vector<std::string> heads, steps, notes;
    std::vector<std::size_t> widths(moving.size(), 0);
    for (std::size_t L = 0; L < levels; ++L)
        for (std::size_t m = 0; m < moving.size(); ++m)
            widths[m] = std::max(widths[m],
                                 n.names[moving[m]].size() + 2
                                     + std::to_string(p.stride(moving[m], L)).size());
    for (std::size_t L = 0; L < levels; ++L) {
        heads.push_back(std::string(2 * L, ' ') + "for i" + std::to_string(L) + " in [0, "
                        + std::to_string(p.extents[L]) + "):");
        std::string st;
        for (std::size_t m = 0; m < moving.size(); ++m)
            st += pad(n.names[moving[m]] + "+=" + std::to_string(p.stride(moving[m], L)), widths[m])
                  + "  ";
        steps.push_back(st);
        std::string note = "axes " + to_string(p.loop_axes[L]);
        if (reduces_at(p, L))
            note += " reduced";
        std::string broadcast;
        for (std::size_t k : moving)
            if (broadcast_at(p, k, L))
                broadcast += (broadcast.empty() ? "" : ", ") + n.names[k];
        if (!broadcast.empty())
            note += "; broadcast: " + broadcast;
        notes.push_back(note);
    }
    std::size_t w = 0;
    for (const auto& h : heads)
        w = std::max(w, h.size());
    for (std::size_t L = 0; L < levels; ++L)
        os << in << pad(heads[L], w) << "  " << steps[L] << "# " << notes[L] << '\n';
    os << in << std::string(2 * levels, ' ') << body_of(p, n) << '\n';
    if (p.empty)
        os << in << "(an extent is 0: the body never runs)\n";
}

FUSOR_DEF void print_loop(text_builder& os,
                          const loop_ref& ref,
                          std::size_t number,
                          const std::vector<loop_ref>& loops) {
    const loop_plan& p = *ref.plan;
    const plan_notes& n = *ref.notes;
    const operand_plan& d = p.operands[0];
    os << "  loop " << number << " of " << loops.size() << " -> " << n.names[0] << ": " << d.dtype
       << ' ' << to_string(d.shape);
    if (ref.boundary)
        os << ", " << ref.boundary->bytes << " bytes, " << why_text(*ref.boundary, n);
    os << '\n';
    os << "    over " << to_string(p.iter_shape);
    if (!p.reducer.empty())
        os << "; " << p.reducer << " over axes " << to_string(p.reduced_axes) << ", "
           << p.reduce_count << " elements into each result";
    os << '\n';
    for (const boundary_plan& b : p.boundaries)
        if (b.reused)
            os << "    reads " << planning::temporary_name(b.temporary) << " again (loop "
               << loop_number(loops, b.temporary) << " computed it; not recomputed)\n";
    print_nest(os, p, n);
    if (p.reduction == reduce_kernel::gemm)
        os << "    (the loops above are what the BLAS computes; it runs them in its own order)\n";
    else if (!p.reducer.empty())
        os << "    then " << n.names[0] << " = " << p.reducer << "_finalize(accumulators)\n";
    // Within 100 columns: a collapsed loop's line lists its operands (continued under the text).
    os << "    " << wrapped("kernel:  " + kernel_text(p, n), 13, 96);
    if (p.reduction == reduce_kernel::gemm) // the BLAS's kernels, and a note when they are generic
        os << "    " << wrapped("vectors: " + vector_text(p), 13, 96);
    else
        os << "    vectors: " << vector_text(p) << '\n';
    os << "    threads: " << threads_text(p) << '\n';
}

FUSOR_DEF std::string duration_text(double ns) {
    const char* unit = "ns";
    for (const char* next : {"us", "ms", "s"}) {
        if (ns < 999.5)
            break;
        ns /= 1000;
        unit = next;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g %s", ns, unit);
    return buf;
}

FUSOR_DEF void print_cost(text_builder& os, const cost_estimate& c) {
    auto row = [&](const char* name, const traffic& t) {
        os << "  " << pad(name, 8) << pad(std::to_string(t.loops), 7)
           << pad(std::to_string(t.temporaries), 13) << pad(std::to_string(t.temporary_bytes), 17)
           << pad(std::to_string(t.bytes_read), 12) << pad(std::to_string(t.bytes_written), 15)
           << pad(duration_text(t.compute_ns), 10) << duration_text(t.estimated_ns()) << '\n';
    };
    os << "cost:     loops  temporaries  temporary bytes  bytes read  bytes written  compute   "
          "time\n";
    row("fused", c.fused);
    row("eager", c.eager);
    auto ratio = [](double e, double f) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f", e / f);
        return std::string(buf);
    };
    const index_t f = c.fused.bytes_moved(), e = c.eager.bytes_moved();
    if (f > 0 && e > 0)
        os << "  eager: " << ratio(static_cast<double>(e), static_cast<double>(f))
           << "x the bytes and an estimated "
           << ratio(c.eager.estimated_ns(), c.fused.estimated_ns())
           << "x the time of the fused plan\n";
}

FUSOR_DEF std::string text_of(const loop_plan& p, const plan_notes& n, bool cached) {
    std::vector<loop_ref> loops;
    collect_loops(p, n, nullptr, loops);
    const cost_estimate c = estimate_cost(p, n);
    text_builder os;
    os << "fusor::explain: " << plural(static_cast<index_t>(loops.size()), "loop", "loops") << ", "
       << plural(c.fused.temporaries, "materialised temporary", "materialised temporaries");
    if (c.fused.temporaries)
        os << " (" << c.fused.temporary_bytes << " bytes)";
    os << '\n';
    if (cached)
        os << "plan cache: the last evaluation of this expression on this thread had the same "
              "operands\n  and destination layout; the assignment reuses its plan\n";
    print_tree(os, p, n, loops);
    os << "plan:\n";
    for (std::size_t k = 0; k < loops.size(); ++k)
        print_loop(os, loops[k], k + 1, loops);
    print_cost(os, c);
    return std::move(os.text);
}

FUSOR_DEF std::string json_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

FUSOR_DEF std::string json_string(const std::string& s) {
    std::string out = "\"";
    for (const char ch : s) {
        const auto u = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (u < 0x20) {
            const char* hex = "0123456789abcdef";
            out += "\\u00";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += ch;
        }
    }
    return out + '"';
}

FUSOR_DEF std::string json_ints(const std::vector<index_t>& v) {
    std::string s = "[";
    for (std::size_t k = 0; k < v.size(); ++k)
        s += (k ? "," : "") + std::to_string(v[k]);
    return s + "]";
}

FUSOR_DEF std::string json_ints(const shape_t& v) {
    return json_ints(std::vector<index_t>(v.begin(), v.end()));
}

FUSOR_DEF std::string json_node(const loop_plan& p,
                                const plan_notes& n,
                                std::size_t& i,
                                const std::vector<loop_ref>& loops) {
    const tree_line& l = n.tree[i++];
    std::string s = "{\"what\":" + json_string(l.what)
                    + ",\"kind\":" + json_string(kind_name(l.kind))
                    + ",\"dtype\":" + json_string(l.dtype) + ",\"shape\":" + json_ints(l.shape);
    std::vector<std::string> children;
    if (l.operand >= 0) {
        const auto k = static_cast<std::size_t>(l.operand);
        const auto& o = p.operands[k];
        if (o.kind == operand_plan::role::scalar)
            s += ",\"value\":" + json_string(n.names[k]);
        else
            s += ",\"name\":" + json_string(n.names[k]) + ",\"strides\":"
                 + json_ints(p.iter_strides_of(k)) + ",\"offset\":" + std::to_string(o.base_offset);
    }
    if (l.boundary >= 0) {
        const auto k = static_cast<std::size_t>(l.boundary);
        const boundary_plan& b = p.boundaries[k];
        s += ",\"loop\":" + std::to_string(loop_number(loops, b.temporary))
             + ",\"reused\":" + (b.reused ? "true" : "false");
        if (!b.reused) {
            const plan_notes& bn = n.boundaries[k];
            std::size_t j = names_its_root(b) ? 1 : 0;
            while (j < bn.tree.size())
                children.push_back(json_node(*b.plan, bn, j, loops));
        }
    }
    while (i < n.tree.size() && n.tree[i].depth > l.depth)
        children.push_back(json_node(p, n, i, loops));
    s += ",\"children\":[";
    for (std::size_t k = 0; k < children.size(); ++k)
        s += (k ? "," : "") + children[k];
    return s + "]}";
}

FUSOR_DEF std::string json_traffic(const traffic& t) {
    return "{\"loops\":" + std::to_string(t.loops)
           + ",\"temporaries\":" + std::to_string(t.temporaries) + ",\"temporary_bytes\":"
           + std::to_string(t.temporary_bytes) + ",\"bytes_read\":" + std::to_string(t.bytes_read)
           + ",\"bytes_written\":" + std::to_string(t.bytes_written) + ",\"compute_ns\":"
           + json_number(t.compute_ns) + ",\"estimated_ns\":" + json_number(t.estimated_ns()) + "}";
}

FUSOR_DEF std::string json_loop(const loop_ref& ref, std::size_t number) {
    const loop_plan& p = *ref.plan;
    const plan_notes& n = *ref.notes;
    std::string s = "{\"number\":" + std::to_string(number)
                    + ",\"writes\":" + json_string(n.names[0]) + ",\"materialises\":";
    if (ref.boundary)
        s += "{\"name\":" + json_string(planning::temporary_name(ref.boundary->temporary))
             + ",\"why\":" + json_string(why_text(*ref.boundary, n))
             + ",\"dtype\":" + json_string(std::string(ref.boundary->dtype))
             + ",\"shape\":" + json_ints(ref.boundary->shape)
             + ",\"bytes\":" + std::to_string(ref.boundary->bytes) + "}";
    else
        s += "null";
    s += ",\"iteration_shape\":" + json_ints(p.iter_shape) + ",\"reducer\":"
         + (p.reducer.empty() ? std::string("null") : json_string(std::string(p.reducer)))
         + ",\"reduced_axes\":" + json_ints(p.reduced_axes)
         + ",\"reduce_count\":" + std::to_string(p.reduce_count) + ",\"operands\":[";
    for (std::size_t k = 0; k < p.operands.size(); ++k) {
        const operand_plan& o = p.operands[k];
        s += std::string(k ? "," : "") + "{\"name\":" + json_string(n.names[k]) + ",\"role\":"
             + json_string(role_name(o.kind)) + ",\"dtype\":" + json_string(std::string(o.dtype))
             + ",\"shape\":" + json_ints(o.shape) + ",\"offset\":" + std::to_string(o.base_offset)
             + "}";
    }
    s += "],\"reads_again\":[";
    bool first = true;
    for (const boundary_plan& b : p.boundaries)
        if (b.reused) {
            s += (first ? "" : ",") + json_string(planning::temporary_name(b.temporary));
            first = false;
        }
    s += "],\"levels\":[";
    for (std::size_t L = 0; L < p.extents.size(); ++L) {
        s += std::string(L ? "," : "") + "{\"extent\":" + std::to_string(p.extents[L])
             + ",\"axes\":" + json_ints(p.loop_axes[L])
             + ",\"reduced\":" + (reduces_at(p, L) ? "true" : "false") + ",\"strides\":{";
        bool firsts = true;
        std::string broadcast;
        for (std::size_t k : moving_operands(p)) {
            s += (firsts ? "" : ",") + json_string(n.names[k]) + ":"
                 + std::to_string(p.stride(k, L));
            firsts = false;
            if (broadcast_at(p, k, L))
                broadcast += (broadcast.empty() ? "" : ",") + json_string(n.names[k]);
        }
        s += "},\"broadcast\":[" + broadcast + "]}";
    }
    const bool vectorised = p.kernel != inner_kernel::strided;
    const index_t lanes =
        vectorised && p.operands[0].itemsize ? p.vector_bytes / p.operands[0].itemsize : 1;
    s += "],\"body\":" + json_string(body_of(p, n)) + ",\"kernel\":"
         + json_string(p.kernel == inner_kernel::contiguous  ? "contiguous"
                       : p.kernel == inner_kernel::broadcast ? "broadcast"
                       : p.kernel == inner_kernel::tiled     ? "tiled"
                       : p.kernel == inner_kernel::collapsed ? "collapsed"
                                                             : "strided")
         + ",\"tile_packed\":" + (p.tile_packed ? "true" : "false") + ",\"accumulator\":"
         + (p.reducer.empty() || p.extents.empty()
                ? std::string("null")
                : json_string(row_of_accumulators(p.reduction) ? "row" : "register"))
         + ",\"vector_bytes\":" + std::to_string(vectorised ? p.vector_bytes : 0)
         + ",\"lanes\":" + std::to_string(lanes) + ",\"threads\":" + std::to_string(p.threads)
         + ",\"chunk\":" + std::to_string(p.chunk) + ",\"split\":"
         + json_string(p.threads <= 1  ? "none"
                       : p.split_inner ? "innermost"
                                       : "outermost")
         + ",\"vector_math\":[" +
         [&] {
             std::string names;
             for (const std::string_view m : p.vector_functions)
                 names += (names.empty() ? "" : ",") + json_string(std::string(m));
             return names;
         }()
         + "]" + ",\"empty\":" + (p.empty ? "true" : "false") + ",\"alias_copy\":"
         + (p.alias_copy ? "true" : "false") + ",\"flat\":" + (p.flat ? "true" : "false")
         + ",\"flat_rows\":" + (p.flat_rows ? "true" : "false")
         + ",\"flat_reduction\":" + (p.flat_reduction ? "true" : "false") + ",\"flat_product\":"
         + (p.flat_product ? "true" : "false") + ",\"runs\":" + json_string(runs_of(p));
    if (p.reduction == reduce_kernel::gemm) {
        const gemm_plan& g = p.gemm;
        index_t calls = 1;
        for (const index_t e : g.batch)
            calls *= e;
        s += ",\"gemm\":{\"routine\":"
             + json_string(std::string(p.operands[1].dtype == "float32" ? "s" : "d")
                           + (g.gemv ? "gemv" : "gemm"))
             + ",\"m\":" + std::to_string(g.m) + ",\"n\":" + std::to_string(g.n)
             + ",\"k\":" + std::to_string(g.k) + ",\"a\":" + json_string(n.names[g.swapped ? 2 : 1])
             + ",\"b\":" + json_string(n.names[g.swapped ? 1 : 2]) + ",\"trans_a\":"
             + (g.trans_a ? "true" : "false") + ",\"trans_b\":" + (g.trans_b ? "true" : "false")
             + ",\"calls\":" + std::to_string(calls)
             + ",\"direct\":" + (g.direct ? "true" : "false") + "}";
    }
    s += "}";
    return s;
}

FUSOR_DEF std::string json_of(const loop_plan& p, const plan_notes& n, bool cached) {
    std::vector<loop_ref> loops;
    collect_loops(p, n, nullptr, loops);
    std::size_t i = 0;
    std::string s =
        "{\"format\":\"fusor.explain/1\",\"tree\":" + json_node(p, n, i, loops) + ",\"loops\":[";
    for (std::size_t k = 0; k < loops.size(); ++k)
        s += (k ? "," : "") + json_loop(loops[k], k + 1);
    const cost_estimate c = estimate_cost(p, n);
    return s + "],\"cached\":" + (cached ? "true" : "false") + ",\"cost\":{\"fused\":"
           + json_traffic(c.fused) + ",\"eager\":" + json_traffic(c.eager) + "}}\n";
}

} // namespace detail
} // namespace fusor
