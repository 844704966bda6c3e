// fusor/explain/explain.hpp: SHOW. Renders the same loop_plan that exec/ runs: the expression
// tree, every materialisation boundary with its own loops, and the fused loop nest as the
// pseudo-code a person would write for it.
#pragma once

#include <algorithm>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <fusor/core/broadcast.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/plan/make_plan.hpp>

namespace fusor {

namespace detail {
inline std::string pad(std::string s, std::size_t width) {
    if (s.size() < width)
        s.append(width - s.size(), ' ');
    return s;
}

// The loop body as infix pseudo-code, rebuilt from the tree lines: `*t0 * *t1 + 2`.
inline std::string formula(const loop_plan& p, std::size_t& i) {
    const tree_line& l = p.tree[i++];
    std::vector<std::string> args;
    while (i < p.tree.size() && p.tree[i].depth > l.depth)
        args.push_back(formula(p, i));
    if (l.operand >= 0) {
        const auto& o = p.operands[static_cast<std::size_t>(l.operand)];
        return o.kind == operand_plan::role::scalar ? o.name : "*" + o.name;
    }
    if (args.size() == 1 && l.what.find('(') != std::string::npos && l.depth > 0)
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

inline std::string body_of(const loop_plan& p) {
    std::size_t i = 0;
    if (p.reducer.empty()) {
        std::string f = formula(p, i);
        if (f.size() > 2 && f.front() == '(' && f.back() == ')')
            f = f.substr(1, f.size() - 2);
        return "*" + p.operands[0].name + " = " + f;
    }
    i = 1; // the reduction's own line; its child is the formula
    const std::string f = i < p.tree.size() ? formula(p, i) : "";
    const bool arg = p.operands.back().kind == operand_plan::role::index;
    return "*" + p.operands[0].name + " = " + p.reducer + "_step(*" + p.operands[0].name + ", " + f
           + (arg ? ", *idx" : "") + ")";
}

inline void print_tree(std::ostream& os, const loop_plan& p, const std::string& indent) {
    for (const tree_line& l : p.tree) {
        std::string what = std::string(static_cast<std::size_t>(2 * l.depth), ' ') + l.what;
        std::string detail;
        if (l.operand >= 0) {
            const auto& o = p.operands[static_cast<std::size_t>(l.operand)];
            if (o.kind != operand_plan::role::scalar && o.kind != operand_plan::role::temporary)
                detail = "  strides " + to_string(o.iter_strides) + " offset "
                         + std::to_string(o.offset);
            else if (o.kind == operand_plan::role::temporary)
                detail = "  strides " + to_string(o.iter_strides);
        }
        std::string row = indent + pad(what, 44) + ' ' + pad(l.dtype, 8) + ' '
                          + pad(to_string(l.shape), 16) + detail;
        row.erase(row.find_last_not_of(' ') + 1);
        os << row << '\n';
    }
}

inline void print_loops(std::ostream& os, const loop_plan& p, const std::string& indent) {
    os << indent << "loops over " << to_string(p.iter_shape);
    if (!p.reducer.empty())
        os << ", " << p.reducer << " over axes " << to_string(p.reduced_axes) << " ("
           << p.reduce_count << " elements each)";
    if (p.alias_copy)
        os << ", into a temporary first: the destination overlaps an operand";
    os << '\n';
    if (p.empty) {
        os << indent << "  (empty: an extent is 0, the body never runs)\n";
        return;
    }
    // Operands that move: everything but scalars.
    std::vector<std::size_t> moving;
    for (std::size_t k = 0; k < p.operands.size(); ++k)
        if (p.operands[k].kind != operand_plan::role::scalar)
            moving.push_back(k);
    const std::size_t levels = p.extents.size();
    std::vector<std::string> heads, steps, notes;
    for (std::size_t L = 0; L < levels; ++L) {
        heads.push_back(std::string(2 * L, ' ') + "for i" + std::to_string(L) + " in [0, "
                        + std::to_string(p.extents[L]) + "):");
        std::string st;
        for (std::size_t k : moving) {
            const index_t s = p.operands[k].strides[L];
            st += pad(p.operands[k].name + "+=" + std::to_string(s), 10) + ' ';
        }
        steps.push_back(st);
        std::string note = "axes " + to_string(p.loop_axes[L]);
        if (!p.reducer.empty() && p.operands[0].strides[L] == 0)
            note += " reduced";
        for (std::size_t k : moving)
            if (p.operands[k].kind != operand_plan::role::index && p.operands[k].strides[L] == 0
                && !(k == 0 && !p.reducer.empty()))
                note += ", " + p.operands[k].name + " broadcast";
        if (L + 1 == levels) {
            note += "; inner kernel: ";
            note += p.kernel == inner_kernel::contiguous ? "contiguous" : "strided";
            if (!p.reducer.empty())
                note += p.operands[0].strides[L] == 0 ? ", register accumulator"
                                                      : ", row of accumulators";
        }
        notes.push_back(note);
    }
    std::size_t w = 0;
    for (const auto& h : heads)
        w = std::max(w, h.size());
    for (std::size_t L = 0; L < levels; ++L)
        os << indent << "  " << pad(heads[L], w) << "  " << steps[L] << "# " << notes[L] << '\n';
    os << indent << "  " << std::string(2 * levels, ' ') << body_of(p) << '\n';
    if (!p.reducer.empty())
        os << indent << "  then " << p.operands[0].name << " = " << p.reducer
           << "_finalize(accumulators)\n";
}

inline void print_plan(std::ostream& os, const loop_plan& p, const std::string& indent) {
    for (const boundary_plan& b : p.boundaries) {
        if (b.reused) {
            os << indent << "reuse " << b.name << ": " << b.dtype << ' ' << to_string(b.shape)
               << " (the same " << (b.plan->reducer.empty() ? b.why : b.plan->reducer)
               << ", materialised above: not recomputed)\n";
            continue;
        }
        os << indent << "materialise " << b.name << ": " << b.dtype << ' ' << to_string(b.shape)
           << ", " << b.bytes << " bytes (" << b.why << "), computed once before the loop that "
           << "reads it\n";
        print_plan(os, *b.plan, indent + "  ");
    }
    os << indent << "tree:\n";
    print_tree(os, p, indent + "  ");
    print_loops(os, p, indent);
}
} // namespace detail

/// What `explain(e)` returns: the plan that evaluating `e` into a fresh tensor runs, printable.
struct explanation {
    loop_plan plan;

    /// The text form: for each materialisation boundary (computed first) and then for the main
    /// loop, the expression tree (operation, dtype, shape; each leaf's strides over the
    /// iteration space, 0 where broadcast, and base offset) and the loop nest after reordering
    /// and coalescing (each level's extent and every operand's stride in elements, which
    /// iteration axes it covers, the inner kernel) and the loop body as pseudo-code.
    std::string text() const {
        std::ostringstream os;
        os << "fusor::explain: " << count_loops(plan) << " fused loop(s), "
           << count_boundaries(plan) << " materialised temporar"
           << (count_boundaries(plan) == 1 ? "y" : "ies") << '\n';
        detail::print_plan(os, plan, "");
        return os.str();
    }
    friend std::ostream& operator<<(std::ostream& os, const explanation& e) {
        return os << e.text();
    }

private:
    static std::size_t count_boundaries(const loop_plan& p) {
        std::size_t n = 0;
        for (const auto& b : p.boundaries)
            if (!b.reused)
                n += 1 + count_boundaries(*b.plan);
        return n;
    }
    static std::size_t count_loops(const loop_plan& p) { return 1 + count_boundaries(p); }
};

/// `explain(e)`: the expression tree of `e` and the fused loop nest that evaluating it runs,
/// generated from the same `loop_plan` the evaluator executes (see `explanation::text`).
/// Nothing is computed. Example: `std::cout << fusor::explain(a * b + 2.0);`
template <class E>
    requires expression<E> explanation explain(const E& e) {
        auto n = as_node(e);
        return {make_plan(n, contiguous_destination<typename decltype(n)::value_type>(n.shape()))};
    }

/// `explain(dest, e)`: the plan of the assignment `dest = e` into an existing tensor or view
/// (`e` must broadcast to `dest`'s shape). Unlike `explain(e)` it knows where the loop writes, so
/// it shows the aliasing copy: when `dest` overlaps memory that `e` reads other than
/// element-for-element (`a = transpose(a) + a`), the plan says the expression is evaluated into
/// a temporary first. Nothing is computed or written. Throws `broadcast_error` when `e` does not
/// broadcast to `dest`.
template <class D, class E>
    requires expression<E> explanation explain(const tensor_view<D>& dest, const E& e) {
        using V = std::remove_const_t<D>;
        if (!broadcasts_to(e.shape(), dest.shape(), true))
            throw broadcast_error("could not broadcast input array from shape "
                                  + to_compact_string(e.shape()) + " into shape "
                                  + to_compact_string(dest.shape()));
        return {make_plan(as_node(e),
                          destination_layout{dest.shape(),
                                             dest.strides(),
                                             dest.data(),
                                             std::string(dtype_name<V>()),
                                             "out",
                                             sizeof(V)})};
    }
/// `explain(dest, e)` for a tensor destination, as above.
template <class T, class E>
    requires expression<E> explanation explain(tensor<T>& dest, const E& e) {
        return explain(dest.view(), e);
    }

} // namespace fusor
