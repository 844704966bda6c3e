// fusor/exec/assign.hpp: `=`, `+=` ..., eval: check, plan, execute. Every check happens before
// the first element is stored, so a throwing assignment leaves its destination untouched.
#pragma once

#include <memory>
#include <string>
#include <type_traits>

#include <fusor/core/broadcast.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/exec/execute.hpp>
#include <fusor/exec/row_blocked_eval.hpp>
#include <fusor/exec/segmented_eval.hpp>
#include <fusor/expr/lifetime_check.hpp>
#include <fusor/expr/operators.hpp>
#include <fusor/plan/make_plan.hpp>
#include <fusor/plan/plan_cache.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {
/// Test hook: when set, called with every top-level plan just before it is executed, so tests
/// can prove that `explain` prints the plan that runs. Not for production use.
inline thread_local void (*plan_observer)(const loop_plan&) = nullptr;

template <class D>
destination_layout layout_of(const tensor_view<D>& v) {
    using V = std::remove_const_t<D>;
    return {v.shape(), v.strides(), v.data(), dtype_name<V>(), sizeof(V)};
}

// Runs plan `p` for `n` into the destination at `data`.
template <class D, class N>
void run_plan(
    const loop_plan& p, D* data, const shape_t& shape, const strides_t& strides, const N& n) {
    if (plan_observer)
        plan_observer(p);
    if constexpr (tag_of<N> == node_tag::reduction) {
        // A reduction whose result broadcasts into the destination (a view of another shape):
        // computed into the plan's only boundary, then copied. Any other aliasing copy of a
        // reduction's plan is its operand's, which execute_reduction runs.
        if (p.alias_copy && p.boundaries.front().why == boundary_plan::reason::broadcast_result)
            exec::execute_alias_copy(p, data, n);
        else
            exec::execute_reduction(n, p, tensor_view<D>(data, shape, strides));
    } else if (p.alias_copy) {
        // The destination overlaps what the expression reads, or the expression has far fewer
        // elements than it (planning::broadcast_root_pays): the plan computes the expression
        // into a temporary (its only boundary) and copies that.
        exec::execute_alias_copy(p, data, n);
    } else {
        exec::execute_elementwise(p, data, n);
    }
}

// A flat reduction's or flat product's plan as the general walk makes it (explain's), when the
// plan observer or the trace wants it; else null (nothing planned). The planning out of line,
// so that the test that nothing observes costs the evaluation a load and a branch, not a call
// (eval(sum(a * b)) over 4 elements: 644 -> 615 instructions).
// Planned in place (plan_root into the new plan), not moved from make_plan's result: no
// loop_plan move or destruction compiled here (the function is still ~1.4 KB per expression
// type at -O3, the planner's root inlined).
template <class N>
[[gnu::noinline]] std::unique_ptr<loop_plan> observed_plan(const N& n, const destination_ref& d) {
    auto shown = std::make_unique<loop_plan>();
    planning::plan_root(*shown, n, d, nullptr);
    if (plan_observer)
        plan_observer(*shown);
    return shown;
}
template <class N>
std::unique_ptr<loop_plan> shown_plan(const N& n, const destination_ref& d) {
    if (plan_observer || exec::tracing) [[unlikely]]
        return observed_plan(n, d);
    return nullptr;
}

// The one evaluation routine: `n` (a node) into the destination at `data` with `shape` and
// `strides`, shapes already checked. The flat case, the row-broadcast case and the flat
// reduction are decided into a flat_plan that costs almost nothing to build; when that says
// the whole evaluation is one loop on this thread, it runs at once (exec::execute_flat,
// exec::execute_flat_reduction); a small matrix product of two tensors runs the same way
// (exec::execute_flat_product). A tree that stores a shared sub-expression per block of rows
// runs by blocks (plan/row_blocks.hpp). Any other plan comes from this thread's plan cache when the
// same expression type was last evaluated over the same operands into the same layout
// (plan/plan_cache.hpp), else from the planner. Nothing is copied on the way.
// `DestIsExpressionShape`: the destination is row-major with `n.shape()` (a tensor whose shape
// compared equal, a fresh result), so planning::is_flat_case checks neither again. `fresh`: the
// destination was allocated for this evaluation, no page of it touched yet (the planner then
// keeps ordinary stores: planning::choose_stream_stores).
template <bool DestIsExpressionShape, class D, class N>
void evaluate_into(
    D* data, const shape_t& shape, const strides_t& strides, const N& n, bool fresh) {
    using V = std::remove_const_t<D>;
    if constexpr (planning::holds_segmented<N>()) {
        // Lazy roll, pad, concatenate ...: cut into cells (exec/segmented_eval.hpp).
        evaluate_segmented(data, shape, strides, n, fresh);
    } else {
        // The expression's own shape object where it equals the destination's: the planner's
        // per-leaf compares with it then find the leaf that shares it by address (`(x - m) / s`
        // over (8, 16): one rank-2 compare less per such leaf).
        const shape_t& dest_shape = DestIsExpressionShape ? n.shape() : shape;
        const destination_ref d{dest_shape, strides, data, dtype_name<V>(), sizeof(V), fresh};
        // A root with far fewer elements than the destination (`view(out, all) = exp(col)`) is
        // computed over its own shape, then copied: the general plan (plan_root_loops,
        // planning::broadcast_root_pays), not the inline loops or row blocks. Only a view can be
        // that destination (a tensor takes the expression's shape), so a tensor's evaluation
        // does not ask (asked there, it added 76 instructions to `(x - m) / s`'s evaluation).
        [[maybe_unused]] bool root_broadcast = false;
        if constexpr (tag_of<N> == node_tag::elementwise && !DestIsExpressionShape)
            root_broadcast = planning::broadcast_root_pays(n.shape(), shape_size(shape));
        if constexpr (planning::flat_tree<N>) {
            if (planning::flat_plans_enabled) {
                const index_t size = shape_size(shape);
                const bool flat = planning::is_flat_case<DestIsExpressionShape>(n, d, size);
                // Only an inline_loop_candidate compiles the inline loop and the row-broadcast
                // check (for any other, plan_flat's `inline_loop` is false).
                if constexpr (planning::inline_loop_candidate<N>) {
                    flat_plan f;
                    if (flat)
                        f = planning::plan_flat(n, size);
                    if (!root_broadcast && (flat || planning::is_flat_rows_case(n, d, size, f))
                        && f.inline_loop) {
                        // Observed or traced: the same loop, beside the plan explain shows for
                        // it. One call of the (always inlined) loop either way: one copy of it
                        // per expression type. The plan on the heap: a std::optional of it was
                        // cleared (3 KB, memset) on every evaluation, observed or not.
                        std::unique_ptr<loop_plan> shown;
                        if (plan_observer || exec::tracing) [[unlikely]] {
                            shown = std::make_unique<loop_plan>();
                            if (flat)
                                planning::fill_flat_plan(*shown, n, d);
                            else
                                planning::plan_root(*shown, n, d, nullptr);
                            if (plan_observer)
                                plan_observer(*shown);
                        }
                        exec::execute_flat(f, data, n, shown.get());
                        return;
                    }
                }
                // clang-format off
                constexpr bool math_inline = planning::flat_math_register_form<N>
                                             && std::is_same_v<V, typename N::value_type>;
                // clang-format on
                if constexpr (math_inline) {
                    // Math functions a register at a time: inline too, when the expanded plan
                    // would run that loop on this thread (planning::plan_flat_math; only into
                    // the expression's own element type, so no other case compiles this call).
                    if (flat) {
                        const flat_plan f = planning::plan_flat_math(n, d, size);
                        if (f.inline_loop) {
                            exec::execute_flat(f, data, n, shown_plan(n, d).get());
                            return;
                        }
                    } else if constexpr (planning::rows_math_register_form<N>) {
                        // And a register per row in the row-broadcast case (`exp(x - m)`, m a
                        // column), as the expanded plan marks it (plan_root, `flat_rows`).
                        flat_plan f;
                        if (!root_broadcast && planning::is_flat_rows_case(n, d, size, f)
                            && f.inline_loop) {
                            exec::execute_flat(f, data, n, shown_plan(n, d).get());
                            return;
                        }
                    }
                }
                if (flat) { // the thread split or math in blocks: the expanded plan runs
                    loop_plan p;
                    planning::fill_flat_plan(p, n, d);
                    run_plan(p, data, shape, strides, n);
                    return;
                }
            }
        } else if constexpr (tag_of<N> == node_tag::reduction) {
            if constexpr (planning::flat_reduction_candidate<N>) {
                flat_plan f;
                if (planning::flat_plans_enabled && planning::is_flat_reduction(n, d, f)) {
                    exec::execute_flat_reduction(f, n, data, shown_plan(n, d).get());
                    return;
                }
            }
            if constexpr (planning::flat_product_candidate<N>) {
                gemm_plan g;
                if (planning::is_flat_product(n, d, g)) {
                    exec::execute_flat_product(g, n, data, shown_plan(n, d).get());
                    return;
                }
            }
        }
        bool hit = false;
        if constexpr (planning::row_block_candidate<N>()) {
            // A sub-expression read inside a reduction and outside it (softmax's `exp`): stored
            // once per block of rows when the rows allow it (plan/row_blocks.hpp). The decision
            // and its plans come from this thread's row-block cache, under the plan cache's key.
            if (!root_broadcast && planning::row_blocks_fit(n.shape(), shape)) {
                const row_blocks& b = planning::cached_row_blocks(n, d, hit);
                if (b.applies) {
                    evaluate_row_blocks(data, shape, strides, n, b);
                    return;
                }
            }
        }
        run_plan(planning::cached_plan(n, d, hit), data, shape, strides, n);
    }
}

// An assignment to a tensor of another shape: `run(context, data, shape, strides)` evaluates
// into the destination it is given. With the same number of elements that is the tensor's own
// buffer seen with the new shape (expressions and views over `dest` keep reading valid memory;
// the planner sees the new layout over it, aliasing included), else a fresh tensor, which
// replaces `dest` once the loop has run, so a throwing evaluation leaves `dest` as it was.
// A template of the element type only, the expression reached through `run`: the tensor's
// construction and move are compiled once per element type, not once per expression type.
template <class T>
void assign_reshaped(tensor<T>& dest,
                     const shape_t& to,
                     void (*run)(const void*, T*, const shape_t&, const strides_t&, bool),
                     const void* context) {
    if (dest.size() == shape_size(to)) {
        run(context, dest.data(), to, row_major_strides(to), false);
        dest.reshape(to);
    } else {
        tensor<T> fresh(to, uninitialized);
        run(context, fresh.data(), fresh.shape(), fresh.strides(), true);
        dest = std::move(fresh);
    }
}

template <class T, class E>
void assign_to_tensor(tensor<T>& dest, const E& e, bool fresh) {
    check_lifetimes(e);
    const auto& n = operand_for<T>(e);
    using N = std::remove_cvref_t<decltype(n)>;
    if (dest.shape() != n.shape()) [[unlikely]] {
        assign_reshaped<T>(
            dest,
            n.shape(),
            [](const void* node,
               T* data,
               const shape_t& shape,
               const strides_t& strides,
               bool new_buffer) {
                evaluate_into<true>(data, shape, strides, *static_cast<const N*>(node), new_buffer);
            },
            &n);
        return;
    }
    evaluate_into<true>(dest.data(), dest.shape(), dest.strides(), n, fresh);
}

template <class T, class E>
void assign_to_view(const tensor_view<T>& dest, const E& e, bool allow_leading_ones) {
    static_assert(!std::is_const_v<T>,
                  "fusor: cannot assign to a read-only view (tensor_view<const T>, e.g. a "
                  "broadcast_to result or a view of a const tensor)");
    check_lifetimes(e);
    check_lifetimes(dest);
    const auto& n = operand_for<T>(e);
    if (!broadcasts_to(n.shape(), dest.shape(), allow_leading_ones))
        throw broadcast_error("could not broadcast input array from shape "
                              + to_compact_string(n.shape()) + " into shape "
                              + to_compact_string(dest.shape()));
    evaluate_into(dest.data(), dest.shape(), dest.strides(), n);
}

// `dest op= e` for a tensor or a view `dest`: reads `dest` itself as the left operand (as NumPy's
// in-place ufuncs, `out=dest`), so the destination never resizes.
template <class Op, class Dest, class E>
void compound_assign_into(Dest& dest, const E& e) {
    using T = typename Dest::value_type;
    check_lifetimes(e);
    check_lifetimes(dest);
    const Dest& self = dest;
    auto n = make_binary<Op>(self, e);
    using R = typename decltype(n)::value_type;
    static_assert(same_kind_castable<R, T>,
                  "fusor: compound assignment would cast the result to the destination's type "
                  "across kinds (e.g. float64 into int32), which NumPy's same_kind rule forbids; "
                  "write `c = cast<T>(c op e)` to cast explicitly");
    const shape_t& es = n.shape();
    if (es != dest.shape()) {
        // In place, the destination never resizes (NumPy's rule); extra axes are refused
        // even when they have extent 1.
        const shape_t& rhs = [&]() -> const shape_t& {
            if constexpr (scalar<E>)
                return dest.shape();
            else
                return e.shape();
        }();
        throw broadcast_error("non-broadcastable output operand with shape "
                              + to_compact_string(dest.shape())
                              + " doesn't match the broadcast shape "
                              + to_compact_string(broadcast_shapes(dest.shape(), rhs)));
    }
    evaluate_into(dest.data(), dest.shape(), dest.strides(), n);
}

template <class Op, class T, class E>
void compound_assign(const tensor_view<T>& dest, const E& e) {
    static_assert(!std::is_const_v<T>, "fusor: cannot assign to a read-only view");
    compound_assign_into<Op>(dest, e);
}

template <class Op, class T, class E>
void compound_assign(tensor<T>& dest, const E& e) {
    compound_assign_into<Op>(dest, e);
}
} // namespace detail

/// Evaluates `e` into a new contiguous `tensor<value_type>` of `e.shape()` in one fused loop
/// (reductions inside `e` are computed first, once each). Example: `auto d = eval(a * b + 2.0);`
template <class E>
    requires expression<E> tensor<value_type_t<E>> eval(const E& e) {
        tensor<value_type_t<E>> out(detail::checked_shape_of(e), uninitialized);
        detail::evaluate_into<true>(
            out.data(), out.shape(), out.strides(), detail::operand_for<value_type_t<E>>(e), true);
        return out;
    }

namespace detail {
template <class E>
auto item_of(const E& e) {
    check_lifetimes(e);
    if (e.size() != 1)
        throw value_error("item(): only an expression of size 1 converts to a scalar, this one "
                          "has shape "
                          + to_string(e.shape()));
    // Into a local: a reduction to one element allocates nothing.
    using V = value_type_t<E>;
    const auto& n = operand_for<V>(e);
    const shape_t& shape = n.shape();
    V out{};
    evaluate_into<true>(&out, shape, row_major_strides(shape), n);
    return out;
}
} // namespace detail

} // namespace fusor
