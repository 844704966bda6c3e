// fusor/explain/explain.hpp: SHOW. Renders the same loop_plan that exec/ runs, in three parts:
// the expression tree, the plan (every loop in the order it runs, as pseudo-code), and the
// cost (bytes moved fused against eager). Text for people, JSON for tools; docs/explain.md
// explains every field.
#pragma once

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fusor/core/broadcast.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/exec/segmented_eval.hpp>
#include <fusor/exec/vector_math.hpp> // the SLEEF variant compiled in, for the text
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/ops/vector_forms.hpp>
#include <fusor/plan/cost.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/plan/make_plan.hpp>
#include <fusor/plan/plan_cache.hpp>
#include <fusor/plan/row_blocks.hpp>
#include <fusor/plan/segment_cells.hpp>

namespace fusor {

/// The two renderings of an explanation.
enum class explain_format {
    text, ///< for people: fits 100 columns, loops as pseudo-code (`for i0 in [0, 4):  out+=8`)
    json  ///< for tools: one JSON object, fields as docs/explain.md describes
};

namespace detail {
// explain's text is appended to a std::string: it needs nothing else from a stream, and
// <sstream> is one of the heavier headers a user's every translation unit would pay for.
struct text_builder {
    std::string text;
    text_builder& operator<<(std::string_view v) {
        text += v;
        return *this;
    }
    text_builder& operator<<(char c) {
        text += c;
        return *this;
    }
    template <class I>
    requires std::is_integral_v<I> text_builder& operator<<(I v) {
        text += std::to_string(v);
        return *this;
    }
};
inline std::string pad(std::string s, std::size_t width) {
    if (s.size() < width)
        s.append(width - s.size(), ' ');
    return s;
}

inline std::string plural(index_t n, const char* one, const char* many) {
    return std::to_string(n) + ' ' + (n == 1 ? one : many);
}

/// One loop of an evaluation, in the order the loops run: each boundary's loops come before
/// the loop that reads its temporary; the main loop (boundary == nullptr) comes last. `notes`:
/// what the planner recorded for explain beside that loop (tree lines, operand names).
struct loop_ref {
    const loop_plan* plan;
    const boundary_plan* boundary;
    const plan_notes* notes;
};

inline void collect_loops(const loop_plan& p,
                          const plan_notes& n,
                          const boundary_plan* b,
                          std::vector<loop_ref>& out) {
    for (std::size_t k = 0; k < p.boundaries.size(); ++k)
        if (!p.boundaries[k].reused)
            collect_loops(*p.boundaries[k].plan, n.boundaries[k], &p.boundaries[k], out);
    out.push_back({&p, b, &n});
}

// The number (1-based, in running order) of the loop that computes temporary `temporary`.
inline std::size_t loop_number(const std::vector<loop_ref>& loops, int temporary) {
    for (std::size_t k = 0; k < loops.size(); ++k)
        if (loops[k].boundary && loops[k].boundary->temporary == temporary)
            return k + 1;
    return 0;
}

// Why a boundary is materialised, in words: `reduction result`, `reshape copy of (2, 3) into
// (6,)`, `aliasing copy: out overlaps t0` (names from the boundary loop's notes `sub`).
inline std::string why_text(const boundary_plan& b, const plan_notes& sub) {
    switch (b.why) {
    case boundary_plan::reason::reduction:
        return "reduction result";
    case boundary_plan::reason::hoisted:
        return "hoisted (reads only reduction results)";
    case boundary_plan::reason::reshape_copy:
        return "reshape copy of " + to_string(b.shape) + " into " + to_string(b.read_shape);
    case boundary_plan::reason::alias_copy: {
        std::string names;
        for (const int k : b.overlapping)
            names += (names.empty() ? "" : ", ") + sub.names[static_cast<std::size_t>(k)];
        return "aliasing copy: out overlaps " + names;
    }
    }
    return "";
}

// ---- tree --------------------------------------------------------------------------------

// Whether boundary `b`'s temporary line (`tmp1 = sum(axes=(0,))`, `tmp2 = sqrt`) already names
// the root of the loop computing it, so the boundary's own tree starts below that root.
inline bool names_its_root(const boundary_plan& b) {
    return !b.plan->reducer.empty() || b.why == boundary_plan::reason::hoisted;
}

struct tree_row {
    std::string what, dtype, shape, detail;
};

// The rows of `p`'s tree at `offset` extra depth; a boundary's own tree follows its temporary's
// row, one level deeper (the reduction's line is the temporary's: it is not repeated).
inline void tree_rows(const loop_plan& p,
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

inline void print_tree(text_builder& os,
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

// ---- plan --------------------------------------------------------------------------------

// The loop body as infix pseudo-code, rebuilt from the tree lines: `*t0 * *t1 + 2`.
inline std::string formula(const loop_plan& p, const plan_notes& n, std::size_t& i) {
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

inline std::string body_of(const loop_plan& p, const plan_notes& n) {
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

// Operands that move through memory (everything but scalars), in operand order.
inline std::vector<std::size_t> moving_operands(const loop_plan& p) {
    std::vector<std::size_t> moving;
    for (std::size_t k = 0; k < p.operands.size(); ++k)
        if (p.operands[k].kind != operand_plan::role::scalar)
            moving.push_back(k);
    return moving;
}

inline bool reduces_at(const loop_plan& p, std::size_t level) {
    return !p.reducer.empty() && p.stride(0, level) == 0;
}

// `t1` is broadcast at a level when it stands still there while the loop runs.
inline bool broadcast_at(const loop_plan& p, std::size_t k, std::size_t level) {
    const operand_plan& o = p.operands[k];
    return k != 0 && o.kind != operand_plan::role::index && p.stride(k, level) == 0;
}

// The kernel the plan routes its loop to, by the name the evaluator's trace reports
// (FUSOR_TRACE_KERNEL in exec/execute.hpp): the JSON's `runs`.
inline std::string runs_of(const loop_plan& p) {
    if (!p.reducer.empty())
        return reduce_kernel_name(p.reduction);
    if (!p.vector_functions.empty())
        return !p.math_in_registers     ? "blocked"
               : p.stride2_in_registers ? "registers_stride2"
                                        : "registers";
    if (p.kernel == inner_kernel::broadcast && p.held_operand >= 0)
        return "held";
    return inner_kernel_name(p.kernel);
}

// The BLAS call of a matrix product (reduce_kernel::gemm): which routine, m x n x k, how each
// matrix is read, how many calls, where the result goes.
inline std::string gemm_text(const loop_plan& p, const plan_notes& n) {
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

// fusor's small matrix product (reduce_kernel::small_gemm): m x n x k, which operand is A, how
// many products.
inline std::string small_gemm_text(const loop_plan& p, const plan_notes& n) {
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
           + std::to_string(calls) + (calls == 1 ? " product" : " products (batch loops)");
}

inline std::string kernel_text(const loop_plan& p, const plan_notes& n) {
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
    } else if (p.kernel == inner_kernel::broadcast) {
        std::string still;
        for (std::size_t k : moving_operands(p))
            if (k != 0 && p.stride(k, p.extents.size() - 1) == 0)
                still += (still.empty() ? "" : ", ") + n.names[k];
        s = p.held_operand >= 0
                ? "broadcast (stride 0: " + still
                      + " held in a register, single-element operand; contiguous loop)"
            : !p.reducer.empty() // a register accumulation reading its run in blocks
                ? "broadcast (stride 0: " + still + ", splatted; blocks of "
                      + std::to_string(broadcast_block) + ")"
                : "broadcast (stride 0: " + still
                      + "; splatted per inner loop, contiguous blocks of "
                      + std::to_string(broadcast_block) + ")";
    } else if (p.kernel == inner_kernel::collapsed) {
        const std::size_t L = p.extents.size();
        std::string rows, still;
        for (std::size_t k : moving_operands(p)) {
            if (k == 0 || p.operands[k].strides[L - 2] != 0)
                continue;
            std::string& group = p.operands[k].strides[L - 1] == 0 ? still : rows;
            group += (group.empty() ? "" : ", ") + n.names[k];
        }
        const index_t cols = p.extents[L - 1];
        s = "collapsed (rows of " + std::to_string(cols) + " as one loop, in blocks of "
            + std::to_string(collapse_block(cols) / cols) + " rows; a row repeated: " + rows
            + (still.empty() ? "" : "; splatted: " + still) + ")";
    } else if (p.kernel == inner_kernel::tiled) {
        const std::size_t L = p.extents.size();
        std::string staged;
        for (std::size_t k : moving_operands(p))
            if (k != 0 && p.operands[k].strides[L - 1] != 1)
                staged += (staged.empty() ? "" : ", ") + n.names[k] + " (stride "
                          + std::to_string(p.operands[k].strides[L - 1]) + ")";
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
        if (p.reduction == reduce_kernel::two_rows)
            s += ", two rows per pass";
        if (p.reduction == reduce_kernel::rescaled_rows)
            s += ", rows in blocks of " + std::to_string(rescaled_block_rows);
    }
    return s;
}

// What computes the plan's vectorised math functions: "exp, sin by SLEEF (avx2, 1 ulp)", "sqrt
// by SIMD sqrt (exact)" (std::sqrt's bits: the instruction rounds correctly), under
// FUSOR_FAST_MATH "sin by SLEEF (avx2, 3.5 ulp)" for the faster forms, joined by "; ", and
// whether each register is computed whole with the functions' arguments (math_in_registers).
inline std::string vector_math_text(const loop_plan& p) {
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

// What computes logsumexp's float64 exp in its block kernels (exec/rescaled_blocks.hpp).
inline std::string exp_engine() {
    const std::string isa(exec::vector_math_isa);
    return isa.empty() ? "the C library" : "SLEEF (" + isa + ", 1 ulp)";
}

inline std::string vector_text(const loop_plan& p) {
    if (p.reduction == reduce_kernel::gemm)
        return "the BLAS's own kernels";
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
        return "the rows of each tile, compiler-vectorised (" + std::string(target.name) + ", "
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
    if (p.vector_functions.empty())
        return s + " (compiler-vectorised)";
    return s + "; " + vector_math_text(p);
}

inline std::string threads_text(const loop_plan& p) {
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

inline void print_nest(text_builder& os, const loop_plan& p, const plan_notes& n) {
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

inline void print_loop(text_builder& os,
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
    os << "    kernel:  " << kernel_text(p, n) << '\n';
    os << "    vectors: " << vector_text(p) << '\n';
    os << "    threads: " << threads_text(p) << '\n';
}

// ---- cost --------------------------------------------------------------------------------

// A duration in nanoseconds with three significant digits and a unit: `850 ns`, `12.3 us`.
inline std::string duration_text(double ns) {
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

inline void print_cost(text_builder& os, const cost_estimate& c) {
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

inline std::string text_of(const loop_plan& p, const plan_notes& n, bool cached) {
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

// ---- JSON --------------------------------------------------------------------------------

// A finite double as a JSON number, six significant digits.
inline std::string json_number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

inline std::string json_string(const std::string& s) {
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

inline std::string json_ints(const std::vector<index_t>& v) {
    std::string s = "[";
    for (std::size_t k = 0; k < v.size(); ++k)
        s += (k ? "," : "") + std::to_string(v[k]);
    return s + "]";
}
inline std::string json_ints(const shape_t& v) {
    return json_ints(std::vector<index_t>(v.begin(), v.end()));
}

inline const char* kind_name(node_kind k) {
    switch (k) {
    case node_kind::operation:
        return "operation";
    case node_kind::reduction:
        return "reduction";
    case node_kind::view:
        return "view";
    case node_kind::tensor:
        return "tensor";
    case node_kind::scalar:
        return "scalar";
    case node_kind::temporary:
        return "temporary";
    }
    return "?";
}

inline const char* role_name(operand_plan::role r) {
    switch (r) {
    case operand_plan::role::destination:
        return "destination";
    case operand_plan::role::tensor:
        return "tensor";
    case operand_plan::role::view:
        return "view";
    case operand_plan::role::scalar:
        return "scalar";
    case operand_plan::role::temporary:
        return "temporary";
    case operand_plan::role::index:
        return "index";
    }
    return "?";
}

// Node i of p's tree (and its subtree) as a JSON object; `i` ends past the subtree.
inline std::string json_node(const loop_plan& p,
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

inline std::string json_traffic(const traffic& t) {
    return "{\"loops\":" + std::to_string(t.loops)
           + ",\"temporaries\":" + std::to_string(t.temporaries) + ",\"temporary_bytes\":"
           + std::to_string(t.temporary_bytes) + ",\"bytes_read\":" + std::to_string(t.bytes_read)
           + ",\"bytes_written\":" + std::to_string(t.bytes_written) + ",\"compute_ns\":"
           + json_number(t.compute_ns) + ",\"estimated_ns\":" + json_number(t.estimated_ns()) + "}";
}

inline std::string json_loop(const loop_ref& ref, std::size_t number) {
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
         + ",\"accumulator\":"
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
         + ",\"flat_rows\":" + (p.flat_rows ? "true" : "false") + ",\"flat_reduction\":"
         + (p.flat_reduction ? "true" : "false") + ",\"runs\":" + json_string(runs_of(p));
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

inline std::string json_of(const loop_plan& p, const plan_notes& n, bool cached) {
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

/// What `explain(e)` returns: the plan that evaluating `e` runs, printable as text or JSON.
struct explanation {
    loop_plan plan;   ///< the plan the evaluation runs
    plan_notes notes; ///< names and tree lines recorded beside it, for display only
    explain_format format = explain_format::text;
    /// `explain(dest, e)`: this thread's plan cache holds this plan, or its row-block cache these
    /// row blocks (the last evaluation of the same expression type had the same operands and
    /// destination layout), so the assignment would reuse them without planning.
    bool cached = false;

    /// The text form, three parts (docs/explain.md shows each on a real example):
    /// `tree:` every node's operation, dtype and shape; a leaf's strides over its loop's
    /// iteration space (0 where broadcast) and base offset; a temporary's loop. `plan:` every
    /// loop in the order it runs (boundaries first): what it writes, its iteration space, the
    /// loop nest after reordering and coalescing with each operand's stride per level, the
    /// body as pseudo-code, the inner kernel, the vector width and the thread split. `cost:`
    /// loops, temporaries and bytes read and written, fused against eager.
    std::string text() const {
        if (rows.applies)
            return row_blocks_text();
        return segments.sources.empty() ? detail::text_of(plan, notes, cached) : segments_text();
    }
    /// The JSON form: `{"format": "fusor.explain/1", "tree": {...}, "loops": [...],
    /// "cost": {"fused": {...}, "eager": {...}}}`, one line, every field of the text form.
    /// With segments: `{"format": "fusor.explain/1", "segments": {"sources": [...], "by_cells":
    /// ..., "why_whole": ..., "space": [...], "cells": [{"start", "extents", "segment",
    /// "plan": <a cell's JSON>}]}, "plan": <the whole plan's JSON, when filled whole>}`.
    /// By row blocks: `{"format": "fusor.explain/1", "row_blocks": {"rows", "block_rows",
    /// "blocks", "threads", "cached", "stored": {"what", "dtype", "shape", "inside", "outside"},
    /// "store": <a block's store JSON>, "block": <a block's expression JSON>, and when the last
    /// block is shorter "store_tail" and "block_tail": its two}}`.
    std::string json() const {
        if (rows.applies)
            return row_blocks_json();
        return segments.sources.empty() ? detail::json_of(plan, notes, cached) : segments_json();
    }
    /// The bytes fused and eager evaluation move (the `cost:` part). For a tree evaluated by
    /// cells: the sum over the cells.
    cost_estimate cost() const {
        if (rows.applies)
            return row_blocks_cost();
        if (segments.fills_destination)
            return {}; // copy loops only: not estimated
        if (!segments.by_cells || segments.sources.empty())
            return estimate_cost(plan, notes);
        cost_estimate sum{};
        for (const explanation& c : cells)
            add_cost(sum, c.cost(), 1);
        return sum;
    }

    /// A tree holding lazy `roll`, `pad`, `concatenate`, `stack` ... (segmented nodes): how
    /// the evaluation runs it (plan/segment_cells.hpp), the one decision exec follows. Empty
    /// `sources` for any other tree.
    segment_cells segments;
    /// When `segments.by_cells`: one explanation per cell, in the order they run (the tree
    /// restricted to the cell, into that box of the destination); `plan` is then unused. When
    /// the segmented nodes are filled whole first, `plan` is the plan over the filled tensors.
    std::vector<explanation> cells;

    /// How the evaluation runs by blocks of rows, storing a shared sub-expression once per block
    /// (plan/row_blocks.hpp: compute_at); `applies` false for any other tree. When it applies,
    /// its plans (and `row_notes`) are what runs and `plan` is unused.
    row_blocks rows;
    row_block_notes row_notes;

private:
    static void add_cost(cost_estimate& sum, const cost_estimate& k, index_t times) {
        for (auto [to, from] : {std::pair{&sum.fused, &k.fused}, std::pair{&sum.eager, &k.eager}}) {
            to->loops += from->loops * times;
            to->temporaries += from->temporaries * times;
            to->temporary_bytes += from->temporary_bytes * times;
            to->bytes_read += from->bytes_read * times;
            to->bytes_written += from->bytes_written * times;
        }
    }
    // Every block's store and expression loops. The buffer counts as a temporary per block.
    cost_estimate row_blocks_cost() const {
        cost_estimate sum{};
        const index_t full = rows.rows / rows.block_rows;
        add_cost(sum, estimate_cost(rows.store, row_notes.store), full);
        add_cost(sum, estimate_cost(rows.block, row_notes.block), full);
        if (rows.tail_rows() > 0) {
            add_cost(sum, estimate_cost(rows.store_tail, row_notes.store_tail), 1);
            add_cost(sum, estimate_cost(rows.block_tail, row_notes.block_tail), 1);
        }
        return sum;
    }
    std::string stored_what() const {
        return row_notes.store.tree.empty() ? std::string("?") : row_notes.store.tree[0].what;
    }
    std::string row_blocks_text() const {
        const std::string of = " block of " + detail::plural(rows.block_rows, "row", "rows");
        // Four lines, each within explain's 100 columns for shapes of a few axes.
        std::string t = "fusor::explain: by row blocks (compute_at), on "
                        + detail::plural(rows.threads, "thread", "threads")
                        + "\n  rows: " + std::to_string(rows.rows) + " in "
                        + detail::plural(rows.blocks, "block", "blocks") + " of "
                        + std::to_string(rows.block_rows);
        if (rows.tail_rows() > 0)
            t += " (the last of " + std::to_string(rows.tail_rows()) + ")";
        t += "\n  each block stores " + stored_what() + " " + to_string(rows.stored_shape) + " "
             + std::string(rows.stored_dtype) + " once in a buffer (read "
             + std::to_string(rows.stored_inside) + "x inside a reduction,\n  "
             + std::to_string(rows.stored_outside) + "x outside: computed once instead of "
             + std::to_string(rows.stored_inside + rows.stored_outside)
             + " times), then runs the expression over its rows\n";
        if (cached)
            t += "plan cache: the last evaluation of this expression on this thread had the same "
                 "operands\n  and destination layout; the assignment reuses these blocks and "
                 "plans\n";
        t += "store, a" + of + ":\n" + detail::text_of(rows.store, row_notes.store, false);
        t += "expression, a" + of + ":\n" + detail::text_of(rows.block, row_notes.block, false);
        return t;
    }
    std::string row_blocks_json() const {
        auto strip = [](std::string s) {
            while (!s.empty() && s.back() == '\n')
                s.pop_back();
            return s;
        };
        std::string shape = "[";
        for (std::size_t i = 0; i < rows.stored_shape.size(); ++i)
            shape += (i ? "," : "") + std::to_string(rows.stored_shape[i]);
        shape += "]";
        std::string tail;
        if (rows.tail_rows() > 0)
            tail = ",\"store_tail\":"
                   + strip(detail::json_of(rows.store_tail, row_notes.store_tail, false))
                   + ",\"block_tail\":"
                   + strip(detail::json_of(rows.block_tail, row_notes.block_tail, false));
        return "{\"format\":\"fusor.explain/1\",\"row_blocks\":{\"rows\":"
               + std::to_string(rows.rows) + ",\"block_rows\":" + std::to_string(rows.block_rows)
               + ",\"blocks\":" + std::to_string(rows.blocks) + ",\"threads\":"
               + std::to_string(rows.threads) + ",\"cached\":" + (cached ? "true" : "false")
               + ",\"stored\":{\"what\":" + detail::json_string(stored_what()) + ",\"dtype\":\""
               + std::string(rows.stored_dtype) + "\",\"shape\":" + shape
               + ",\"inside\":" + std::to_string(rows.stored_inside)
               + ",\"outside\":" + std::to_string(rows.stored_outside) + "},\"store\":"
               + strip(detail::json_of(rows.store, row_notes.store, false)) + ",\"block\":"
               + strip(detail::json_of(rows.block, row_notes.block, false)) + tail + "}}\n";
    }

    std::string segments_text() const {
        std::string t = "fusor::explain: segmented operands";
        for (const segment_source& s : segments.sources)
            t += std::string(&s == &segments.sources.front() ? ": " : "; ") + s.what + " "
                 + to_string(s.shape) + " " + s.dtype + " in "
                 + detail::plural(static_cast<index_t>(s.starts.size()), "segment", "segments");
        t += '\n';
        if (segments.fills_destination)
            return t
                   + "  filled directly: one copy loop per segment into the destination,\n  viewed "
                     "as "
                   + to_string(segments.space) + "\n";
        if (!segments.by_cells) {
            // Two lines, each within explain's 100 columns.
            t += "  filled whole first: " + segments.why_whole
                 + "\n  one copy loop per segment into a temporary, read by the plan below\n";
            return t + detail::text_of(plan, notes, cached);
        }
        t += "  by cells: the destination " + to_string(segments.space) + " is cut into "
             + detail::plural(static_cast<index_t>(segments.cells.size()), "cell", "cells")
             + " at the segments' edges; each runs the\n  expression once, every segmented operand "
               "read as the view that fills the cell, no temporary\n";
        for (std::size_t k = 0; k < cells.size(); ++k) {
            const segment_cell& c = segments.cells[k];
            t += "cell " + std::to_string(k + 1) + " of " + std::to_string(cells.size())
                 + ": start " + to_string(c.start) + ", extents " + to_string(c.extents)
                 + ", reads segment";
            for (std::size_t i = 0; i < c.segment.size(); ++i)
                t += (i ? ", " : " ") + std::to_string(c.segment[i] + 1) + " of "
                     + segments.sources[i].what;
            t += '\n' + cells[k].text();
        }
        return t;
    }
    std::string segments_json() const {
        auto ints = [](const auto& v) {
            std::string s = "[";
            for (std::size_t i = 0; i < v.size(); ++i)
                s += (i ? "," : "") + std::to_string(v[i]);
            return s + "]";
        };
        auto strip = [](std::string s) {
            while (!s.empty() && s.back() == '\n')
                s.pop_back();
            return s;
        };
        std::string j = "{\"format\":\"fusor.explain/1\",\"segments\":{\"sources\":[";
        for (std::size_t i = 0; i < segments.sources.size(); ++i) {
            const segment_source& s = segments.sources[i];
            j += std::string(i ? "," : "") + "{\"what\":\"" + s.what + "\",\"dtype\":\"" + s.dtype
                 + "\",\"shape\":" + ints(s.shape)
                 + ",\"segments\":" + std::to_string(s.starts.size()) + "}";
        }
        j += std::string("],\"fills_destination\":")
             + (segments.fills_destination ? "true" : "false")
             + ",\"by_cells\":" + (segments.by_cells ? "true" : "false")
             + ",\"why_whole\":" + detail::json_string(segments.why_whole)
             + ",\"space\":" + ints(segments.space) + ",\"cells\":[";
        for (std::size_t k = 0; k < cells.size(); ++k) {
            const segment_cell& c = segments.cells[k];
            j += std::string(k ? "," : "") + "{\"start\":" + ints(c.start)
                 + ",\"extents\":" + ints(c.extents) + ",\"segment\":" + ints(c.segment)
                 + ",\"plan\":" + strip(cells[k].json()) + "}";
        }
        j += "]}";
        if (!segments.by_cells && !segments.fills_destination)
            j += ",\"plan\":" + strip(detail::json_of(plan, notes, cached));
        return j + "}\n";
    }

public:
    /// Prints `text()` or `json()`, as `format` says.
    friend std::ostream& operator<<(std::ostream& os, const explanation& e) {
        return os << (e.format == explain_format::json ? e.json() : e.text());
    }
};

namespace detail {
// The explanation of a tree holding segmented nodes, from the plan exec/segmented_eval.hpp runs:
// one plan per cell (the cell's tree into its box of `d`), or the plan over the filled nodes.
// A destination that overlaps what the tree reads is not shown as the temporary and copy that
// evaluation adds.
template <class N>
void explain_segments(explanation& x, const N& n, const destination_layout& d) {
    x.segments = plan_segment_cells(n, d.shape, is_row_major(d.shape, d.strides));
    if (x.segments.fills_destination)
        return;
    if constexpr (planning::cell_root<N>()) {
        if (x.segments.by_cells) {
            for (const segment_cell& c : x.segments.cells) {
                const auto [start, extents] = cell_box(n, c);
                index_t offset = 0;
                for (std::size_t k = 0; k < start.size(); ++k)
                    offset += start[k] * d.strides[k];
                const char* at = static_cast<const char*>(d.address);
                explanation cell;
                cell.format = x.format;
                const destination_layout box{extents,
                                             d.strides,
                                             at ? at + offset * d.itemsize : nullptr,
                                             d.dtype,
                                             d.itemsize};
                cell.plan = make_plan(lower_to_cell(n, x.segments, c), box, cell.notes);
                x.cells.push_back(std::move(cell));
            }
            return;
        }
    }
    x.plan = make_plan(traverse(n, segment_filler{{}, true}), d, x.notes);
}
} // namespace detail

/// `explain(e)`: the expression tree of `e`, the fused loops that evaluating it into a fresh
/// tensor runs and what they cost, generated from the same `loop_plan` the evaluator executes
/// (see `explanation::text`). Nothing is computed. `format` picks what `operator<<` prints.
/// Example: `std::cout << fusor::explain(a * b + 2.0);`
template <class E>
    requires expression<E> explanation explain(const E& e,
                                               explain_format format = explain_format::text) {
        detail::check_lifetimes(e);
        const auto& n = detail::operand_for<value_type_t<E>>(e);
        explanation x;
        const destination_layout d = contiguous_destination<value_type_t<E>>(n.shape());
        using N = std::remove_cvref_t<decltype(n)>;
        if constexpr (planning::holds_segmented<N>()) {
            detail::explain_segments(x, n, d);
        } else {
            if constexpr (planning::row_block_candidate<N>())
                x.rows = plan_row_blocks(
                    n,
                    destination_ref{d.shape, d.strides, d.address, d.dtype, d.itemsize},
                    &x.row_notes);
            if (!x.rows.applies)
                x.plan = make_plan(n, d, x.notes);
        }
        x.format = format;
        return x;
    }

/// `explain(dest, e)`: the plan of the assignment `dest = e` into an existing tensor or view
/// (`e` must broadcast to `dest`'s shape). Unlike `explain(e)` it knows where the loop writes, so
/// it shows the aliasing copy: when `dest` overlaps memory that `e` reads other than
/// element-for-element (`a = transpose(a) + a`), the right side is a materialised temporary
/// computed first and the last loop copies it. Nothing is computed or written. Throws
/// `broadcast_error` when `e` does not broadcast to `dest`.
template <class D, class E>
    requires expression<E> explanation explain(const tensor_view<D>& dest,
                                               const E& e,
                                               explain_format format = explain_format::text) {
        using V = std::remove_const_t<D>;
        detail::check_lifetimes(e);
        detail::check_lifetimes(dest);
        if (!broadcasts_to(e.shape(), dest.shape(), true))
            throw broadcast_error("could not broadcast input array from shape "
                                  + to_compact_string(e.shape()) + " into shape "
                                  + to_compact_string(dest.shape()));
        const auto& n = detail::operand_for<value_type_t<E>>(e);
        explanation x;
        const destination_layout d{
            dest.shape(), dest.strides(), dest.data(), dtype_name<V>(), sizeof(V)};
        x.format = format;
        using N = std::remove_cvref_t<decltype(n)>;
        if constexpr (planning::holds_segmented<N>()) {
            detail::explain_segments(x, n, d);
            return x;
        }
        if constexpr (planning::row_block_candidate<N>()) {
            const destination_ref r{d.shape, d.strides, d.address, d.dtype, d.itemsize};
            x.rows = plan_row_blocks(n, r, &x.row_notes);
            if (x.rows.applies) {
                x.cached = planning::row_blocks_are_cached(n, r);
                return x;
            }
        }
        x.plan = make_plan(n, d, x.notes);
        // The flat, row-broadcast and flat-reduction cases are planned afresh every time (it
        // costs less than a cache look-up).
        if (!x.plan.flat && !x.plan.flat_rows && !x.plan.flat_reduction)
            x.cached = planning::plan_is_cached(
                n, destination_ref{d.shape, d.strides, d.address, d.dtype, d.itemsize});
        return x;
    }
/// `explain(dest, e)` for a tensor destination, as above.
template <class T, class E>
    requires expression<E> explanation explain(tensor<T>& dest,
                                               const E& e,
                                               explain_format format = explain_format::text) {
        return explain(dest.view(), e, format);
    }

} // namespace fusor
