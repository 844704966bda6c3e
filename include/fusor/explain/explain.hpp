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

#include <fusor/config.hpp>
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
FUSOR_DECL std::string pad(std::string s, std::size_t width);

FUSOR_DECL std::string plural(index_t n, const char* one, const char* many);

/// One loop of an evaluation, in the order the loops run: each boundary's loops come before
/// the loop that reads its temporary; the main loop (boundary == nullptr) comes last. `notes`:
/// what the planner recorded for explain beside that loop (tree lines, operand names).
struct loop_ref {
    const loop_plan* plan;
    const boundary_plan* boundary;
    const plan_notes* notes;
};

FUSOR_DECL void collect_loops(const loop_plan& p,
                              const plan_notes& n,
                              const boundary_plan* b,
                              std::vector<loop_ref>& out);

// The number (1-based, in running order) of the loop that computes temporary `temporary`.
FUSOR_DECL std::size_t loop_number(const std::vector<loop_ref>& loops, int temporary);

// Why a boundary is materialised, in words: `reduction result`, `reshape copy of (2, 3) into
// (6,)`, `aliasing copy: out overlaps t0` (names from the boundary loop's notes `sub`).
FUSOR_DECL std::string why_text(const boundary_plan& b, const plan_notes& sub);

// ---- tree --------------------------------------------------------------------------------

// Whether boundary `b`'s temporary line (`tmp1 = sum(axes=(0,))`, `tmp2 = sqrt`) already names
// the root of the loop computing it, so the boundary's own tree starts below that root.
FUSOR_DECL bool names_its_root(const boundary_plan& b);

struct tree_row {
    std::string what, dtype, shape, detail;
};

// The rows of `p`'s tree at `offset` extra depth; a boundary's own tree follows its temporary's
// row, one level deeper (the reduction's line is the temporary's: it is not repeated).
FUSOR_DECL void tree_rows(const loop_plan& p,
                          const plan_notes& n,
                          int offset,
                          bool skip_root,
                          const std::vector<loop_ref>& loops,
                          std::vector<tree_row>& rows);

FUSOR_DECL void print_tree(text_builder& os,
                           const loop_plan& p,
                           const plan_notes& n,
                           const std::vector<loop_ref>& loops);

// ---- plan --------------------------------------------------------------------------------

// The loop body as infix pseudo-code, rebuilt from the tree lines: `*t0 * *t1 + 2`.
FUSOR_DECL std::string formula(const loop_plan& p, const plan_notes& n, std::size_t& i);

FUSOR_DECL std::string body_of(const loop_plan& p, const plan_notes& n);

// Operands that move through memory (everything but scalars), in operand order.
FUSOR_DECL std::vector<std::size_t> moving_operands(const loop_plan& p);

FUSOR_DECL bool reduces_at(const loop_plan& p, std::size_t level);

// `t1` is broadcast at a level when it stands still there while the loop runs.
FUSOR_DECL bool broadcast_at(const loop_plan& p, std::size_t k, std::size_t level);

// The kernel the plan routes its loop to, by the name the evaluator's trace reports
// (FUSOR_TRACE_KERNEL in exec/execute.hpp): the JSON's `runs`.
FUSOR_DECL std::string runs_of(const loop_plan& p);

// The BLAS call of a matrix product (reduce_kernel::gemm): which routine, m x n x k, how each
// matrix is read, how many calls, where the result goes.
FUSOR_DECL std::string gemm_text(const loop_plan& p, const plan_notes& n);

// fusor's small matrix product (reduce_kernel::small_gemm): m x n x k, which operand is A, how
// many products.
FUSOR_DECL std::string small_gemm_text(const loop_plan& p, const plan_notes& n);

FUSOR_DECL std::string kernel_text(const loop_plan& p, const plan_notes& n);

// `text` as lines of at most `width` columns, broken at spaces; lines after the first start
// with `indent` spaces. Ends with a newline.
FUSOR_DECL std::string
wrapped(const std::string& text, std::size_t indent, std::size_t width = 100);

// What computes the plan's vectorised math functions: "exp, sin by SLEEF (avx2, 1 ulp)", "sqrt
// by SIMD sqrt (exact)" (std::sqrt's bits: the instruction rounds correctly), under
// FUSOR_FAST_MATH "sin by SLEEF (avx2, 3.5 ulp)" for the faster forms, joined by "; ", and
// whether each register is computed whole with the functions' arguments (math_in_registers).
FUSOR_DECL std::string vector_math_text(const loop_plan& p);

// What computes logsumexp's float64 exp in its block kernels (exec/rescaled_blocks.hpp).
FUSOR_DECL std::string exp_engine();

FUSOR_DECL std::string vector_text(const loop_plan& p);

FUSOR_DECL std::string threads_text(const loop_plan& p);

FUSOR_DECL void print_nest(text_builder& os, const loop_plan& p, const plan_notes& n);

FUSOR_DECL void print_loop(text_builder& os,
                           const loop_ref& ref,
                           std::size_t number,
                           const std::vector<loop_ref>& loops);

// ---- cost --------------------------------------------------------------------------------

// A duration in nanoseconds with three significant digits and a unit: `850 ns`, `12.3 us`.
FUSOR_DECL std::string duration_text(double ns);

FUSOR_DECL void print_cost(text_builder& os, const cost_estimate& c);

FUSOR_DECL std::string text_of(const loop_plan& p, const plan_notes& n, bool cached);

// ---- JSON --------------------------------------------------------------------------------

// A finite double as a JSON number, six significant digits.
FUSOR_DECL std::string json_number(double v);

FUSOR_DECL std::string json_string(const std::string& s);

FUSOR_DECL std::string json_ints(const std::vector<index_t>& v);
FUSOR_DECL std::string json_ints(const shape_t& v);

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
FUSOR_DECL std::string json_node(const loop_plan& p,
                                 const plan_notes& n,
                                 std::size_t& i,
                                 const std::vector<loop_ref>& loops);

FUSOR_DECL std::string json_traffic(const traffic& t);

FUSOR_DECL std::string json_loop(const loop_ref& ref, std::size_t number);

FUSOR_DECL std::string json_of(const loop_plan& p, const plan_notes& n, bool cached);
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
    FUSOR_LAZY std::string text() const {
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
    FUSOR_LAZY std::string json() const {
        if (rows.applies)
            return row_blocks_json();
        return segments.sources.empty() ? detail::json_of(plan, notes, cached) : segments_json();
    }
    /// The bytes fused and eager evaluation move (the `cost:` part). For a tree evaluated by
    /// cells: the sum over the cells.
    FUSOR_LAZY cost_estimate cost() const {
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
    FUSOR_LAZY static void add_cost(cost_estimate& sum, const cost_estimate& k, index_t times) {
        for (auto [to, from] : {std::pair{&sum.fused, &k.fused}, std::pair{&sum.eager, &k.eager}}) {
            to->loops += from->loops * times;
            to->temporaries += from->temporaries * times;
            to->temporary_bytes += from->temporary_bytes * times;
            to->bytes_read += from->bytes_read * times;
            to->bytes_written += from->bytes_written * times;
        }
    }
    // Every block's store and expression loops. The buffer counts as a temporary per block.
    FUSOR_LAZY cost_estimate row_blocks_cost() const {
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
    FUSOR_LAZY std::string stored_what() const {
        return row_notes.store.tree.empty() ? std::string("?") : row_notes.store.tree[0].what;
    }
    FUSOR_LAZY std::string row_blocks_text() const {
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
    FUSOR_LAZY std::string row_blocks_json() const {
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

    FUSOR_LAZY std::string segments_text() const {
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
    FUSOR_LAZY std::string segments_json() const {
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
    FUSOR_LAZY friend std::ostream& operator<<(std::ostream& os, const explanation& e) {
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
                                             d.itemsize,
                                             d.fresh};
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
        // The fresh tensor eval(e) would allocate (so no streaming stores: the loop touches
        // its pages first).
        destination_layout d = contiguous_destination<value_type_t<E>>(n.shape());
        d.fresh = true;
        using N = std::remove_cvref_t<decltype(n)>;
        if constexpr (planning::holds_segmented<N>()) {
            detail::explain_segments(x, n, d);
        } else {
            if constexpr (planning::row_block_candidate<N>())
                x.rows = plan_row_blocks(
                    n,
                    destination_ref{d.shape, d.strides, d.address, d.dtype, d.itemsize, d.fresh},
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
        // The flat, row-broadcast, flat-reduction and flat-product cases are planned afresh
        // every time (it costs less than a cache look-up).
        if (!x.plan.flat && !x.plan.flat_rows && !x.plan.flat_reduction && !x.plan.flat_product)
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

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/explain/explain.ipp>
#endif
