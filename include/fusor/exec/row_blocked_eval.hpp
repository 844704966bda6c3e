// fusor/exec/row_blocked_eval.hpp: running a row_blocks decision (plan/row_blocks.hpp). Per
// block of rows: the shared sub-expression through the store plan into a block-sized buffer,
// then the tree restricted to the block, reading the buffer, through the block plan into the
// destination's rows. The plans were made once, over the first block (and the last); each block
// brings only its own tree, whose tensors start at its rows. Whole blocks are shared among
// threads; each thread has its own buffer, so the result does not depend on the thread count.
#pragma once

#include <algorithm>
#include <memory>

#include <fusor/core/shape.hpp>
#include <fusor/core/tail_slack.hpp>
#include <fusor/exec/scratch.hpp>
#include <fusor/exec/threads.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/plan/row_blocks.hpp>

namespace fusor::detail {

// Defined in exec/assign.hpp.
template <class D, class N>
void run_plan(
    const loop_plan& p, D* data, const shape_t& shape, const strides_t& strides, const N& n);

/// Evaluates `n` into the destination (`data`, `shape`, `strides`) block by block, as `b` (made
/// by plan_row_blocks for this tree and destination, `b.applies`) says.
template <class D, class N>
void evaluate_row_blocks(
    D* data, const shape_t& shape, const strides_t& strides, const N& n, const row_blocks& b) {
    using S = planning::stored_node<N>;
    using T = typename S::value_type;
    planning::row_check<S> check{b.rows};
    check.walk(n, b.root_axis, false); // finds the stored sub-expression (planning checked it)
    const S& stored = *check.first;
    const index_t buffer_size = shape_size(b.stored_shape);
    auto run = [&](T* buffer, index_t first, index_t last) {
        for (index_t k = first; k < last; ++k) {
            const index_t r0 = k * b.block_rows;
            const index_t len = std::min(b.block_rows, b.rows - r0);
            const bool tail = len != b.block_rows;
            const auto s = planning::lower_stored<N>(stored, b.stored_axis, r0, len);
            const shape_t& buffer_shape = s.shape();
            run_plan(tail ? b.store_tail : b.store,
                     buffer,
                     buffer_shape,
                     row_major_strides(buffer_shape),
                     s);
            const auto m = planning::lower_rows(n, b.root_axis, r0, len, buffer);
            shape_t rows_shape = shape;
            rows_shape[0] = len;
            run_plan(tail ? b.block_tail : b.block, data + r0 * strides[0], rows_shape, strides, m);
        }
    };
    // The block's stored rows are written and read by register loops: the slack after them
    // keeps a masked last register on a present page (core/tail_slack.hpp; scratch buffers have
    // it too).
    if (b.threads > 1) {
        auto make_buffer = [buffer_size] {
            return detail::allocate_with_tail_slack<T>(static_cast<std::size_t>(buffer_size));
        };
        exec::parallel_chunks(
            b.threads, b.blocks, 1, make_buffer, [&](auto& buffer, index_t first, index_t last) {
                run(buffer.get(), first, last);
            });
        return;
    }
    // On the calling thread, from its scratch pool: a softmax evaluated again in a loop
    // allocates no buffer (the plans' own scratch lives in stack order inside this one's).
    exec::scratch pool;
    run(pool.make<T>(static_cast<std::size_t>(buffer_size)), 0, b.blocks);
}

} // namespace fusor::detail
