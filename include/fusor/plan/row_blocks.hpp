// fusor/plan/row_blocks.hpp: compute_at over rows. The README's softmax,
// `p = exp(x - max(x, 1, keepdims)); p / sum(p, 1, keepdims)`, reads `p` twice: inside the row
// sum and in the division. Planned as one loop with boundaries, every boundary runs over the
// whole array first and `p`'s `exp` is computed twice per element; written as two statements,
// `exp` runs once but `p` makes a round trip through memory. Here the destination's rows run in
// blocks that stay in cache (Halide's `compute_at` at the row loop): per block, the shared
// sub-expression is computed once into a block-sized buffer, then the expression runs over the
// block reading the buffer where it read the sub-expression, its reductions included.
//
// The decision is made here, once per evaluation, as a value (`row_blocks`) holding the plans
// that run: exec/row_blocked_eval.hpp follows it and explain prints it. It applies when
// - the tree holds only tensors, scalars, element-wise nodes and reductions;
// - an element-wise sub-expression that calls a math function (exp, log, sin ..., the SLEEF list)
//   is read both inside a reduction and outside every reduction, and every occurrence of its
//   type reads the same operands (the same sub-expression, not one of the same shape);
// - every reduction keeps the destination's first axis (the rows) and reduces no element twice
//   across blocks: it reduces only axes inside a row;
// - the destination has at least two rows and `row_block_min_elements` elements, a row of at
//   most `row_block_elements`, and shares no byte with what the tree reads.
// Otherwise the ordinary plan runs (make_plan.hpp), and explain shows that plan.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/parallel.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/traverse.hpp>
#include <fusor/expr/elementwise.hpp>
#include <fusor/expr/leaf.hpp>
#include <fusor/plan/kernel_choice.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/plan/make_plan.hpp>
#include <fusor/plan/plan_cache.hpp>
#include <fusor/reduce/reduction.hpp>

namespace fusor {

/// Destination elements per block of rows: 32K (128 KiB of float32 per operand block, in L2
/// with the buffer). Measured on the README's softmax over (4096, 1024) and (1000, 1000)
/// float32: blocks of 16K-64K elements ran within 5 % of each other, 4K ones 20-40 % slower
/// (each block plans nothing, but runs its loops' set-up). Below `parallel_threshold`, so a
/// block's loops never split across threads themselves: the blocks are what threads share.
inline constexpr index_t row_block_elements = index_t{1} << 15;

/// Fewer destination elements than this run the ordinary plan: a block's set-up (the restricted
/// trees, two loops with their boundaries, the buffer) costs about what the `exp` it saves
/// does. Softmax of float32, the decision from the row-block cache, medians of 5 in three
/// alternating runs: (64, 64) 15-20 us by blocks against 19-20 without; (64, 128) 21-28 against
/// 27-40; (16, 1024) 32-36 against 42-59.
inline constexpr index_t row_block_min_elements = index_t{1} << 13;

/// The decision to evaluate a tree by blocks of rows, and the plans each block runs
/// (plan_row_blocks).
struct row_blocks {
    bool applies = false;
    index_t rows = 0;       ///< extent of the destination's first axis
    index_t block_rows = 0; ///< rows per block; the last block has `rows % block_rows` when
                            ///< that is not 0 (`store_tail`, `block_tail`)
    index_t blocks = 0;
    int threads = 1;      ///< threads the blocks are split across (whole blocks each)
    int root_axis = 0;    ///< the root's axis that is the destination's first
    int stored_axis = 0;  ///< the stored sub-expression's axis that follows the rows
    shape_t stored_shape; ///< the buffer: the stored sub-expression over a full block
    std::string_view stored_dtype;
    index_t stored_itemsize = 0;
    int stored_inside = 0;  ///< occurrences read from the buffer inside a reduction
    int stored_outside = 0; ///< ... and outside every reduction
    loop_plan store;        ///< a full block: the sub-expression into the buffer
    loop_plan block;        ///< a full block: the expression, reading the buffer
    loop_plan store_tail;   ///< the last block, when it is shorter (else unused)
    loop_plan block_tail;

    index_t tail_rows() const { return block_rows ? rows % block_rows : 0; }
};

/// What explain shows beside a row_blocks decision: the notes of each of its four plans.
struct row_block_notes {
    plan_notes store, block, store_tail, block_tail;
};

namespace planning {

/// Node types the row blocks can cut: tensors, scalars, element-wise nodes and reductions.
template <class N>
constexpr bool row_tree() {
    constexpr node_tag t = tag_of<N>;
    if constexpr (t == node_tag::leaf || t == node_tag::scalar)
        return true;
    else if constexpr (t == node_tag::elementwise || t == node_tag::reduction)
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (
                true && ...
                && row_tree<std::remove_cvref_t<decltype(child<I>(std::declval<const N&>()))>>());
        }
    (std::make_index_sequence<child_count<N>>{});
    else return false;
}

// The type of child I of node type N.
template <class N, std::size_t I>
using child_type = std::remove_cvref_t<decltype(child<I>(std::declval<const N&>()))>;

/// Whether node type `N` is or holds a node of type `S`.
template <class N, class S>
constexpr bool holds_type() {
    if constexpr (std::is_same_v<N, S>)
        return true;
    else
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (false || ... || holds_type<child_type<N, I>, S>());
        }
    (std::make_index_sequence<child_count<N>>{});
}

/// Whether node type `N` holds a reduction (itself included).
template <class N>
constexpr bool holds_reduction() {
    if constexpr (tag_of<N> == node_tag::reduction)
        return true;
    else
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return (false || ... || holds_reduction<child_type<N, I>>());
        }
    (std::make_index_sequence<child_count<N>>{});
}

/// Whether some reduction in node type `N` reads a node of type `S`.
template <class N, class S>
constexpr bool reduced_somewhere() {
    if constexpr (tag_of<N> == node_tag::reduction)
        if constexpr (holds_type<std::remove_cvref_t<decltype(std::declval<const N&>().child)>,
                                 S>())
            return true;
    return []<std::size_t... I>(std::index_sequence<I...>) {
        return (false || ... || reduced_somewhere<child_type<N, I>, S>());
    }
    (std::make_index_sequence<child_count<N>>{});
}

template <class... Ts>
struct first_non_void {
    using type = void;
};
template <class T, class... Ts>
struct first_non_void<T, Ts...> {
    using type = std::conditional_t<std::is_void_v<T>, typename first_non_void<Ts...>::type, T>;
};

// The first element-wise node type of `N`, depth-first and outside every reduction, that calls
// a math function of the SLEEF list and that some reduction of `Root` also reads.
template <class Root, class N>
constexpr auto find_stored() {
    if constexpr (tag_of<N> != node_tag::elementwise) {
        return std::type_identity<void>{};
    } else if constexpr (has_listed_math<N> && reduced_somewhere<Root, N>()) {
        return std::type_identity<N>{};
    } else {
        return []<std::size_t... I>(std::index_sequence<I...>) {
            return std::type_identity<typename first_non_void<
                typename decltype(find_stored<Root, child_type<N, I>>())::type...>::type>{};
        }
        (std::make_index_sequence<child_count<N>>{});
    }
}

/// The sub-expression type the row blocks store for tree type `N` (void: none).
template <class N>
using stored_node = typename decltype(find_stored<N, N>())::type;

/// Tree types the row blocks may run: an element-wise root over tensors, scalars, element-wise
/// nodes and reductions, with a sub-expression to store.
template <class N>
constexpr bool row_block_candidate() {
    if constexpr (tag_of<N> == node_tag::elementwise && row_tree<N>())
        return !std::is_void_v<stored_node<N>>;
    else
        return false;
}

/// The axis of child shape `c` that follows axis `a` of its element-wise parent of shape `p`
/// (right-aligned broadcasting), or -1 when the child has none or broadcasts along it.
FUSOR_DECL int child_row_axis(const shape_t& p, int a, const shape_t& c);

/// The axis of reduction `n`'s operand that is its result's axis `a` (-1 when `a` is -1).
template <class N>
int reduced_row_axis(const N& n, int a) {
    if (a < 0)
        return -1;
    if (n.keepdims)
        return a;
    int kept = 0;
    for (std::size_t j = 0; j < n.child.shape().size(); ++j) {
        if (std::find(n.axes.begin(), n.axes.end(), static_cast<index_t>(j)) != n.axes.end())
            continue;
        if (kept++ == a)
            return static_cast<int>(j);
    }
    return -1;
}

/// Whether two nodes of one type compute the same thing: the same tensors (data, shape,
/// strides), the same scalars, the same reduction parameters.
template <class N>
bool same_node(const N& x, const N& y) {
    constexpr node_tag t = tag_of<N>;
    if constexpr (t == node_tag::leaf) {
        return x.data == y.data && x.shape() == y.shape() && x.strides() == y.strides();
    } else if constexpr (t == node_tag::scalar) {
        return std::memcmp(&x.value, &y.value, sizeof(x.value)) == 0;
    } else if constexpr (t == node_tag::reduction) {
        return x.axes == y.axes && x.keepdims == y.keepdims && x.flat == y.flat
               && same_node(x.child, y.child);
    } else {
        return [&]<std::size_t... I>(std::index_sequence<I...>) {
            return (true && ... && same_node(child<I>(x), child<I>(y)));
        }
        (std::make_index_sequence<child_count<N>>{});
    }
}

/// The run-time half of the decision: walks the tree with each node's row axis (-1: none), and
/// says whether every reduction keeps the rows, no sub-tree without them holds a reduction (it
/// would be computed again for every block) and every occurrence of `S` is the same and follows
/// the rows along the same axis.
template <class S>
struct row_check {
    index_t rows;
    const S* first = nullptr;
    int stored_axis = -1;
    int inside = 0, outside = 0;

    template <class N>
    bool walk(const N& n, int a, bool reduced) {
        if constexpr (std::is_same_v<N, S>) {
            if (a < 0)
                return false;
            if (!first) {
                first = &n;
                stored_axis = a;
            } else if (stored_axis != a || !same_node(*first, n)) {
                return false;
            }
            ++(reduced ? inside : outside);
        }
        constexpr node_tag t = tag_of<N>;
        if constexpr (t == node_tag::elementwise) {
            return all_children(n, [&](const auto& c) {
                const int k = child_row_axis(n.shape(), a, c.shape());
                if constexpr (holds_reduction<std::remove_cvref_t<decltype(c)>>())
                    if (k < 0)
                        return false;
                return walk(c, k, reduced);
            });
        } else if constexpr (t == node_tag::reduction) {
            if (a < 0 || n.count() == 0)
                return false;
            const int k = reduced_row_axis(n, a);
            if (k < 0 || n.child.shape()[static_cast<std::size_t>(k)] != rows)
                return false;
            return walk(n.child, k, true);
        } else {
            return true;
        }
    }
};

/// A node restricted to rows [r0, r0 + len) of its row axis `a` (-1: the node has none and
/// stays whole): tensors become strided views of those rows, reductions and element-wise nodes
/// are rebuilt over their restricted children. With `Replace`, every node of type `S` becomes
/// the buffer at `buffer` (row-major, `S`'s shape over the block).
template <class S, bool Replace>
struct row_lowering {
    index_t r0, len;
    const void* buffer = nullptr;

    template <class N>
    auto lower(const N& n, int a) const {
        constexpr node_tag t = tag_of<N>;
        if constexpr (Replace && std::is_same_v<N, S>) {
            using T = typename N::value_type;
            shape_t s = n.shape();
            s[static_cast<std::size_t>(a)] = len;
            strides_t st = row_major_strides(s);
            return leaf<T, true>{{},
                                 static_cast<const T*>(buffer),
                                 std::move(s),
                                 std::move(st),
                                 nullptr,
                                 false,
                                 nullptr};
        } else if constexpr (t == node_tag::leaf) {
            using T = typename N::value_type;
            shape_t s = n.shape();
            const T* data = n.data;
            if (a >= 0) {
                data += r0 * n.strides()[static_cast<std::size_t>(a)];
                s[static_cast<std::size_t>(a)] = len;
            }
            return leaf<T, true>{
                {}, data, std::move(s), n.strides(), n.owner, true, n.base ? n.base : n.data};
        } else if constexpr (t == node_tag::scalar) {
            return n;
        } else if constexpr (t == node_tag::reduction) {
            auto c = lower(n.child, reduced_row_axis(n, a));
            shape_t s = n.shape();
            s[static_cast<std::size_t>(a)] = len;
            return reduction<typename N::reducer_type, decltype(c)>(
                std::move(c), n.axes, n.keepdims, n.flat, std::move(s));
        } else {
            static_assert(t == node_tag::elementwise);
            return [&]<std::size_t... I>(std::index_sequence<I...>) {
                return elementwise<typename N::op_type,
                                   decltype(lower(
                                       child<I>(n),
                                       child_row_axis(n.shape(), a, child<I>(n).shape())))...>(
                    lower(child<I>(n), child_row_axis(n.shape(), a, child<I>(n).shape()))...);
            }
            (std::make_index_sequence<child_count<N>>{});
        }
    }
};

/// The stored sub-expression over rows [r0, r0 + len): what the store loop computes.
template <class N>
auto lower_stored(const stored_node<N>& s, int axis, index_t r0, index_t len) {
    return row_lowering<stored_node<N>, false>{r0, len}.lower(s, axis);
}

/// The tree over rows [r0, r0 + len), reading the stored sub-expression from `buffer`.
template <class N>
auto lower_rows(const N& n, int root_axis, index_t r0, index_t len, const void* buffer) {
    return row_lowering<stored_node<N>, true>{r0, len, buffer}.lower(n, root_axis);
}

/// The destination's part of plan_row_blocks's decision, checked before anything is built
/// (the evaluation of a small softmax asks it every time): an expression of shape `node_shape`
/// into a destination of shape `shape` of at least two rows, `row_block_min_elements`
/// elements, and rows of at most `row_block_elements`.
FUSOR_DECL bool row_blocks_fit(const shape_t& node_shape, const shape_t& shape);

} // namespace planning

/// Decides whether `n` evaluates into `d` by blocks of rows (see the top of this file), and
/// plans what each block runs: the store loop of the shared sub-expression into the buffer
/// and the expression's loops over the block, for a full block and, when the rows do not
/// divide, the last one. The plans are made over block 0 (and the last block); every other
/// block has the same shapes and strides and differs only in where its rows start, which the
/// evaluator takes from the restricted tree. `notes`: filled for explain.
template <class N>
row_blocks plan_row_blocks(const N& n, const destination_ref& d, row_block_notes* notes = nullptr) {
    row_blocks b;
    if constexpr (planning::row_block_candidate<N>()) {
        using S = planning::stored_node<N>;
        using T = typename S::value_type;
        const shape_t& shape = d.shape;
        if (!planning::row_blocks_fit(n.shape(), shape))
            return b;
        const index_t rows = shape[0];
        const index_t row = shape_size(shape) / rows;
        const index_t block_rows = std::min(rows, std::max<index_t>(1, row_block_elements / row));
        const int root_axis = static_cast<int>(n.shape().size()) - static_cast<int>(shape.size());
        if (root_axis < 0 || n.shape()[static_cast<std::size_t>(root_axis)] != rows)
            return b;
        planning::row_check<S> check{rows};
        if (!check.walk(n, root_axis, false) || !check.first || check.inside == 0
            || check.outside == 0)
            return b;
        const auto [lo, hi] = bytes_touched(d.address, shape, d.strides, d.itemsize);
        if (lo && planning::reads_overlap(n, lo, hi))
            return b;
        b.applies = true;
        b.rows = rows;
        b.block_rows = block_rows;
        b.blocks = (rows + block_rows - 1) / block_rows;
        b.root_axis = root_axis;
        b.stored_axis = check.stored_axis;
        b.stored_dtype = dtype_name<T>();
        b.stored_itemsize = sizeof(T);
        b.stored_inside = check.inside;
        b.stored_outside = check.outside;
        if (threads_enabled && num_threads() > 1 && shape_size(shape) >= parallel_threshold)
            b.threads = static_cast<int>(std::min<index_t>(num_threads(), b.blocks));
        // The plans of one block of `len` rows: the buffer and the destination rows at block 0's
        // place (only shapes and strides matter to a plan, and the first rows stand for all).
        auto plan_block =
            [&](index_t len, loop_plan& store, loop_plan& block, plan_notes* sn, plan_notes* bn) {
                const auto s = planning::lower_stored<N>(*check.first, b.stored_axis, 0, len);
                const shape_t buffer_shape = s.shape();
                const strides_t buffer_strides = row_major_strides(buffer_shape);
                const destination_layout buffer{
                    buffer_shape, buffer_strides, nullptr, dtype_name<T>(), sizeof(T)};
                const auto m = planning::lower_rows(n, root_axis, 0, len, nullptr);
                shape_t rows_shape = shape;
                rows_shape[0] = len;
                const destination_layout out{rows_shape, d.strides, d.address, d.dtype, d.itemsize};
                store = sn ? make_plan(s, buffer, *sn) : make_plan(s, buffer);
                block = bn ? make_plan(m, out, *bn) : make_plan(m, out);
                return buffer_shape;
            };
        b.stored_shape = plan_block(block_rows,
                                    b.store,
                                    b.block,
                                    notes ? &notes->store : nullptr,
                                    notes ? &notes->block : nullptr);
        if (b.tail_rows() > 0)
            plan_block(b.tail_rows(),
                       b.store_tail,
                       b.block_tail,
                       notes ? &notes->store_tail : nullptr,
                       notes ? &notes->block_tail : nullptr);
    } else {
        (void)n, (void)d, (void)notes;
    }
    return b;
}

namespace planning {

/// A row-block cache slot's content: the key (plan_cache.hpp's `key_of`) and the decision made
/// for it, applying or not. One type for every expression type, as plan_cache_entry.
struct row_blocks_cache_entry {
    plan_key key;
    row_blocks blocks;
};

/// plan_row_blocks(n, d), from this thread's row-block cache when its last decision for `N`
/// was made for the same key (`key_of(n, d)`, compared as it is made; `hit` true), else decided
/// now and kept. A decision's four plans cost more to make than a small softmax costs to run;
/// the key is what they are made from (the operands, the destination's layout, the thread
/// cap), so a kept decision is the one plan_row_blocks would make, and results never depend on
/// the cache.
template <class N>
const row_blocks& cached_row_blocks(const N& n, const destination_ref& d, bool& hit) {
    auto& slot = cache_slot<row_blocks_cache_entry, N>();
    hit = holds_key_of(slot, n, d);
    if (hit) {
        // Only the destination's address may differ (it overlaps nothing, or the key would
        // hold it); each block's rows are passed to its plan when it runs, this keeps what an
        // observer sees equal to what plan_row_blocks would make now.
        row_blocks& b = slot->blocks;
        if (b.applies)
            retarget(b.block, d.address);
        if (b.applies && b.tail_rows() > 0)
            retarget(b.block_tail, d.address);
    } else {
        plan_key key = key_of(n, d);
        if (!slot)
            slot = std::make_unique<row_blocks_cache_entry>();
        slot->blocks = plan_row_blocks(n, d);
        slot->key = std::move(key);
    }
    return slot->blocks;
}

/// True when this thread's row-block cache holds the decision for evaluating `n` into `d`:
/// what explain reports.
template <class N>
bool row_blocks_are_cached(const N& n, const destination_ref& d) {
    return holds_key_of(cache_slot<row_blocks_cache_entry, N>(), n, d);
}

} // namespace planning

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/plan/row_blocks.ipp>
#endif
