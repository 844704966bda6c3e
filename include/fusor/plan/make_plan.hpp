// fusor/plan/make_plan.hpp: PLAN. Reading this file is reading the planning algorithm:
//  1. the iteration space is the destination's shape (for a reduction, its operand's shape);
//  2. walk the tree top-down carrying an affine map from the iteration space to the current
//     node's index space; broadcasting zeroes the rows of stretched axes, views compose their
//     own map (so views of expressions cost nothing); at each leaf the map turns the leaf's
//     strides into strides over the iteration space (0 on broadcast axes);
//  3. a reduction below the root becomes a materialisation boundary with its own plan, and a
//     contiguous temporary leaf here; so does element-wise work over reductions and scalars
//     only (hoisting.hpp: computed once per result element, not once per element read);
//  4. order and coalesce the loops (coalesce.hpp).
#pragma once

#include <charconv>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/affine_map.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/traverse.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/expr/remap.hpp>
#include <fusor/expr/reshaped.hpp>
#include <fusor/plan/coalesce.hpp>
#include <fusor/plan/gemm.hpp>
#include <fusor/plan/hoisting.hpp>
#include <fusor/plan/kernel_choice.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/plan/split.hpp> // keep_beside_blas
#include <fusor/reduce/reduction.hpp>

namespace fusor {

/// Where a loop writes: shape, strides (elements), data address and dtype.
struct destination_layout {
    shape_t shape;
    strides_t strides;
    const void* address = nullptr;
    std::string_view dtype; ///< NumPy name (static storage)
    index_t itemsize = 0;
    /// A buffer allocated for this evaluation (eval, a new tensor): no page of it has been
    /// touched yet (planning::choose_stream_stores).
    bool fresh = false;
};

/// Where a loop writes, by reference: what the evaluator passes for an existing tensor or view
/// (nothing is copied; the flat case is decided from it directly).
struct destination_ref {
    const shape_t& shape;
    const strides_t& strides;
    const void* address = nullptr;
    std::string_view dtype;
    index_t itemsize = 0;
    bool fresh = false; ///< as destination_layout::fresh

    destination_layout layout() const { return {shape, strides, address, dtype, itemsize, fresh}; }
};

/// The layout of a fresh contiguous result of `shape`, elements of `dtype` (`itemsize` bytes).
FUSOR_DECL destination_layout contiguous_destination(std::string_view dtype,
                                                     index_t itemsize,
                                                     const shape_t& shape,
                                                     const void* address = nullptr);
/// The layout of a fresh contiguous result of `shape`, elements of type `T`.
template <class T>
destination_layout contiguous_destination(const shape_t& shape, const void* address = nullptr) {
    return contiguous_destination(dtype_name<T>(), sizeof(T), shape, address);
}

namespace planning {

// node index = m * iteration index + off, with m a (node rank × iteration rank) matrix. Inline
// storage up to rank 6: planning an expression allocates nothing.
struct index_transform {
    std::size_t rows = 0, cols = 0;
    boost::container::small_vector<index_t, 36> m;
    shape_t off;

    static index_transform identity(std::size_t n);
    // Leaf strides over the iteration space: Σ_k strides[k] * m[k][j]; base offset likewise.
    strides_t strides_of(const strides_t& st) const;
    index_t offset_of(const strides_t& st) const;
};

// A child of shape `child` broadcast into a parent of shape `parent`: axes align on the right;
// a stretched axis (child extent 1, parent extent > 1) and an extra leading child axis read
// index 0 always, a zero row.
FUSOR_DECL index_transform broadcast_into(const index_transform& t,
                                          const shape_t& parent,
                                          const shape_t& child);

// Through a view: child index = M * view index + off_M, view index = T x + off_T.
FUSOR_DECL index_transform through_view(const affine_map& v, const index_transform& t);

template <class T>
std::string scalar_text(T v) {
    if constexpr (std::is_same_v<T, bool>)
        return v ? "true" : "false";
    else {
        char buf[64];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        return std::string(buf, r.ptr);
    }
}

// One address per node type: what `loop_plan::expression` holds.
template <class N>
inline constexpr char node_type_id = 0;

// Two loops of one evaluation compute the same values when they evaluate the same node type
// over the same iteration space and reduction, with every operand the same (kind, type,
// address, strides over the iteration space, offset, scalar value, temporary): the second one
// reads the first's temporary. Node types fix the operations; views and reshapes are already
// in the operands' strides.
FUSOR_DECL bool same_loop(const loop_plan& a, const loop_plan& b);

// Explain's names, shared by a plan and its nested plans: the same tensor gets the same name.
struct naming {
    std::vector<const void*> tensors;
    std::string tensor_name(const void* address);
};

// What one evaluation's plans share: the temporaries materialised so far (so an equal loop
// reads one of them again) and, for explain only, the names.
struct evaluation_state {
    int temporaries = 0;
    std::vector<std::pair<const loop_plan*, int>> materialised; // loop, its temporary
    naming* names = nullptr;                                    // explain only
};

// Where one evaluation's walk stood before a loop was planned (plan_alias_copy and plan_reduction
// plan again from there).
struct walk_start {
    std::size_t tensors = 0;
    std::size_t materialised = 0;
    int temporaries = 0;
};

// Each fills `p`, a fresh plan (filled in place: a plan is a large value, not moved around).
template <class R, class C>
void plan_reduction(loop_plan& p,
                    const reduction<R, C>& r,
                    const destination_layout& d,
                    evaluation_state& state,
                    plan_notes* notes);
template <class E>
void plan_elementwise(loop_plan& p,
                      const E& e,
                      const destination_layout& d,
                      evaluation_state& state,
                      plan_notes* notes);

// The loop that computes `e` into `d`: a reduction's or an element-wise one.
template <class E>
void plan_subexpression(loop_plan& p,
                        const E& e,
                        const destination_layout& d,
                        evaluation_state& state,
                        plan_notes* notes) {
    if constexpr (tag_of<E> == node_tag::reduction) {
        if constexpr (one_term_reducer<typename E::reducer_type>) {
            // Nothing summed: each result element is its one term, so the loop is the
            // element-wise loop of the terms into the destination (any layout; aliasing as
            // for any element-wise loop), marked as such for exec/ and explain.
            if (e.axes.empty() && d.shape == e.shape()) {
                plan_elementwise(p, e.child, d, state, notes);
                p.reduction = reduce_kernel::single_term;
                return;
            }
        }
        plan_reduction(p, e, d, state, notes);
    } else {
        plan_elementwise(p, e, d, state, notes);
    }
}

// explain's label of a reduction node: `sum(axes=(1,))`, `max(all axes, keepdims)`. Not a
// template: compiled once, not once per reduction type.
FUSOR_DECL std::string
reduction_label(std::string_view name, bool flat, const shape_t& axes, bool keepdims);
template <class R, class C>
std::string reduction_label(const reduction<R, C>& r) {
    return reduction_label(R::name, r.flat, r.axes, r.keepdims);
}

FUSOR_DECL std::string temporary_name(int temporary);

// Whether reduction `n` into destination `d` is a flat reduction (is_flat_reduction, below, which
// fills `f`; false for a type that is not a flat_reduction_candidate, and while the test hook
// flat_plans_enabled is off): its plan is then marked loop_plan::flat_reduction before it is
// made, at the root (plan_root) and as a boundary (tree_walker::materialise, which keeps `f` in
// loop_plan::flat_runs for exec::evaluate_reduction).
template <class N>
bool flat_reduction_applies(const N& n, const destination_ref& d, flat_plan& f);

// The top-down walk. Operands are appended in depth-first, left-to-right order; exec/ builds
// its evaluators in the same order (exec/evaluator.hpp). With `notes`, the same walk also
// records the tree lines and operand names explain prints; without, it builds no string.
struct tree_walker {
    loop_plan& plan;
    evaluation_state& state;
    plan_notes* notes = nullptr;
    std::vector<const void*> seen_here = {}; // explain: leaves met in this loop (t0, t0' ...)
    /// The element-wise factors of the product at depth 1 (a reduction's child) become
    /// temporaries (plan_reduction, factor_gemm_candidate).
    bool factors_as_temporaries = false;

    // The same tensor read twice in one loop (e.g. through two views) gets primes, so every
    // operand of the loop has its own name.
    std::string leaf_name(const void* address);

    template <class N>
    FUSOR_FORWARD tree_line line_of(const N& n, int depth) const {
        using V = typename N::value_type;
        return make_line(dtype_name<V>(), sizeof(V), n.shape(), depth);
    }
    // line_of's work, for any node type.
    static tree_line
    make_line(std::string_view dtype, index_t itemsize, const shape_t& shape, int depth);

    void push_operand(operand_plan o, std::string name);

    // A materialisation boundary: plans the loop computing `n` into a contiguous temporary `d`
    // (or finds the same loop planned earlier in this evaluation: then its result is reused)
    // and records it. Returns the boundary's index.
    template <class N>
    std::size_t materialise(const N& n, const destination_layout& d, boundary_plan::reason why) {
        plan_notes sub_notes;
        auto sub = std::make_shared<loop_plan>();
        if constexpr (tag_of<N> == node_tag::reduction) // a reduction over a few short runs
            sub->flat_reduction = flat_reduction_applies(
                n, {d.shape, d.strides, d.address, d.dtype, d.itemsize}, sub->flat_runs);
        plan_subexpression(*sub, n, d, state, notes ? &sub_notes : nullptr);
        if (why == boundary_plan::reason::product_factor)
            keep_beside_blas(*sub); // OpenMP workers spinning after it would slow the product
        return add_boundary(std::move(sub), d, why, std::move(sub_notes));
    }

    // What materialise does after planning the subexpression: whether an equal loop was
    // planned earlier in this evaluation, the boundary, its notes. Not a template: compiled
    // once, not once per node type (docs/performance.md, "Compile time").
    FUSOR_LAZY std::size_t add_boundary(std::shared_ptr<loop_plan> sub,
                                        const destination_layout& d,
                                        boundary_plan::reason why,
                                        plan_notes sub_notes) {
        int temporary = -1;
        for (const auto& [earlier, number] : state.materialised)
            if (same_loop(*earlier, *sub))
                temporary = number;
        const bool reused = temporary >= 0;
        if (!reused) {
            temporary = state.temporaries++;
            state.materialised.emplace_back(sub.get(), temporary);
        }
        const index_t bytes = shape_size(d.shape) * d.itemsize;
        plan.boundaries.push_back(
            {why, temporary, d.dtype, d.shape, d.shape, bytes, std::move(sub), reused, {}});
        if (notes) {
            sub_notes.names[0] = temporary_name(temporary);
            notes->boundaries.push_back(std::move(sub_notes));
        }
        return plan.boundaries.size() - 1;
    }

    // The operand that reads boundary `b`'s temporary, contiguous in `shape`, through `t`.
    template <class N>
    void push_temporary(const N& n,
                        int depth,
                        const shape_t& shape,
                        const index_transform& t,
                        std::size_t b,
                        const std::string& what) {
        using V = typename N::value_type;
        push_temporary_operand(
            dtype_name<V>(), sizeof(V), notes ? line_of(n, depth) : tree_line{}, shape, t, b, what);
    }

    // push_temporary's work, for any element type (`line`: the node's tree line, read only
    // with notes). Not a template, as add_boundary.
    FUSOR_LAZY void push_temporary_operand(std::string_view dtype,
                                           index_t itemsize,
                                           tree_line line,
                                           const shape_t& shape,
                                           const index_transform& t,
                                           std::size_t b,
                                           const std::string& what) {
        operand_plan o;
        o.kind = operand_plan::role::temporary;
        o.dtype = dtype;
        o.shape = shape;
        const strides_t st = row_major_strides(shape);
        o.iter_strides = t.strides_of(st);
        o.offset = t.offset_of(st);
        o.base_offset = o.offset;
        o.itemsize = itemsize;
        o.temporary = plan.boundaries[b].temporary;
        plan.boundaries[b].read_shape = shape;
        if (notes) {
            line.kind = node_kind::temporary;
            line.what = temporary_name(o.temporary) + " = " + what;
            line.operand = static_cast<int>(plan.operands.size());
            line.boundary = static_cast<int>(b);
            notes->tree.push_back(std::move(line));
        }
        push_operand(std::move(o), notes ? temporary_name(plan.boundaries[b].temporary) : "");
    }

    // An operation's tree line (explain only). Not a template.
    void push_operation_line(tree_line line, std::string_view name, std::string_view symbol);

    template <class N>
    void visit(const N& n, const index_transform& t, int depth) {
        traverse(n, *this, t, depth);
    }

    template <class N>
    void on_leaf(const N& n, const index_transform& t, int depth) {
        using operand = operand_plan;
        using V = typename N::value_type;
        operand o;
        o.kind = n.is_view ? operand::role::view : operand::role::tensor;
        o.dtype = dtype_name<V>();
        o.shape = n.shape();
        o.iter_strides = t.strides_of(n.strides());
        o.offset = t.offset_of(n.strides());
        o.address = n.data;
        // Views of one tensor share its name (t0, t0', ...) and count offsets from its start.
        const auto* base = n.base ? n.base : n.data;
        o.base = base;
        o.base_offset = o.offset + static_cast<index_t>(n.data - base);
        o.itemsize = sizeof(V);
        std::string name;
        if (notes) {
            name = leaf_name(base);
            tree_line line = line_of(n, depth);
            line.kind = node_kind::tensor;
            line.what = name + " = "
                        + (!n.is_view ? "tensor"
                           : n.owner  ? "view (reshape copy)"
                                      : "view");
            line.operand = static_cast<int>(plan.operands.size());
            notes->tree.push_back(std::move(line));
        }
        push_operand(std::move(o), std::move(name));
    }

    template <class N>
    void on_scalar(const N& n, const index_transform& t, int depth) {
        using operand = operand_plan;
        using V = typename N::value_type;
        operand o;
        o.kind = operand::role::scalar;
        o.dtype = dtype_name<V>();
        o.iter_strides = strides_t(t.cols, 0);
        static_assert(sizeof(V) <= sizeof(o.scalar_bits));
        std::memcpy(&o.scalar_bits, &n.value, sizeof(V));
        std::string name;
        if (notes) {
            name = scalar_text(n.value);
            tree_line line = line_of(n, depth);
            line.kind = node_kind::scalar;
            line.what = "scalar " + name;
            line.operand = static_cast<int>(plan.operands.size());
            notes->tree.push_back(std::move(line));
        }
        push_operand(std::move(o), std::move(name));
    }

    template <class N>
    void on_reshaped(const N& n, const index_transform& t, int depth) {
        using V = typename N::value_type;
        if (n.split) { // an index remap, like any view
            if (notes) {
                tree_line line = line_of(n, depth);
                line.kind = node_kind::view;
                line.what = n.split->label.str();
                notes->tree.push_back(std::move(line));
            }
            visit(n.child, through_view(*n.split, t), depth + 1);
            return;
        }
        const std::size_t b = materialise(n.child,
                                          contiguous_destination<V>(n.child.shape()),
                                          boundary_plan::reason::reshape_copy);
        // The temporary is contiguous in the child's shape, hence in the new shape too.
        push_temporary(
            n, depth, n.shape(), t, b, notes ? "reshape(shape=" + to_string(n.shape()) + ")" : "");
    }

    template <class N>
    void on_remap(const N& n, const index_transform& t, int depth) {
        if (notes) {
            tree_line line = line_of(n, depth);
            line.kind = node_kind::view;
            line.what = n.map.label.str();
            notes->tree.push_back(std::move(line));
        }
        visit(n.child, through_view(n.map, t), depth + 1);
    }

    template <class N>
    void on_reduction(const N& n, const index_transform& t, int depth) {
        using V = typename N::value_type;
        // below the root: a boundary
        const std::size_t b =
            materialise(n, contiguous_destination<V>(n.shape()), boundary_plan::reason::reduction);
        push_temporary(n, depth, n.shape(), t, b, notes ? reduction_label(n) : "");
    }

    template <class N>
    void on_elementwise(const N& n, const index_transform& t, int depth) {
        using Op = typename N::op_type;
        if (notes) {
            std::string_view symbol;
            if constexpr (requires { Op::symbol; })
                symbol = Op::symbol;
            push_operation_line(line_of(n, depth), Op::name, symbol);
        }
        for_each_child(n, [&](const auto& c) FUSOR_FORWARD_LAMBDA {
            using C = std::remove_cvref_t<decltype(c)>;
            const index_transform ct = broadcast_into(t, n.shape(), c.shape());
            if constexpr (planning::hoisted<N, C>) {
                // Loop-invariant: computed once per element of its own shape (hoisting.hpp).
                using V = typename C::value_type;
                const std::size_t b = materialise(
                    c, contiguous_destination<V>(c.shape()), boundary_plan::reason::hoisted);
                push_temporary(
                    c, depth + 1, c.shape(), ct, b, notes ? std::string(C::op_type::name) : "");
            } else if constexpr (materialisable_factor<C>) {
                if (factors_as_temporaries && depth == 1)
                    materialise_factor(c, ct, depth + 1);
                else
                    visit(c, ct, depth + 1);
            } else {
                visit(c, ct, depth + 1);
            }
        });
    }

    // A product's element-wise factor `f` (a view of an expression) computed into a contiguous
    // temporary of the expression's shape, read through the view's map.
    template <class N>
    void materialise_factor(const N& f, const index_transform& t, int depth) {
        using E = std::remove_cvref_t<decltype(f.child)>;
        using V = typename E::value_type;
        if (notes) {
            tree_line line = line_of(f, depth);
            line.kind = node_kind::view;
            line.what = f.map.label.str();
            notes->tree.push_back(std::move(line));
        }
        const std::size_t b = materialise(f.child,
                                          contiguous_destination<V>(f.child.shape()),
                                          boundary_plan::reason::product_factor);
        push_temporary(f.child,
                       depth + 1,
                       f.child.shape(),
                       through_view(f.map, t),
                       b,
                       notes ? std::string(E::op_type::name) : "");
    }
};

FUSOR_DECL operand_plan destination_operand(const destination_layout& d, strides_t iter_strides);

// A reduction as the root of its loop: iterate over the operand's shape; the accumulator
// (operand 0, contiguous over the result) has stride 0 on every reduced axis; arg-reductions
// add an index operand whose strides count candidates (flat row-major, or along the axis).
// The start of a reduction's plan, whatever its type: the iteration space (the child's
// shape), the summed axes and count, and operand 0, the accumulators (one per result element,
// row-major, at stride 0 along the summed axes). Not a template: compiled once.
FUSOR_DECL void begin_reduction_plan(loop_plan& p,
                                     const shape_t& iter_shape,
                                     const shape_t& axes,
                                     index_t count,
                                     const destination_layout& d);

// A reduction's finalize loop: over the result, the destination at its strides, the
// accumulators row-major (one per result element, in row-major order). Not a template.
FUSOR_DECL std::shared_ptr<loop_plan> finalize_plan(const destination_layout& d);

// plan_reduction's walk and choices. With `factors_as_temporaries` (a factor_gemm_candidate),
// the product's element-wise factors become temporaries and the plan stands only if the BLAS
// then takes the product: false otherwise, `p`, `state` and `notes` then half-filled.
template <class R, class C>
bool plan_reduction_walk(loop_plan& p,
                         const reduction<R, C>& r,
                         const destination_layout& d,
                         evaluation_state& state,
                         plan_notes* notes,
                         bool factors_as_temporaries) {
    using N = reduction<R, C>;
    p.reducer = R::name;
    p.expression = &node_type_id<N>;
    begin_reduction_plan(p, r.child.shape(), r.axes, r.count(), d);
    tree_walker walker{p, state, notes};
    walker.factors_as_temporaries = factors_as_temporaries;
    if (notes) {
        notes->names.push_back("out");
        tree_line root = walker.line_of(r, 0);
        root.kind = node_kind::reduction;
        root.what = reduction_label(r);
        notes->tree.push_back(std::move(root));
    }
    walker.visit(r.child, index_transform::identity(p.iter_shape.size()), 1);
    if constexpr (N::impl::needs_index) {
        operand_plan idx;
        idx.kind = operand_plan::role::index;
        idx.dtype = "int64";
        idx.shape = p.iter_shape;
        idx.iter_strides = strides_t(p.iter_shape.size(), 0);
        if (r.flat)
            idx.iter_strides = row_major_strides(p.iter_shape);
        else if (!r.axes.empty())
            idx.iter_strides[static_cast<std::size_t>(r.axes[0])] = 1;
        walker.push_operand(std::move(idx), "idx");
    }
    order_and_coalesce(p);
    choose_reduction_kernel<R, C>(p, r.child);
    if constexpr (product_candidate<R, C>) { // a matrix product (plan/gemm.hpp)
        bool blas = false;
        if constexpr (gemm_candidate<R, C>)
            blas = choose_gemm(p, d); // the BLAS's
        if (!blas)
            choose_small_gemm(p); // fusor's, when too small for the BLAS
    } else if constexpr (factor_gemm_candidate<R, C>) {
        if (factors_as_temporaries && !choose_gemm(p, d))
            return false;
    }
    p.finalize = finalize_plan(d);
    return true;
}

template <class R, class C>
void plan_reduction(loop_plan& p,
                    const reduction<R, C>& r,
                    const destination_layout& d,
                    evaluation_state& state,
                    plan_notes* notes) {
    if constexpr (factor_gemm_candidate<R, C>) {
        // First as the BLAS's product of computed factors; when the BLAS does not take it (too
        // small, not of GEMM's layout, a streamed matrix-vector product), as one fused loop,
        // planned again from the same state (the same names and temporary numbers).
        const walk_start start{state.names ? state.names->tensors.size() : 0,
                               state.materialised.size(),
                               state.temporaries};
        if (plan_reduction_walk(p, r, d, state, notes, true))
            return;
        if (state.names)
            state.names->tensors.resize(start.tensors);
        state.materialised.resize(start.materialised);
        state.temporaries = start.temporaries;
        p = loop_plan{};
        if (notes)
            *notes = plan_notes{};
    }
    plan_reduction_walk(p, r, d, state, notes, false);
}

// Byte range [lo, hi) an operand touches over the iteration space.
FUSOR_DECL std::pair<const char*, const char*> byte_range(const operand_plan& o,
                                                          const shape_t& iter);

// NumPy's overlap rule: the result must be as if the right side were evaluated first. An
// operand that overlaps the destination forces a copy, unless it reads exactly the element
// being written (same address and strides: `c = c + 1` needs no copy, `c = transpose(c)` does).
// Returns the operands that force the copy, empty when none does.
FUSOR_DECL boost::container::small_vector<int, 4> destination_overlaps(const loop_plan& p);

// Plans a subexpression into a given destination, type-erased: what plan_alias_copy calls to
// plan the right side (a function pointer, so that plan_alias_copy is compiled once).
struct subplanner {
    const void* expression;
    void (*run)(const void* expression,
                loop_plan& sub,
                const destination_layout& d,
                evaluation_state& state,
                plan_notes* sub_notes);
};
template <class E>
void plan_subexpression_erased(const void* e,
                               loop_plan& sub,
                               const destination_layout& d,
                               evaluation_state& state,
                               plan_notes* sub_notes) {
    plan_subexpression(sub, *static_cast<const E*>(e), d, state, sub_notes);
}

// The destination overlaps what the right side reads (NumPy's overlap rule, destination_overlaps
// found `overlapping`): plan `p` again, from the same state (the same names and numbers, no
// false reuse), as the right side computed into the contiguous temporary `temp` (planned by
// `right`) and a loop copying it into `d` through `t`. `right_line`: the right side's tree
// line (read only with notes). `why`: the boundary's reason (also broadcast_result: a root whose
// result broadcasts into a larger `d`, plan_broadcast_root). Not a template: compiled once, not
// once per expression type.
FUSOR_DECL void plan_alias_copy(loop_plan& p,
                                const destination_layout& d,
                                const index_transform& t,
                                evaluation_state& state,
                                plan_notes* notes,
                                const walk_start& start,
                                boost::container::small_vector<int, 4> overlapping,
                                const destination_layout& temp,
                                tree_line right_line,
                                subplanner right,
                                boundary_plan::reason why = boundary_plan::reason::alias_copy);

// plan_elementwise before the walk: the loop's iteration space and destination operand. Not a
// template, as what follows the walk.
FUSOR_DECL walk_start begin_elementwise(loop_plan& p,
                                        const char* expression,
                                        const destination_layout& d,
                                        evaluation_state& state,
                                        plan_notes* notes);

// plan_elementwise after the walk (`t`: the expression's shape `shape` broadcast into `d`;
// `facts`: elementwise_facts_of its type; `right`: plans it alone, for the aliasing copy).
FUSOR_DECL void finish_elementwise(loop_plan& p,
                                   const destination_layout& d,
                                   const index_transform& t,
                                   evaluation_state& state,
                                   plan_notes* notes,
                                   const walk_start& start,
                                   const shape_t& shape,
                                   const elementwise_facts& facts,
                                   subplanner right);

// fill_flat_plan's work for a flat tree of `operands` operands (the destination included) with
// `facts`, at address `e`.
FUSOR_DECL void fill_flat_plan_of(loop_plan& p,
                                  const destination_ref& d,
                                  index_t operands,
                                  const elementwise_facts& facts,
                                  const void* e);

// plan_broadcast_result's work: the root (node type `expression`, elements of `dtype` and
// `itemsize` bytes, of `shape`, planned by `root`) computed into a contiguous temporary of its
// own shape, and a loop copying that into `d`, broadcast.
FUSOR_DECL void plan_broadcast_root(loop_plan& p,
                                    const char* expression,
                                    std::string_view dtype,
                                    index_t itemsize,
                                    const shape_t& shape,
                                    subplanner root,
                                    const destination_layout& d,
                                    evaluation_state& state,
                                    plan_notes* notes);

// An element-wise loop over `d.shape` with `e` broadcast into it. When the destination
// overlaps what `e` reads (NumPy's overlap rule), `e` becomes a boundary of its own, computed
// into a contiguous temporary, and this loop copies the temporary into the destination
// (plan_alias_copy). Only the walk depends on `E`.
template <class E>
void plan_elementwise(loop_plan& p,
                      const E& e,
                      const destination_layout& d,
                      evaluation_state& state,
                      plan_notes* notes) {
    const walk_start start = begin_elementwise(p, &node_type_id<E>, d, state, notes);
    const auto t = broadcast_into(index_transform::identity(d.shape.size()), d.shape, e.shape());
    tree_walker{p, state, notes}.visit(e, t, 0);
    finish_elementwise(p,
                       d,
                       t,
                       state,
                       notes,
                       start,
                       e.shape(),
                       elementwise_facts_of<E>,
                       subplanner{&e, &plan_subexpression_erased<E>});
}

/// Test hook: when false, the planner never takes the flat case, so tests can compare a flat
/// plan's results with the general walk's. Not for production use.
inline thread_local bool flat_plans_enabled = true;

// Every tensor of the flat tree `n` (its leaves), each spanning `size` elements from its data
// pointer, either shares no byte with the destination [lo, hi) or reads exactly the element
// being written (same start, same item size: NumPy's overlap rule then needs no copy, as in
// destination_overlaps).
struct apart_check {
    const char *lo, *hi;
    index_t size, itemsize;
    template <class N>
    FUSOR_INLINE bool on_leaf(const N& n) const {
        using T = typename N::value_type;
        const char* a = reinterpret_cast<const char*>(n.data);
        const char* b = a + size * static_cast<index_t>(sizeof(T));
        return b <= lo || hi <= a || (a == lo && static_cast<index_t>(sizeof(T)) == itemsize);
    }
    template <class N>
    FUSOR_INLINE bool on_scalar(const N&) const {
        return true;
    }
    template <class N>
    FUSOR_INLINE bool on_elementwise(const N& n) const {
        return all_children(
            n, [this](const auto& c) FUSOR_FORWARD_LAMBDA { return traverse(c, *this); });
    }
};
template <class N>
FUSOR_INLINE bool
reads_apart(const N& n, const char* lo, const char* hi, index_t size, index_t itemsize) {
    return traverse(n, apart_check{lo, hi, size, itemsize});
}

// Every leaf of a flat tree has the destination's shape and row-major layout (`d` is row-major:
// the flat case checks it; an element-wise node knows this of itself, elementwise::dense), and
// none overlaps the destination except by reading exactly the element being written.
template <class N>
FUSOR_INLINE bool
leaves_match(const N& n, const destination_ref& d, index_t size, const char* lo, const char* hi) {
    return detail::dense_over(n, d.shape) && reads_apart(n, lo, hi, size, d.itemsize);
}

/// Operands of a flat tree's loop: the destination, then the leaves and scalars.
template <class N>
inline constexpr index_t flat_operands = 1;
template <class Op, class... Cs>
inline constexpr index_t flat_operands<elementwise<Op, Cs...>> = (0 + ... + flat_operands<Cs>);

// The flat case (MNN BinaryOp's same shape, contiguous): `e` a flat tree whose every tensor has
// the destination's shape and row-major layout, at least 2 elements. Decided from the
// expression and the destination before any walk, so for small tensors planning costs almost
// nothing. `size` is the destination's number of elements (the caller's, computed once).
// `DestIsExpressionShape`: the caller knows that the destination is row-major with `e`'s own
// shape (a tensor assigned `e` after the shapes compared equal, or eval's fresh result), so
// neither is checked again (`c = a * b + d` over 64 float32: 391 -> 346 instructions).
template <bool DestIsExpressionShape = false, class E>
FUSOR_INLINE bool is_flat_case(const E& e, const destination_ref& d, index_t size) {
    if constexpr (tag_of<E> == node_tag::elementwise)
        if (!e.dense) // before any shape is compared: the row-broadcast case fails here
            return false;
    if (size < 2)
        return false;
    const char* lo = static_cast<const char*>(d.address);
    const char* hi = lo ? lo + size * d.itemsize : lo;
    if constexpr (DestIsExpressionShape)
        return detail::dense_child(e, true) && reads_apart(e, lo, hi, size, d.itemsize);
    else
        return is_row_major(d.shape, d.strides) && leaves_match(e, d, size, lo, hi);
}

/// The expression types whose flat or row-broadcast plan can run inline (flat_plan::inline_loop):
/// flat trees that call no function choose_elementwise_kernel sends through SLEEF. Callers test
/// it with `if constexpr`, so no other type compiles the inline loop or the row-broadcast check.
template <class N>
inline constexpr bool inline_loop_candidate = flat_tree<N> && !has_vector_math<N>;

/// The flat case's plan (`e` and `d` of the flat case, is_flat_case): its size, and whether the
/// loop is the contiguous kernel on the calling thread with nothing else to decide, as
/// fill_flat_plan would decide it: fewer elements than the thread split takes
/// (split_for_threads) and an inline_loop_candidate.
template <class E>
flat_plan plan_flat(const E&, index_t size) {
    return {1, size, 0, inline_loop_candidate<E> && size < parallel_threshold};
}

/// The flat case's plan over an expression with math functions in the register form
/// (flat_math_register_form), into destination `d` of `size` elements: `inline_loop` (one row
/// of `size`, computed a register at a time, its tail masked) when fill_flat_plan would choose
/// the same loop: one thread (fewer elements than the thread split takes) and
/// math_in_registers (math_registers_allowed, as choose_math_in_registers decides it).
/// Otherwise not, and the expanded plan runs. `c = exp(a) * b` over 16 float32: 1,213
/// instructions per evaluation through the expanded plan, its driver and its scratch buffers,
/// 294 inline (callgrind, g++ -O3 -march=haswell).
template <class E>
flat_plan plan_flat_math(const E&, const destination_ref& d, index_t size) {
    flat_plan f{1, size, 0, false};
    f.inline_loop =
        size < parallel_threshold && math_registers_allowed(elementwise_facts_of<E>, d.dtype, 1);
    return f;
}

// The walk of the row-broadcast case: each leaf matches the destination as in the flat case, or,
// with its leading 1s dropped, it is the destination's last `k` axes (the same k for every
// such leaf), row-major, and shares no byte with the destination (a row), or it has the
// destination's leading axes and extent 1 on its last `k` (a column: one element per row,
// those axes row-major) and shares no byte with it. `ordinal` counts tensor leaves depth-first;
// a row's bit is set in `f.still`, a column's in `f.column`.
struct row_matcher {
    const destination_ref& d;
    index_t size;
    const char *lo, *hi;
    std::size_t& k;
    int& ordinal;
    flat_plan& f;

    template <class N>
    FUSOR_INLINE bool on_leaf(const N& n) {
        using T = typename N::value_type;
        if (ordinal >= 64)
            return false;
        const int j = ordinal++;
        if (detail::dense_over(n, d.shape))
            return reads_apart(n, lo, hi, size, d.itemsize);
        const std::size_t k_before = k;
        const strides_t* strides = n.is_view ? &n.strides() : nullptr;
        const char* a = reinterpret_cast<const char*>(n.data);
        const auto itemsize = static_cast<index_t>(sizeof(T));
        if (match_row(n.shape(), strides, a, itemsize, j))
            return true;
        k = k_before;
        return match_column(n.shape(), strides, a, itemsize, j);
    }
    // A leaf that is neither dense nor a row: is it leaf `j`'s column (see above)? Not a
    // template, as match_row.
    FUSOR_INLINE_WHEN_OPTIMIZING bool match_column(
        const shape_t& s, const strides_t* strides, const char* a, index_t itemsize, int j) {
        const std::size_t rank = d.shape.size();
        if (s.size() != rank)
            return false;
        std::size_t ones = 0; // trailing extent-1 axes: the row's
        while (ones < rank && s[rank - 1 - ones] == 1)
            ++ones;
        if (ones == 0 || ones == rank || (k != 0 && k != ones))
            return false;
        k = ones;
        index_t acc = 1;
        for (std::size_t i = rank - ones; i-- > 0;) {
            if (s[i] != d.shape[i] || (strides && (*strides)[i] != acc))
                return false;
            acc *= s[i];
        }
        return claim_if_apart(a, acc * itemsize, f.column, j);
    }
    // A leaf that is not dense over the destination: is it leaf `j`'s row (see below)? Not a
    // template: compiled once, not once per expression type. `strides`: a view's (null for a
    // tensor, row-major by construction).
    FUSOR_INLINE_WHEN_OPTIMIZING bool
    match_row(const shape_t& s, const strides_t* strides, const char* a, index_t itemsize, int j) {
        std::size_t first = 0;
        while (first < s.size() && s[first] == 1)
            ++first;
        const std::size_t r = s.size() - first;
        if (r == 0 || r >= d.shape.size() || (k != 0 && k != r))
            return false;
        k = r;
        const std::size_t lead = d.shape.size() - r;
        index_t acc = 1;
        for (std::size_t i = s.size(); i-- > first;) {
            if (s[i] != d.shape[lead + (i - first)] || (strides && (*strides)[i] != acc))
                return false;
            acc *= s[i];
        }
        return claim_if_apart(a, acc * itemsize, f.still, j);
    }
    // The end of match_row and match_column: a leaf whose `bytes` from `a` share none with the
    // destination's sets its bit `j` in `bits` (f.still or f.column).
    FUSOR_INLINE bool claim_if_apart(const char* a, index_t bytes, std::uint64_t& bits, int j) {
        if (lo && !(a + bytes <= lo || hi <= a)) // no destination (`lo` null): apart
            return false;
        bits |= std::uint64_t{1} << j;
        return true;
    }
    template <class N>
    FUSOR_INLINE bool on_scalar(const N&) {
        return true;
    }
    template <class N>
    FUSOR_INLINE bool on_elementwise(const N& n) {
        return all_children(
            n, [this](const auto& c) FUSOR_FORWARD_LAMBDA { return traverse(c, *this); });
    }
};

// is_flat_rows_case once its leaves matched, with rows of the last `k` axes: at least 2 rows
// of at least 2 elements. Not a template.
FUSOR_INLINE_WHEN_OPTIMIZING bool finish_rows_case(
    const destination_ref& d, index_t size, std::size_t k, bool inline_candidate, flat_plan& f) {
    // Products of the extents, not size / cols: a 64-bit division was 2 % of `c = a * row + 1`
    // over (8, 8) (perf: a tenth of this function's samples on its idiv).
    const std::size_t rank = d.shape.size();
    index_t rows = 1, cols = 1;
    for (std::size_t i = 0; i < rank - k; ++i)
        rows *= d.shape[i];
    for (std::size_t i = rank - k; i < rank; ++i)
        cols *= d.shape[i];
    if (cols < 2 || rows < 2)
        return false;
    f.rows = rows;
    f.cols = cols;
    f.inline_loop = inline_candidate && size < parallel_threshold;
    return true;
}

/// The row-broadcast case (flat_plan): `e` a flat tree into a row-major destination whose every
/// tensor has the destination's shape and layout (as in the flat case), or is one row-major row
/// of its last axes (the same axes for every row; leading 1s allowed), or one column of its
/// leading axes (extent 1 on the same last axes, of at most broadcast_block elements), neither
/// overlapping the destination, with at least one row or column, and at least 2 rows of at
/// least 2 elements. On success fills `f` (rows, cols, which leaves are rows and columns,
/// `inline_loop` as plan_flat decides it, and rows_in_registers; over math functions in the
/// register form, rows_math_register_form, both set together: one thread, rows at least half
/// a register long, math_registers_allowed). The general walk plans the
/// same loop: two levels, rows outermost, the rows at stride 0 in the outer one, the
/// columns at stride 0 in the inner one (the broadcast kernel: plan_root keeps its splat rather
/// than a held operand, as execute_flat runs it), every other operand at unit stride. `size` is the
/// destination's number of elements.
template <class E>
bool is_flat_rows_case(const E& e, const destination_ref& d, index_t size, flat_plan& f) {
    if (d.shape.size() < 2 || !is_row_major(d.shape, d.strides))
        return false;
    const char* lo = static_cast<const char*>(d.address);
    const char* hi = lo ? lo + size * d.itemsize : lo;
    std::size_t k = 0;
    int ordinal = 0;
    f = flat_plan{};
    if (!traverse(e, row_matcher{d, size, lo, hi, k, ordinal, f}) || (f.still | f.column) == 0)
        return false;
    // A column's splat buffer is one row long: at most a broadcast block, as the broadcast
    // kernel's blocks.
    if (!finish_rows_case(d, size, k, inline_loop_candidate<E>, f)
        || (f.column != 0 && f.cols > broadcast_block))
        return false;
    // The destination's rows, as collapsible_rows reads the general walk's plan. Rows with a
    // column go a register at a time where they can, and those never collapse: their test waits
    // (S6's (8, 16) paid 4 ns for it first), the others' is read by choose_rows_in_registers.
    if (f.column == 0)
        f.collapsed = collapses(f.rows, f.cols, d.itemsize);
    using T = typename E::value_type;
    if constexpr (rows_register_form<E>) {
        // The same literal first: the compare's memcmp call was 45 instructions per evaluation.
        constexpr std::string_view dtype = dtype_name<T>();
        f.rows_in_registers = choose_rows_in_registers(
            f, static_cast<index_t>(sizeof(T)), d.dtype.data() == dtype.data() || d.dtype == dtype);
    }
    if constexpr (rows_math_register_form<E>) {
        // Math functions a register per row (rows_math_register_form): one thread, rows that
        // fill half a register or more, and math_in_registers as choose_math_in_registers
        // decides it for the expanded plan (math_registers_allowed).
        f.inline_loop = f.rows_in_registers =
            size < parallel_threshold && math_rows_fill_registers(f.cols, d.itemsize)
            && math_registers_allowed(elementwise_facts_of<E>, d.dtype, 1);
    }
    if (f.column != 0)
        f.collapsed = !f.rows_in_registers && collapses(f.rows, f.cols, d.itemsize);
    return true;
}

// True when some tensor `n` reads shares a byte with [lo, hi).
struct overlap_check {
    const char *lo, *hi;
    template <class N>
    bool on_leaf(const N& n) const {
        using T = typename N::value_type;
        if constexpr (std::is_same_v<N, leaf<T, false, true>>) {
            // A leaf over an lvalue tensor: row-major, its bytes one range (no walk of strides).
            const char* a = reinterpret_cast<const char*>(n.data);
            const char* b = a + n.size() * static_cast<index_t>(sizeof(T));
            return a && a != b && a < hi && lo < b;
        } else {
            const auto [a, b] = bytes_touched(n.data, n.shape(), n.strides(), sizeof(T));
            return a && a < hi && lo < b;
        }
    }
    template <class N>
    bool on_scalar(const N&) const {
        return false;
    }
    template <class N>
    bool on_elementwise(const N& n) const {
        return !all_children(
            n, [this](const auto& c) FUSOR_FORWARD_LAMBDA { return !traverse(c, *this); });
    }
    template <class N>
    bool on_remap(const N& n) const {
        return traverse(n.child, *this);
    }
    template <class N>
    bool on_reshaped(const N& n) const {
        return traverse(n.child, *this);
    }
    template <class N>
    bool on_reduction(const N& n) const {
        return traverse(n.child, *this);
    }
};
template <class N>
bool reads_overlap(const N& n, const char* lo, const char* hi) {
    return traverse(n, overlap_check{lo, hi});
}

// The walk of a flat reduction's columns (reduction_columns): each leaf is dense over the
// operand (row_matcher's `d`) or matches as row_matcher's column, its trailing 1s the reduced
// axes (`k` preset). No rows: a run reads no leaf again across runs.
struct column_matcher {
    row_matcher& m;
    template <class N>
    FUSOR_INLINE bool on_leaf(const N& n) {
        using T = typename N::value_type;
        if (m.ordinal >= 64)
            return false;
        const int j = m.ordinal++;
        if (detail::dense_over(n, m.d.shape))
            return true; // apart from the destination: is_flat_reduction checks after
        const strides_t* strides = n.is_view ? &n.strides() : nullptr;
        return m.match_column(n.shape(),
                              strides,
                              reinterpret_cast<const char*>(n.data),
                              static_cast<index_t>(sizeof(T)),
                              j);
    }
    template <class N>
    FUSOR_INLINE bool on_scalar(const N&) {
        return true;
    }
    template <class N>
    FUSOR_INLINE bool on_elementwise(const N& n) {
        return all_children(
            n, [this](const auto& c) FUSOR_FORWARD_LAMBDA { return traverse(c, *this); });
    }
};

// The columns of a flat reduction's operand (is_flat_reduction): every leaf of `child` is
// dense over `operand` (its shape, row-major) or a column of it, extent 1 on the `k` reduced
// (last) axes and the operand's extents, row-major, on the others; at least one is a column.
// Their bits (depth-first tensor ordinals) go to `columns`.
template <class C>
bool reduction_columns(const C& child,
                       const destination_ref& operand,
                       index_t size,
                       std::size_t k,
                       std::uint64_t& columns) {
    flat_plan f;
    int ordinal = 0;
    std::size_t axes = k; // preset: a column's trailing 1s are the reduced axes
    row_matcher m{operand, size, nullptr, nullptr, axes, ordinal, f};
    if (!traverse(child, column_matcher{m}) || f.column == 0)
        return false;
    columns = f.column;
    return true;
}

/// The flat reduction (flat_plan): `r` reduces the last axes (all of them, or the last k) of a
/// flat tree (for sums: one that calls no math function with a vectorised form, which the
/// general plan runs through SLEEF) whose every tensor has the tree's shape and row-major
/// layout (for additive reducers, flat_columns_reducer, some may instead be columns: one
/// element per run, runs of at most broadcast_block elements), at least 2 and
/// fewer than `parallel_threshold` elements, with at least 2 elements per result element,
/// into a destination of exactly the result's shape; with more than one result element the
/// destination is row-major and shares no byte with the operand (each result element is
/// written as soon as its run is reduced). On success fills `f`: `rows` runs of `cols`
/// elements, each into a register accumulator as choose_reduction_kernel picks for a run of
/// `cols`. The general walk plans the same loop: rows outermost (when there are several), one
/// contiguous level of `cols`, the accumulator at stride 0 in it.
/// False for any other than a flat_reduction_candidate (which the evaluation tests first).
template <class R, class C>
bool is_flat_reduction(const reduction<R, C>& r, const destination_ref& d, flat_plan& f) {
    if constexpr (!flat_reduction_candidate<reduction<R, C>>)
        return false;
    const shape_t& s = r.child.shape();
    const std::size_t k = r.axes.size(), rank = s.size();
    if (k == 0 || rank == 0)
        return false;
    // Every axis (`sum(a * b)`): the axes are sorted and distinct, so they are 0 ... rank - 1,
    // and the whole operand is one run.
    const bool whole = k == rank;
    if (!whole)
        for (std::size_t i = 0; i < k; ++i)
            if (r.axes[i] != static_cast<index_t>(rank - k + i))
                return false;
    if (d.shape != r.shape()) // after the axes: a product's summed axis is not its last
        return false;
    index_t rows = 1, cols = 1; // no division: a 64-bit idiv cost a fifth of sum(a * b) at n=4
    if (whole) {
        cols = shape_size(s);
    } else {
        for (std::size_t i = 0; i < rank - k; ++i)
            rows *= s[i];
        for (std::size_t i = rank - k; i < rank; ++i)
            cols *= s[i];
    }
    const index_t n = rows * cols;
    if (n < 2 || n >= parallel_threshold || cols < 2)
        return false;
    using impl = typename reduction<R, C>::impl;
    std::uint64_t columns = 0;
    // Every leaf dense over the operand (no destination to be apart from: the destination's
    // overlap is checked below; a plan made for leaves without data, as tests and explain make,
    // does no pointer arithmetic on them).
    if (!detail::dense_over(r.child, s)) {
        if constexpr (flat_columns_reducer<impl, C>) {
            // The operand's shape is all the column walk reads (not its strides, element type
            // or item size), so nothing is copied from `d`.
            const destination_ref operand{s, s, nullptr, {}, 0};
            if (cols > broadcast_block || !reduction_columns(r.child, operand, n, k, columns))
                return false;
        } else {
            return false;
        }
    }
    if (rows > 1) {
        if (!is_row_major(d.shape, d.strides))
            return false;
        const char* lo = static_cast<const char*>(d.address);
        if (lo && reads_overlap(r.child, lo, lo + rows * d.itemsize))
            return false;
    }
    // With columns the general walk's inner loop is the broadcast kernel, not contiguous: the
    // same choice here (pairwise_rows with the columns splatted run after run, pairwise,
    // float_lanes or compensated).
    f = flat_plan{
        rows,
        cols,
        0,
        true,
        register_reduce_kernel<impl, typename C::value_type>(cols,
                                                             columns == 0,
                                                             sum_terms_in_registers<impl, C>,
                                                             rows,
                                                             !has_vector_math<C>,
                                                             columns != 0,
                                                             rows_terms_in_registers<impl, C>),
        columns};
    return true;
}

template <class N>
bool flat_reduction_applies(const N& n, const destination_ref& d, flat_plan& f) {
    if constexpr (flat_reduction_candidate<N>)
        return flat_plans_enabled && is_flat_reduction(n, d, f);
    else
        return false;
}

/// True for the node types a flat product can take: product_candidate (a float contraction over
/// the product of two operands of one type), both operands tensors or views.
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class N>
inline constexpr bool flat_product_candidate = false;
template <class R, class L0, class L1>
inline constexpr bool flat_product_candidate<reduction<R, elementwise<ops::multiply, L0, L1>>> =
    product_candidate<R, elementwise<ops::multiply, L0, L1>> && tag_of<L0> == node_tag::leaf
    && tag_of<L1> == node_tag::leaf;
// clang-format on

/// The flat product (loop_plan::flat_product): `r`, a contraction of two tensors or views (a
/// matmul or dot of matrices and vectors), is a product the planner runs as
/// reduce_kernel::small_gemm (flat_product_of: no batch axes, under gemm_min_work multiply-adds,
/// at most flat_product_max_results results), into a row-major destination of exactly the
/// result's shape that shares no byte with either factor. On success fills `g` as the planner
/// would (A is the first factor).
template <class N>
bool is_flat_product(const N& r, const destination_ref& d, gemm_plan& g) {
    const auto& a = child<0>(r.child);
    const auto& b = child<1>(r.child);
    const shape_t& s = r.child.shape();
    constexpr bool compensated =
        std::is_same_v<typename N::impl::acc_type, reducers::detail::compensated_sum>;
    if (!flat_plans_enabled || r.axes.size() != 1 || d.shape != r.shape() || a.shape() != s
        || b.shape() != s
        || !flat_product_of(s,
                            r.axes[0],
                            a.strides(),
                            b.strides(),
                            is_row_major(d.shape, d.strides),
                            compensated,
                            g))
        return false;
    // The bytes each factor spans, from its first element (every stride at least 0), against
    // the destination's m x n elements.
    const char* lo = static_cast<const char*>(d.address);
    if (!lo)
        return true;
    const char* hi = lo + g.m * g.n * d.itemsize;
    auto apart = [lo, hi](const auto* first, index_t last) {
        const char* f = reinterpret_cast<const char*>(first);
        return hi <= f || reinterpret_cast<const char*>(first + last + 1) <= lo;
    };
    return apart(a.data, (g.m - 1) * g.a_m + (g.k - 1) * g.a_k)
           && apart(b.data, (g.k - 1) * g.b_k + (g.n - 1) * g.b_n);
}

/// The flat plan expanded into the `loop_plan` the evaluator runs when plan_flat's
/// `inline_loop` is false, and that the trace and the plan observer see: only what the loop
/// needs, one level of `size`, every operand at unit stride from its start.
/// Only the operand count, the facts and the node's address depend on `E`: the rest is
/// fill_flat_plan_of, compiled once (inlined here, it was ~1.4 KB of code per expression type).
template <class E>
void fill_flat_plan(loop_plan& p, const E& e, const destination_ref& d) {
    fill_flat_plan_of(p, d, flat_operands<E> + 1, elementwise_facts_of<E>, &e);
}

// A reduction (or contraction) at the root whose result broadcasts into a destination of another
// shape (a view: `view(w, all) = sum(a)`, `view(z, all) = matmul(a, b)`): its loops write
// exactly its own shape, so it is computed into a contiguous temporary, and a loop copies that
// into `d`, broadcast (plan_alias_copy's two steps, the boundary's reason broadcast_result).
// Also an element-wise root with far fewer elements than `d` (broadcast_root_pays:
// `view(out, all) = exp(col)`, out (n, m)): computed once per element of its own shape instead
// of once per element of `d`. Only the root's type, dtype and shape depend on `E`: the rest is
// plan_broadcast_root, compiled once (inlined here, it was ~1.2-1.8 KB of code per expression
// type).
template <class E>
void plan_broadcast_result(loop_plan& p,
                           const E& e,
                           const destination_layout& d,
                           evaluation_state& state,
                           plan_notes* notes) {
    using T = typename E::value_type;
    plan_broadcast_root(p,
                        &node_type_id<E>,
                        dtype_name<T>(),
                        static_cast<index_t>(sizeof(T)),
                        e.shape(),
                        subplanner{&e, &plan_subexpression_erased<E>},
                        d,
                        state,
                        notes);
}

template <class E>
void plan_root_loops(loop_plan& p, const E& e, const destination_ref& d, plan_notes* notes) {
    evaluation_state state;
    naming names;
    if (notes)
        state.names = &names;
    // One copy of the destination's layout for every case below (a copy per call compiled a
    // shape and strides copy and destruction per case into each expression type's planner).
    const destination_layout layout = d.layout();
    if constexpr (tag_of<E> == node_tag::elementwise) {
        // Broadcast into a destination with enough more elements (never the flat case, whose
        // shapes are equal): once per element of its own shape (plan/hoisting.hpp).
        if (broadcast_root_pays(e.shape(), shape_size(d.shape))) {
            plan_broadcast_result(p, e, layout, state, notes);
            return;
        }
    }
    if constexpr (flat_tree<E>) {
        const index_t size = shape_size(d.shape);
        if (flat_plans_enabled && is_flat_case(e, d, size)) {
            if (notes) {
                // For explain, the general walk: the same loop (one contiguous level, the same
                // kernel and split) with every operand's data, the names and the tree lines.
                plan_elementwise(p, e, layout, state, notes);
            } else {
                fill_flat_plan(p, e, d);
            }
            p.flat = true;
            return;
        }
        if constexpr (inline_loop_candidate<E> || rows_math_register_form<E>) {
            flat_plan f;
            if (flat_plans_enabled && is_flat_rows_case(e, d, size, f) && f.inline_loop) {
                p.flat_rows = true; // read by choose_elementwise_kernel: columns are splatted
                p.rows_in_registers = f.rows_in_registers; // read by collapsible_rows
                plan_subexpression(p, e, layout, state, notes);
                return;
            }
        }
    } else if constexpr (tag_of<E> == node_tag::reduction) {
        if (d.shape != e.shape()) { // broadcast into a larger destination
            plan_broadcast_result(p, e, layout, state, notes);
            return;
        }
        if (flat_reduction_applies(e, d, p.flat_runs)) {
            p.flat_reduction = true; // read by collapsible_runs: runs one at a time
            plan_subexpression(p, e, layout, state, notes);
            return;
        }
        if constexpr (flat_product_candidate<E>) {
            gemm_plan g;
            if (is_flat_product(e, d, g)) {
                plan_subexpression(p, e, layout, state, notes);
                p.flat_product = true;
                return;
            }
        }
    }
    plan_subexpression(p, e, layout, state, notes);
}

// The root loop's plan (plan_root_loops), then how it stores: an element-wise loop into a
// large destination that existed before streams its stores (choose_stream_stores).
template <class E>
void plan_root(loop_plan& p, const E& e, const destination_ref& d, plan_notes* notes) {
    plan_root_loops(p, e, d, notes);
    p.stream_block = choose_stream_stores(p, shape_size(d.shape), d.itemsize, d.fresh);
}

} // namespace planning

/// Plans the loop that evaluates `e` into the destination `d` (shape, strides, dtype): an
/// element-wise loop over `d.shape` with `e` broadcast into it (one flat loop when every tensor
/// has the destination's shape and layout), or, when `e` is a reduction, a reduction loop over
/// its operand's shape. Nested reductions become boundaries with plans of their own. Pure:
/// reads shapes and strides, touches no element, builds no string; allocates nothing for an
/// element-wise expression over rank <= 6 operands (up to 6 of them).
template <class E>
loop_plan make_plan(const E& e, const destination_ref& d) {
    loop_plan p;
    planning::plan_root(p, e, d, nullptr);
    return p;
}
/// As above, for a destination given by value.
template <class E>
loop_plan make_plan(const E& e, const destination_layout& d) {
    return make_plan(e,
                     destination_ref{d.shape, d.strides, d.address, d.dtype, d.itemsize, d.fresh});
}

/// As above, and fills `notes` with what explain prints beside the plan (tree lines, operand
/// names) in the same walk.
template <class E>
loop_plan make_plan(const E& e, const destination_layout& d, plan_notes& notes) {
    loop_plan p;
    planning::plan_root(
        p, e, destination_ref{d.shape, d.strides, d.address, d.dtype, d.itemsize, d.fresh}, &notes);
    return p;
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/make_plan.ipp>
#endif
