// fusor/exec/execute.hpp: EXECUTE. Runs a plan: builds the evaluator (the per-element work)
// and hands the driver (driver.hpp, THE loop) the kernel the plan names. Each kernel is a leaf
// the driver calls once per block: an innermost loop, or two levels for the tiled and the
// two-rows-per-pass kernels.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fusor/config.hpp>
#include <fusor/core/convert.hpp>
#include <fusor/core/error.hpp>
#include <fusor/exec/arg_rows_kernel.hpp>
#include <fusor/exec/driver.hpp>
#include <fusor/exec/evaluator.hpp>
#include <fusor/exec/gemm.hpp>
#include <fusor/exec/index_buffer.hpp>
#include <fusor/exec/lane_vectors.hpp>
#include <fusor/exec/minmax_kernel.hpp>
#include <fusor/exec/register_sums.hpp>
#include <fusor/exec/rescaled_blocks.hpp>
#include <fusor/exec/scratch.hpp>
#include <fusor/exec/single_element.hpp>
#include <fusor/exec/small_gemm.hpp>
#include <fusor/exec/stream_stores.hpp>
#include <fusor/exec/temporary_pool.hpp>
#include <fusor/exec/threads.hpp>
#include <fusor/plan/kernel_choice.hpp>
#include <fusor/plan/loop_plan.hpp>
#include <fusor/reduce/reduction.hpp>
#include <fusor/tensor/tensor.hpp>

/// Test hook: a translation unit that defines `FUSOR_TRACE_KERNEL(plan, name)` before including
/// fusor sees the kernel each loop runs, named as explain's JSON `runs` names it.
#ifndef FUSOR_TRACE_KERNEL
#define FUSOR_TRACE_KERNEL(plan, name) ((void)0)
#define FUSOR_TRACE_KERNEL_IS_DEFAULT
#endif

namespace fusor::exec {

/// True in a translation unit that defines a trace hook: the evaluation then builds, beside
/// what runs, the expanded plan the hooks record (the path taken stays the same).
#if defined(FUSOR_TRACE_INNER_LOOP) || !defined(FUSOR_TRACE_KERNEL_IS_DEFAULT)
inline constexpr bool tracing = true;
#else
inline constexpr bool tracing = false;
#endif

namespace detail {
// The contiguous kernel: `n` elements, every operand at unit stride from its offset in `off`
// (the plain loop the compiler vectorises).
template <class D, class Ev>
FUSOR_INLINE void contiguous_inner_loop(D* out0, Ev& ev, const index_t* off, index_t n) {
    ev.bind(off);
    D* out = out0 + off[0];
    FUSOR_IVDEP
    for (index_t i = 0; i < n; ++i)
        out[i] = convert<D>(ev.template get<true>(i));
}

// The contiguous kernel with streaming stores (loop_plan::stream_block): the row's elements up
// to its first 64-byte boundary the ordinary way, then blocks of `block_bytes` (the plan's
// stream_block) computed into a buffer in the first-level cache (the same loop, the same values)
// and streamed out, then the tail the ordinary way. The caller fences (stream_fence) once its
// block of rows is done.
template <class D, class Ev>
FUSOR_INLINE void
streamed_inner_loop(D* out0, Ev& ev, const index_t* off, index_t n, index_t block_bytes) {
    ev.bind(off);
    D* out = out0 + off[0];
    index_t i = elements_to_line(out, n);
    for (index_t j = 0; j < i; ++j)
        out[j] = convert<D>(ev.template get<true>(j));
    constexpr index_t most = stream_block_bytes_one_operand / static_cast<index_t>(sizeof(D));
    static_assert(stream_block_bytes <= stream_block_bytes_one_operand);
    alignas(64) D buffer[most];
    const index_t block = block_bytes / static_cast<index_t>(sizeof(D));
    for (; i + block <= n; i += block) {
        FUSOR_IVDEP
        for (index_t j = 0; j < block; ++j)
            buffer[j] = convert<D>(ev.template get<true>(i + j));
        stream_copy(out + i, buffer, block_bytes);
    }
    for (; i < n; ++i)
        out[i] = convert<D>(ev.template get<true>(i));
}

// Each operand's stride one level out of the innermost: the step from one row of a two-level
// block to the next (contiguous_rows, blocked_rows, blocked_reduction); none unless
// `two_levels`. Inline in every mode: small, and called once per evaluation.
inline index_buffer row_steps(const loop_plan& p, bool two_levels) {
    index_buffer steps(two_levels ? p.operand_count : 0, 0);
    for (std::size_t k = 0; k < steps.size(); ++k)
        steps[k] = p.stride(k, p.extents.size() - 2);
    return steps;
}

// The contiguous kernel over a block of `b.rows` rows of `b.cols` (the two inner levels of a
// nest of two or more): the rows are stepped here, by each operand's stride one level out,
// instead of by the driver's odometer and a kernel call per row. For short rows that call was
// most of the time: (100000, 8) float64 `(x - m) / s` took 0.96 ms where the loop a
// programmer writes takes 0.29.
template <bool Streamed = false, class D, class Ev>
FUSOR_INLINE void
contiguous_rows(const loop_plan& p, D* out0, Ev& ev, const block& b, const index_t* row_step) {
    const std::size_t ops = p.operand_count;
    index_buffer off(b.offsets, ops);
    for (index_t r = 0; r < b.rows; ++r) {
        if constexpr (Streamed)
            streamed_inner_loop(out0, ev, off.data(), b.cols, p.stream_block);
        else
            contiguous_inner_loop(out0, ev, off.data(), b.cols);
        if (r + 1 < b.rows) // a one-level nest (one row) has no steps
            for (std::size_t k = 0; k < ops; ++k)
                off[k] += row_step[k];
    }
}

// The strided kernel over a block of rows, as contiguous_rows: each row read at every operand's
// own stride (`so`: the destination's), the rows stepped here. A call per row from the driver
// cost `c = transpose(a) + b` over (8, 8) float32 about 160 instructions a row of 8 elements.
template <class D, class Ev>
FUSOR_INLINE void strided_rows(
    const loop_plan& p, D* out0, Ev& ev, const block& b, const index_t* row_step, index_t so) {
    const std::size_t ops = p.operand_count;
    index_buffer off(b.offsets, ops);
    for (index_t r = 0; r < b.rows; ++r) {
        ev.bind(off.data());
        D* out = out0 + off[0];
        for (index_t i = 0; i < b.cols; ++i)
            out[i * so] = convert<D>(ev.template get<false>(i));
        if (r + 1 < b.rows) // a one-level nest (one row) has no steps
            for (std::size_t k = 0; k < ops; ++k)
                off[k] += row_step[k];
    }
}

#if FUSOR_MATH_IN_REGISTERS
// One block of the blocked kernel in the register form (the plan's math_in_registers): each
// register of the destination computed whole, loads, arithmetic and math functions, and
// stored; the partial register at the end through masked loads and a masked store.
// `Read`: block, or stride2 for the plan's stride2_in_registers (operands at stride 2 read a
// register at a time); execute_flat runs a flat plan's rows with `rows` (rows_in_registers).
// With `stride2` a whole register reads up to the element after its last lane's (plain loads:
// simd_isa::load_every), so unless the row goes on past the block (`followed`), the block's
// last register is a partial one, through masked loads, even when it is whole.
template <register_read Read, bool Twins, class D, class Ev>
FUSOR_INLINE void registers_loop(D* out, const Ev& ev, index_t len, bool followed) {
    constexpr index_t lanes = register_lanes<D>;
    const index_t last = Read == register_read::stride2 && !followed ? len - 1 : len;
    index_t i = 0;
    for (; i + lanes <= last; i += lanes)
        simd_isa::store(out + i, ev.template get_register<false, Read, Twins>(i, lanes));
    if (i < len)
        simd_isa::store_partial(
            out + i, ev.template get_register<true, Read, Twins>(i, len - i), len - i);
}
// Where every pair of leaves under one operation reads one operand alike (`a * a + b * b`), a
// loop that loads it once (elementwise_evaluator::twins_alike): `sqrt(a * a + b * b)` over
// 16,384 float32, 2.4 -> 1.6 us.
template <register_read Read, class D, class Ev>
FUSOR_INLINE void registers_run(D* out, const Ev& ev, index_t len, bool followed = false) {
    if constexpr (detail::holds_twins<Ev>()) {
        if (ev.twins_alike()) {
            registers_loop<Read, true>(out, ev, len, followed);
            return;
        }
    }
    registers_loop<Read, false>(out, ev, len, followed);
}
// The register loop over `len` elements of a bound evaluator, compiled once per evaluator type
// and called by the blocked kernel's blocks (registers_block) and by the flat case's inline
// loop (exec::execute_flat): one copy of the code for both, so the compiler's choices in it
// (which multiply and add it contracts into one fused multiply-add: g++ chose otherwise for
// `a * a + b * b` in the masked last register of a copy inlined elsewhere) and so the bits
// are the same. `ev` by value, a copy that no store reaches: a vector store may alias anything,
// so through a reference the loop reloaded leaves' pointers (and the test of leaves read twice,
// `x * x`) after every register it stored (`sqrt(a * b + a)` over 16,384 float32: 2.0 -> 1.5
// us).
template <register_read Read, class D, class Ev>
[[gnu::noinline]] void registers_call(D* out, const Ev ev, index_t len, bool followed) {
    static_assert(std::is_trivially_copyable_v<Ev>);
    registers_run<Read>(out, ev, len, followed);
}
// The row-broadcast case's rows (exec::execute_flat, math functions in registers): `rows` rows
// of `cols` elements, each bound (bind_row) and computed a register at a time, a column's
// element broadcast. One call for all the rows, not one per row: `exp(x - m)` over (8, 16)
// float32 copied its evaluator eight times. Not inlined, `ev` by value, as registers_call.
template <class D, class Ev>
[[gnu::noinline]] void registers_rows_call(D* out, Ev ev, index_t rows, index_t cols) {
    static_assert(std::is_trivially_copyable_v<Ev>);
    for (index_t r = 0; r < rows; ++r, out += cols) {
        ev.bind_row(r);
        registers_run<register_read::rows>(out, ev, cols);
    }
}
// A loop nest's block of `rows` rows of `cols` elements computed a register at a time (the
// plan's rows_in_registers): each row bound where it starts (`bind`: an operand still in the
// row points at its element, which register_read::rows broadcasts into a register), so there is
// no splat buffer to fill per row and no repeat buffer per block of rows. The rows stepped here,
// by each operand's stride one level out (`row_step`, none for a block of one row). Not inlined,
// `ev` by value, as registers_call.
template <class D, class Ev>
[[gnu::noinline]] void registers_nest_rows_call(D* out0,
                                                Ev ev,
                                                const index_t* offsets,
                                                std::size_t ops,
                                                const index_t* row_step,
                                                index_t rows,
                                                index_t cols) {
    static_assert(std::is_trivially_copyable_v<Ev>);
    index_buffer off(offsets, ops);
    for (index_t r = 0; r < rows; ++r) {
        ev.bind(off.data());
        registers_run<register_read::rows>(out0 + off[0], ev, cols);
        if (r + 1 < rows)
            for (std::size_t k = 0; k < ops; ++k)
                off[k] += row_step[k];
    }
}
template <register_read Read, class D, class Ev>
FUSOR_INLINE void registers_block(
    D* out, Ev& ev, const index_t* off, index_t start, index_t len, bool followed = false) {
    ev.bind_registers(off, start, len);
    if constexpr (std::is_trivially_copyable_v<Ev>) {
        registers_call<Read>(out, ev, len, followed);
    } else {
        registers_run<Read>(out, ev, len, followed); // a temporary's shared storage: no copy
    }
}
#endif

// The blocked kernel: blocks of `broadcast_block`, each the contiguous loop. Still operands
// read their splat buffer, moving ones their elements (MNN BinaryOp's stride-0 broadcast);
// vectorised math functions first compute their block (vector_math.hpp), or, when the plan
// says `registers` (math_in_registers), the whole expression is computed a register at a time.
// `so`: the destination's stride (1 but in a strided loop, whose operands off unit stride are
// gathered per block, or with `stride2`, the plan's stride2_in_registers, read a register at a
// time). `step`: the block length (the collapsed kernel's blocks are whole rows).
template <class D, class Ev>
FUSOR_INLINE void blocked_inner_loop(D* out0,
                                     Ev& ev,
                                     const index_t* off,
                                     index_t n,
                                     index_t so,
                                     index_t step = broadcast_block,
                                     bool registers = false,
                                     bool stride2 = false) {
    (void)registers, (void)stride2;
    for (index_t start = 0; start < n; start += step) {
        const index_t len = std::min(step, n - start);
        D* out = out0 + off[0] + start * so;
#if FUSOR_MATH_IN_REGISTERS
        if constexpr (computes_in_registers<D, Ev>) {
            if (registers) { // the planner checked that the destination is at unit stride
#if FUSOR_STRIDE2_IN_REGISTERS
                if (stride2) {
                    registers_block<register_read::stride2>(
                        out, ev, off, start, len, start + len < n);
                    continue;
                }
#endif
                registers_block<register_read::block>(out, ev, off, start, len);
                continue;
            }
        }
#endif
        if constexpr (computes_into_destination<D, Ev>) {
            if (so == 1) { // a math function at the root: computed in place, no copy pass
                ev.block_into(out, off, start, len);
                continue;
            }
        }
        ev.bind_block(off, start, len);
        if (so == 1) {
            FUSOR_IVDEP
            for (index_t i = 0; i < len; ++i)
                out[i] = convert<D>(ev.template get<true>(i));
        } else {
            for (index_t i = 0; i < len; ++i)
                out[i * so] = convert<D>(ev.template get<true>(i));
        }
    }
}

// The collapsed kernel over a block of `rows` rows of `cols` (inner_kernel::collapsed): one
// loop of rows * cols in blocks of whole rows; row operands read their repeated-row buffer.
template <class D, class Ev>
FUSOR_INLINE void collapsed_rows(
    D* out0, Ev& ev, const index_t* off, index_t rows, index_t cols, bool registers = false) {
    blocked_inner_loop(out0, ev, off, rows * cols, 1, collapse_block(cols), registers);
}

// The blocked kernel over a block of `b.rows` rows of `b.cols`, the rows stepped here by
// `row_step` (each operand's stride one level out) as in contiguous_rows, or, `collapsed`,
// the rows as one loop in blocks of whole rows (collapsed_rows). With a driver call per row
// (the odometer, the call, the kernel switch) (512, 16) float32 `(x - m) / s`, m and s of
// shape (512, 1), took 9.0-14.5 us, with the rows stepped here 5.7-5.9 (the loop a programmer
// writes: 1.2).
template <class D, class Ev>
FUSOR_INLINE void blocked_rows(const loop_plan& p,
                               D* out0,
                               Ev& ev,
                               const block& b,
                               const index_t* row_step,
                               bool collapsed,
                               bool registers,
                               bool stride2) {
    const std::size_t ops = p.operand_count;
    index_buffer off(b.offsets, ops);
    const index_t rows = collapsed ? 1 : b.rows;
    for (index_t r = 0; r < rows; ++r) {
        blocked_inner_loop(out0,
                           ev,
                           off.data(),
                           collapsed ? b.rows * b.cols : b.cols,
                           1,
                           collapsed ? collapse_block(b.cols) : broadcast_block,
                           registers,
                           stride2 && !collapsed);
        if (r + 1 < rows)
            for (std::size_t k = 0; k < ops; ++k)
                off[k] += row_step[k];
    }
}

// What the tile walker calls: `stage(ctx, offsets, rows, cols, pitch)` once per tile, `row(ctx,
// offsets, n)` once per row of it (once per tile when the plan's tiles are packed). Plain
// function pointers: the walker is compiled once, not once per expression type.
struct tile_callbacks {
    void* context;
    void (*stage)(void*, const index_t*, index_t, index_t, index_t);
    void (*row)(void*, const index_t*, index_t);
};

// The tiled kernel over one block of the two innermost levels: tiles of tile_rows x tile_cols;
// operands off unit stride are staged per tile and read at offset r * tile_cols of their
// buffer in row r, the others at their own offsets. A packed plan's tiles (loop_plan::
// tile_packed) are whole rows, staged one row after another, and each is one row call.
FUSOR_DECL void tile_block(const loop_plan& p, const block& b, const tile_callbacks& cb);

// The contiguous kernel with tensor leaf I of `ev` held in a register; two levels per call, the
// rows stepped here (contiguous_rows), when the nest has them.
template <int I, class D, class Ev>
void run_held(const loop_plan& p, D* out0, const Ev& ev) {
    auto held = hold_leaf<I>(ev);
    const std::size_t levels = p.extents.size();
    const index_buffer row_step = row_steps(p, levels >= 2);
    auto kernel = [&p, out0, &row_step](auto& e, const block& b) {
        contiguous_rows(p, out0, e, b, row_step.data());
    };
    run_loop_nest(p, levels >= 2 ? 2 : 1, held, kernel);
}

// The blocked kernel (broadcast, or vector math; `so`: the destination's stride) or, for the
// collapsed kernel, rows of `b.cols` as one loop in blocks of whole rows (as collapsed_rows):
// one kernel for the three, so one instantiation per evaluator type, and one call of the
// (always inlined) block loop, so one copy of it (two calls had made two: 2.4 KB of code per
// expression type at -O2).
template <class D, class Ev>
void run_blocked(const loop_plan& p, D* const out0, Ev& ev, index_t so = 1) {
#if FUSOR_MATH_IN_REGISTERS
    if constexpr (computes_in_registers<D, Ev> && std::is_trivially_copyable_v<Ev>) {
        if (p.rows_in_registers) { // planning::choose_math_in_registers: rows of unit or 0 stride
            const bool two = p.extents.size() >= 2;
            const index_buffer row_step = row_steps(p, two);
            auto kernel = [&p, out0, &row_step](Ev& ev, const block& b) {
                registers_nest_rows_call(
                    out0, ev, b.offsets, p.operand_count, row_step.data(), b.rows, b.cols);
            };
            run_loop_nest(p, two ? 2 : 1, ev, kernel);
            return;
        }
    }
#endif
    const bool collapsed = p.kernel == inner_kernel::collapsed;
    const bool registers = p.math_in_registers, stride2 = p.stride2_in_registers;
    const std::size_t levels = p.extents.size();
    // Two levels per call, the rows stepped in blocked_rows, where the destination's inner
    // stride is 1 (not the strided kernel's loops).
    const bool by_rows =
        (p.kernel == inner_kernel::contiguous || p.kernel == inner_kernel::broadcast) && levels >= 2
        && so == 1;
    const index_buffer row_step = row_steps(p, by_rows);
    auto kernel = [&p, out0, so, collapsed, by_rows, &row_step, registers, stride2](
                      Ev& ev, const block& b) {
        if (collapsed || by_rows) {
            blocked_rows(p, out0, ev, b, row_step.data(), collapsed, registers, stride2);
            return;
        }
        blocked_inner_loop(out0, ev, b.offsets, b.cols, so, broadcast_block, registers, stride2);
    };
    run_loop_nest(p, collapsed || by_rows ? 2 : 1, ev, kernel);
}

// The depth-first ordinal, among the tensor operands, of operand `k` (a flat tree's operands
// after the destination are its leaves and scalars, depth-first).
FUSOR_DECL int tensor_ordinal(const loop_plan& p, int k);
} // namespace detail

namespace detail {
/// How many held kernels a loop over `E` compiles (run_elementwise_kernel's `Held`): the
/// planner's held_candidates of a node, one for a copy loop's temporary (`computed`,
/// planning::choose_copy_kernel).
template <class E>
inline constexpr int held_kernels = planning::held_candidates<E>;
template <class T>
inline constexpr int held_kernels<computed<T>> = 1;

/// The kernels over a built evaluator `ev`, switched on the plan's kernel. A template of the
/// evaluator's type only (not the expression's): the copy loop of an aliased assignment
/// (`computed`, whose evaluator reads a temporary) is compiled once per pair of element
/// types, not once per right-hand side. `Held`: planning::held_candidates of the expression.
///
/// One block function switches on the kernel, so the driver's call, the thread split's state
/// and the nest call are compiled once per evaluator type, not once per kernel (five kernels
/// had made five of each). The held kernel reads another evaluator type (a leaf in a
/// register), so it keeps its own.
template <int Held, class D, class Ev>
void run_elementwise_kernel(const loop_plan& p, D* const out0, Ev& ev) {
    const inner_kernel kind = p.kernel;
    if constexpr (Held > 0) {
        if (kind == inner_kernel::broadcast && p.held_operand >= 0) {
            FUSOR_TRACE_KERNEL(p, "held");
            const int held = tensor_ordinal(p, p.held_operand);
            [&]<int... I>(std::integer_sequence<int, I...>) {
                (void)((held == I && (run_held<I>(p, out0, ev), true)) || ...);
            }
            (std::make_integer_sequence<int, Held>{});
            return;
        }
    }
    FUSOR_TRACE_KERNEL(p, p.stream_block ? "contiguous_streamed" : inner_kernel_name(kind));
    const std::size_t levels = p.extents.size();
    // contiguous, broadcast and strided: each operand's step one level out, for two levels per
    // call (detail::contiguous_rows, detail::blocked_rows, detail::strided_rows) when the nest
    // has them; a nest of one level is one row.
    const bool by_rows = (kind == inner_kernel::contiguous || kind == inner_kernel::broadcast
                          || kind == inner_kernel::strided)
                         && levels >= 2;
    const index_buffer row_step = row_steps(p, by_rows);
    // strided: the destination's stride.
    const index_t so = kind == inner_kernel::strided && levels ? p.stride(0, levels - 1) : 1;
    const bool registers = p.math_in_registers, stride2 = p.stride2_in_registers;
    int depth = 1;
    if (kind == inner_kernel::tiled || kind == inner_kernel::collapsed || by_rows)
        depth = 2;
    const bool streamed = p.stream_block != 0;
    auto kernel = [&p, out0, kind, &row_step, so, registers, stride2, streamed](Ev& ev,
                                                                                const block& b) {
        switch (kind) {
        case inner_kernel::contiguous:
            if (FUSOR_STREAM_STORES && streamed) {
                contiguous_rows<true>(p, out0, ev, b, row_step.data());
                stream_fence();
                return;
            }
            contiguous_rows(p, out0, ev, b, row_step.data());
            return;
        case inner_kernel::broadcast:
        case inner_kernel::collapsed: // as run_blocked: one call, so one inlined copy
            blocked_rows(p,
                         out0,
                         ev,
                         b,
                         row_step.data(),
                         kind == inner_kernel::collapsed,
                         registers,
                         stride2);
            return;
        case inner_kernel::tiled: {
            struct context {
                Ev* ev;
                D* out0;
            } ctx{&ev, out0};
            const tile_callbacks cb{
                &ctx,
                [](void* c, const index_t* off, index_t rows, index_t cols, index_t pitch) {
                    static_cast<context*>(c)->ev->stage(off, rows, cols, pitch);
                },
                [](void* c, const index_t* off, index_t n) {
                    auto* x = static_cast<context*>(c);
                    contiguous_inner_loop(x->out0, *x->ev, off, n);
                }};
            tile_block(p, b, cb);
            return;
        }
        case inner_kernel::strided:
            strided_rows(p, out0, ev, b, row_step.data(), so);
            return;
        }
    };
    run_loop_nest(p, depth, ev, kernel);
}
} // namespace detail

/// Runs an element-wise plan: `dest_base` is operand 0's data pointer; `cache` holds the
/// temporaries already computed in this evaluation. The kernel is the plan's
/// (plan/kernel_choice.hpp): blocked vector math, contiguous, broadcast (a held operand, or
/// splatted blocks), tiled or strided.
template <class D, class E>
void execute_elementwise(const loop_plan& p, D* dest_base, const E& e, temporary_cache& cache) {
    D* const out0 = dest_base + p.offset(0);
    if constexpr (has_vector_math<E>) {
        scratch buffers;
        // choose_elementwise_kernel names the math functions of every plan with a loop to run;
        // it leaves an empty plan and a 0-d one (one element) without, and that element is
        // computed by the scalar functions, as it always was. Only that loop is compiled for
        // them: the contiguous, broadcast, held, tiled and strided kernels over scalar math
        // (about 5 KB of code per expression type, g++ -O2) could run nothing else.
        // Each kernel traced once the evaluator is built: building it computes the loop's
        // temporaries (their loops run, and are traced, first).
        if (p.vector_functions.empty() && (p.empty || p.levels() == 0)) {
            auto ev = evaluator_builder<false>{&p, cache, buffers}.build(e);
            FUSOR_TRACE_KERNEL(p, inner_kernel_name(p.kernel));
            auto element = [out0](decltype(ev)& ev, const block& b) {
                detail::contiguous_inner_loop(out0, ev, b.offsets, b.cols);
            };
            detail::nest_call<decltype(ev), decltype(element)> call{&ev, &element};
            drive(p, 1, 0, 1, &decltype(call)::run, &call);
            return;
        }
        auto ev = evaluator_builder<true>{&p, cache, buffers}.build(e);
        FUSOR_TRACE_KERNEL(p,
                           !p.math_in_registers     ? "blocked"
                           : p.stride2_in_registers ? "registers_stride2"
                                                    : "registers");
#if FUSOR_MATH_IN_REGISTERS
        // Whatever the planner may mark math_in_registers, this evaluator can run so.
        static_assert(
            !planning::register_form<E, typename E::value_type> || in_registers_v<decltype(ev)>);
#endif
        detail::run_blocked(p, out0, ev, p.levels() ? p.stride(0, p.levels() - 1) : 1);
    } else {
        scratch buffers;
        auto ev = evaluator_builder<false>{&p, cache, buffers}.build(e);
        detail::run_elementwise_kernel<detail::held_kernels<E>>(p, out0, ev);
    }
}

namespace detail {
// A flat plan's row `r` of `cols` elements as the inner-loop trace hook records it: every
// operand's offset in the expanded plan `traced` (nothing without the hook).
// Inline in every mode: the translation unit's trace hook (FUSOR_TRACE_INNER_LOOP), and a call
// per row where there is none.
inline void trace_flat_row(const loop_plan* traced, index_t r, index_t cols) {
#ifdef FUSOR_TRACE_INNER_LOOP
    detail::index_buffer offsets(traced->operand_count, 0);
    if (traced->levels() == 2)
        for (std::size_t k = 0; k < offsets.size(); ++k)
            offsets[k] = r * traced->stride(k, 0);
    FUSOR_TRACE_INNER_LOOP(*traced, offsets.data(), cols);
#else
    (void)traced, (void)r, (void)cols;
#endif
}
} // namespace detail

/// Runs a flat plan whose `inline_loop` is set: the contiguous kernel over `f.cols` elements,
/// once per row (`f.rows`; 1 in the flat case), called directly: the nest is one level, or two
/// whose outer level only moves pointers, and a plan this small has nothing to split.
/// `traced`: the expanded plan, for the trace hooks only (null when nothing traces).
template <class D, class E>
FUSOR_INLINE void execute_flat(const flat_plan& f, D* out, const E& e, const loop_plan* traced) {
    (void)traced;
#if FUSOR_MATH_IN_REGISTERS
    constexpr bool math_in_registers = planning::flat_math_register_form<E>;
    if constexpr (math_in_registers && std::is_same_v<D, typename E::value_type>) {
        // The flat case with math functions (planning::plan_flat_math): one row, a register at
        // a time, each function on the register its argument computes, by the loop the expanded
        // plan's blocked kernel runs in registers (math_in_registers: registers_call, the same
        // code, so the same bits), without its driver and buffers.
        FUSOR_TRACE_KERNEL(*traced, "registers");
        if constexpr (planning::rows_math_register_form<E>) {
            if ((f.still | f.column) != 0) {
                // The row-broadcast case (planning::is_flat_rows_case): a row at a time, a
                // column's element broadcast into a register as it is read (no splat buffer).
                basic_flat_evaluator_builder<true> b{f.still, f.cols, 0, nullptr, f.column};
                b.broadcast_columns = true;
                auto ev = b.build(e);
                static_assert(in_registers_v<decltype(ev)>);
                for (index_t r = 0; r < f.rows; ++r)
                    detail::trace_flat_row(traced, r, f.cols);
                detail::registers_rows_call(out, ev, f.rows, f.cols);
                return;
            }
        }
        auto ev = basic_flat_evaluator_builder<true>{0, f.cols}.build(e);
        static_assert(in_registers_v<decltype(ev)>);
        detail::trace_flat_row(traced, 0, f.cols);
        detail::registers_call<register_read::block>(out, ev, f.cols, false);
        return;
    }
    if constexpr (planning::rows_register_form<E> && std::is_same_v<D, typename E::value_type>) {
        if (f.rows_in_registers) {
            // Each row a register at a time, its tail masked; a column's element broadcast
            // into a register as it is read (no splat buffer).
            FUSOR_TRACE_KERNEL(*traced, "row_registers");
            flat_evaluator_builder b{f.still, f.cols, 0, nullptr, f.column};
            b.broadcast_columns = true;
            auto ev = b.build(e);
            static_assert(in_registers_v<decltype(ev)>);
            D* o = out;
            for (index_t r = 0; r < f.rows; ++r, o += f.cols) {
                detail::trace_flat_row(traced, r, f.cols);
                ev.bind_row(r);
                detail::registers_run<register_read::rows>(o, ev, f.cols);
            }
            return;
        }
    }
#endif
    if (f.collapsed) {
        // Short rows: one loop in blocks of whole rows, each row leaf read from a buffer of its
        // row repeated, each column leaf from one of its elements each repeated over its row
        // (the collapsed kernel, as the plan says).
        FUSOR_TRACE_KERNEL(*traced, "collapsed");
        for (index_t r = 0; r < f.rows; ++r)
            detail::trace_flat_row(traced, r, f.cols);
        scratch buffers;
        auto ev = flat_evaluator_builder{f.still, f.cols, 0, &buffers, f.column}.build(e);
        const index_t zero = 0; // every flat leaf's offset
        detail::collapsed_rows(out, ev, &zero, f.rows, f.cols);
        return;
    }
    // Columns (one element per row) are splatted per row, as the broadcast kernel does. The
    // loop is compiled twice, with and without splat buffers: without, the leaves' splat test
    // folds away (one loop for both, the pool made lazily, cost `c = a * b + d` 2.2 ns of 30
    // at 4 elements).
    FUSOR_TRACE_KERNEL(
        *traced, inner_kernel_name(f.column ? inner_kernel::broadcast : inner_kernel::contiguous));
    // Row 0 bound before the loop (a tensor leaf is built bound to it), each next row after
    // the one before: the flat case (one row) binds nothing (`c = a * b + d` over 64 float32:
    // 360 -> 337 instructions; `c = a * row + 1` over (8, 8): 649 -> 577).
    auto rows = [&f, out, traced](auto& ev) FUSOR_FORWARD_LAMBDA {
        D* o = out;
        for (index_t r = 0;;) {
            detail::trace_flat_row(traced, r, f.cols);
            FUSOR_IVDEP
            for (index_t i = 0; i < f.cols; ++i)
                o[i] = convert<D>(ev.template get<true>(i));
            if (++r == f.rows)
                return;
            o += f.cols;
            ev.bind_row(r);
        }
    };
    if (f.column != 0) {
        scratch buffers;
        auto ev = flat_evaluator_builder{f.still, f.cols, 0, nullptr, f.column, &buffers}.build(e);
        ev.bind_row(0); // a column's splat buffer
        rows(ev);
        return;
    }
    auto ev = flat_evaluator_builder{f.still, f.cols}.build(e);
    rows(ev);
}

/// As above, for an evaluation of its own.
template <class D, class E>
void execute_elementwise(const loop_plan& p, D* dest_base, const E& e) {
    temporary_cache cache;
    execute_elementwise(p, dest_base, e, cache);
}

template <class E>
void evaluate_elementwise(const E& e,
                          const loop_plan& p,
                          tensor<typename E::value_type>& t,
                          temporary_cache& cache) {
    execute_elementwise(p, t.data(), e, cache);
}

/// Runs the plan of an aliased assignment (loop_plan::alias_copy): `e` computed into a fresh
/// tensor by the plan's only boundary (with `e`'s own kernels, those of an assignment without
/// aliasing), then the copy loop `p` from it into the destination. The copy loop is a template
/// of the element types only (`computed`), compiled once per pair of them.
template <class D, class E>
void execute_alias_copy(const loop_plan& p, D* dest_base, const E& e, temporary_cache& cache) {
    using T = typename E::value_type;
    execute_elementwise(
        p, dest_base, computed<T>{boundary_result(e, p.boundaries.front(), cache)}, cache);
}

/// As above, for an evaluation of its own.
template <class D, class E>
void execute_alias_copy(const loop_plan& p, D* dest_base, const E& e) {
    temporary_cache cache;
    execute_alias_copy(p, dest_base, e, cache);
}

namespace detail {

// Pairwise summation in double, after NumPy's (numpy/core/src/umath/loops_utils.h.src): below
// 8 terms a plain loop; a block of up to `pairwise_block` terms goes into L interleaved partial
// sums combined as a balanced tree; longer runs split in halves at a multiple of 32 and
// recurse. NumPy's L = 8 lanes are one dependency chain once they fit one AVX-512 register of
// doubles (an add's latency per 8 terms), so blocks of 512 terms or more use L = 32 (four
// independent chains), in blocks of up to 4,096 so that the tree is paid rarely: the sum of
// 16,384 float32 products went from 1,645 to ~860 ns (perf: the 32-lane tree cost a quarter of
// the time with blocks of 1,024). Shorter blocks keep NumPy's 8 lanes and tree, and their bits
// (rows of 256 were 5 % slower with 32 lanes). Every partial sum is a double: a lane adds at
// most 128 terms in order, an error of at most 128 double eps of the sum of magnitudes, far
// below float32's rounding (tests/reduce/test_accuracy.cpp).
inline constexpr index_t pairwise_block = 4096;

// How a register accumulation reads its run: `block` elements at a time, each block made
// readable by `bind(first, len)` (elements [first, first + len) of the run), which returns the
// index `get` reads the block's first element at. A plain evaluator reads the run as one block
// (whole_run); the blocked reduction binds blocks of `broadcast_block` (blocked_run: still
// operands splatted, vectorised math functions computed over the block first). Blocks start at
// multiples of `broadcast_block`, a multiple of every lane count below, so the lanes take the
// same elements in the same order and the sums have the same bits either way.
struct whole_run {
    FUSOR_INLINE index_t operator()(index_t first, index_t) const { return first; }
};
template <class Ev>
struct blocked_run {
    static constexpr index_t block = broadcast_block;
    Ev& ev;
    const index_t* offsets;
    FUSOR_INLINE index_t operator()(index_t first, index_t len) const {
        ev.bind_block(offsets, first, len);
        return 0;
    }
};
// A run inside a block already bound, from its element `at` (the collapsed reduction's runs:
// blocked_reduction). Its runs are rows of at most collapse_max_cols elements (the planner
// collapses no longer ones: collapses()), so always one block and NumPy's 8 lanes: the sums over
// it compile neither the block loop nor the 32 lanes and halves of longer runs, code no plan can
// run (about 6 KB per reduction type at -O3).
struct bound_run {
    static constexpr index_t block = broadcast_block;
    static constexpr bool one_short_block = true;
    index_t at;
    FUSOR_INLINE index_t operator()(index_t first, index_t) const { return at + first; }
};
static_assert(collapse_max_cols <= pairwise_rows_max_run && collapse_max_cols < float_lane_min_run
              && collapse_max_cols <= broadcast_block);
// Whether `Run`'s runs are one block of at most collapse_max_cols elements (bound_run).
template <class Run>
inline constexpr bool one_short_block = requires {
    requires Run::one_short_block;
};

// Whether the plan's pairwise_simd (planning::sum_terms_in_registers of the node) can run over
// evaluator `Ev`: it has the register form and computes float32. The planner's test on the node
// implies this one; were it not to hold, the plain pairwise loop would run, with the same bits.
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class Impl, class Ev>
inline constexpr bool sum_in_registers =
    FUSOR_SUM_IN_REGISTERS && in_registers_v<Ev>
    && std::is_same_v<decltype(std::declval<const Ev&>().template get<true>(0)), float>;
// clang-format on

// `Registers`: the plan's pairwise_simd (a float32 run in the register form, read whole): the
// lanes a 512-bit register at a time (exec/register_sums.hpp), the same values in each lane.
template <index_t L, class Impl, bool Contiguous, bool Registers, class Ev, class Run>
double pairwise_block_sum(const Ev& ev, index_t begin, index_t n, Run run) {
    const index_t lanes_end = n - n % L; // the lanes take whole groups of L; the rest is the tail
#if FUSOR_SUM_IN_REGISTERS
    if constexpr (Registers) {
        double s = register_lanes_sum<L>(ev, begin, n);
        for (index_t i = lanes_end; i < n; ++i) // the tail
            s += Impl::term(ev.template get<true>(begin + i));
        return s;
    }
#endif
    double r[L] = {}; // every lane is set by the first block (zeroed: g++ cannot tell)
    index_t at = 0, len = 0, i = 0;
    // The lanes over the block of `len` elements at `start` of the run, bound at `at`.
    auto lanes = [&](index_t start) FUSOR_INLINE_LAMBDA {
        i = 0;
        if (start == 0) {
            for (index_t j = 0; j < L; ++j)
                r[j] = Impl::term(ev.template get<Contiguous>(at + j));
            i = L;
        }
        const index_t groups_end = std::min(len, lanes_end - start);
        for (; i + L <= groups_end; i += L)
            for (index_t j = 0; j < L; ++j)
                r[j] += Impl::term(ev.template get<Contiguous>(at + i + j));
    };
    if constexpr (std::is_same_v<Run, whole_run>) {
        len = n;
        at = begin;
        lanes(0);
    } else if (one_short_block<Run> || n <= Run::block) {
        // One block (every row of up to broadcast_block): the same lanes, with the block loop
        // and its first-block test out of the way g++ vectorises them (in the loop below it
        // kept eight scalar chains: sum((x - m) * (x - m), 1) over (4096, 256) float32, m a
        // column, 1.07 ms against 0.25-0.33).
        len = n;
        at = run(begin, n);
        lanes(0);
    } else if constexpr (!one_short_block<Run>) {
        for (index_t start = 0; start < n; start += Run::block) {
            len = std::min(Run::block, n - start);
            at = run(begin + start, len);
            lanes(start);
        }
    }
    double s;
    if constexpr (L == 8) { // NumPy's tree, so that rows under 512 keep their bits
        s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    } else { // a balanced tree of halves, which vectorises: r[j] += r[j + L/2] ...
        for (index_t width = L / 2; width > 0; width /= 2)
            for (index_t j = 0; j < width; ++j)
                r[j] += r[j + width];
        s = r[0];
    }
    for (; i < len; ++i) // the tail, in the last block (still bound)
        s += Impl::term(ev.template get<Contiguous>(at + i));
    return s;
}

// A float32 sum's, mean's or contraction's long run (`float_lanes`): 32 float lanes, each adding
// at most `float_lane_depth` terms before its partial sum joins a double lane, so the adds run at
// float32's SIMD width while every term is summed in float with at most 15 others (NumPy's
// pairwise sum adds 16 in each of its 8 partial sums and then those in float; its einsum adds
// all of them in float). The terms are the elements as they are (sum, mean: term(v) is v). The
// double lanes are then added as a balanced tree (d[j] += d[j + w] for w = 16, 8 ... 1).
//
// Lane j is element j % width of vector j / width (lane_vectors, one register each): as plain
// arrays g++ 12 kept the 32 double lanes on the stack and ran the tree as a loop of loads and
// stores that waited on each other, a third of a 64-term dot's time (einsum "ijk,ik->ij" over
// (64, 64, 64)). The same adds of the same lanes in the same order: the same bits.
inline constexpr index_t float_lane_depth = 16;
template <bool Contiguous, class Ev, class Run>
double float_lane_sum(const Ev& ev, index_t begin, index_t n, Run run) {
    constexpr index_t L = 32;
    using flanes = lane_vectors<float, L>;
    using dlanes = lane_vectors<double, L>;
    constexpr index_t FW = flanes::width, FK = flanes::count, DW = dlanes::width;
    static_assert(FW == 2 * DW && dlanes::count == 2 * FK);
    using fvec = typename flanes::vector;
    using dvec = typename dlanes::vector;
    using float_lane = std::make_integer_sequence<index_t, FW>;
    using double_lane = std::make_integer_sequence<index_t, DW>;
    // The FW products at `at`, as one vector.
    const auto products = [&]<index_t... J>(index_t at, std::integer_sequence<index_t, J...>)
        FUSOR_INLINE_LAMBDA {
        return fvec{ev.template get<Contiguous>(at + J)...};
    };
    // f's lanes [0, DW) (H = 0) or [DW, FW) (H = 1), as doubles (exact).
    const auto half = []<index_t H, index_t... J>(
        fvec f, std::integral_constant<index_t, H>, std::integer_sequence<index_t, J...>)
        FUSOR_INLINE_LAMBDA {
        return __builtin_convertvector(__builtin_shufflevector(f, f, (H * DW + J)...), dvec);
    };
    dvec d[2 * FK] = {};
    double tail = 0.0;
    auto consume = [&](index_t at, index_t len) FUSOR_INLINE_LAMBDA {
        const index_t groups_end = len - len % L;
        index_t i = 0;
        while (i < groups_end) {
            fvec f[FK] = {};
            const index_t stop = std::min(groups_end, i + L * float_lane_depth);
            for (; i < stop; i += L)
                for (index_t k = 0; k < FK; ++k)
                    f[k] += products(at + i + k * FW, float_lane{});
            for (index_t k = 0; k < FK; ++k) {
                d[2 * k] += half(f[k], std::integral_constant<index_t, 0>{}, double_lane{});
                d[2 * k + 1] += half(f[k], std::integral_constant<index_t, 1>{}, double_lane{});
            }
        }
        for (; i < len; ++i)
            tail += static_cast<double>(ev.template get<Contiguous>(at + i));
    };
    if constexpr (std::is_same_v<Run, whole_run>) {
        consume(begin, n);
    } else {
        for (index_t start = 0; start < n; start += Run::block) {
            const index_t len = std::min(Run::block, n - start);
            consume(run(begin + start, len), len);
        }
    }
    // The tree: whole vectors while w spans them, then within the first vector.
    for (index_t w = L / 2; w >= DW; w /= 2)
        for (index_t m = 0; m < w / DW; ++m)
            d[m] += d[m + w / DW];
    // Then w = DW / 2 ... 1 within d[0]: lane j < w takes d[0][j] + d[0][j + w] (the lanes
    // above are not read again).
    dvec r = d[0];
    const auto fold =
        [&r]<index_t W, index_t... J>(std::integral_constant<index_t, W>,
                                      std::integer_sequence<index_t, J...>) FUSOR_INLINE_LAMBDA {
        r += __builtin_shufflevector(r, r, ((J + W) % DW)...);
    };
    if constexpr (DW >= 8)
        fold(std::integral_constant<index_t, 4>{}, double_lane{});
    if constexpr (DW >= 4)
        fold(std::integral_constant<index_t, 2>{}, double_lane{});
    fold(std::integral_constant<index_t, 1>{}, double_lane{});
    return r[0] + tail;
}

#if FUSOR_SUM_IN_REGISTERS
// float_lane_sum's lanes, adds, tree and tail over a run of `n` terms of `ev` from `begin`, each
// group's 16 terms computed a register at a time (ev.get_register, read as `Read` says: `rows`,
// a column's element broadcast into the register instead of splatted into a buffer): float
// lane j of group g is element 32g + j, the float64 lanes the halves of the two float
// registers, so the same adds of the same values in the same order: the same bits.
// reduce_kernel::float_lanes_simd (a flat reduction's runs with columns, one at a time: with 2,
// 4 or 8 runs' chains of adds interleaved, sum((x - m) * (x - m), 1) over (64, 256) took
// 1.2 times as long).
template <class Impl, bool Twins, register_read Read, class Ev>
double register_float_lanes_loop(const Ev& ev, index_t begin, index_t n) {
    static_assert(lane_vectors<float, 32>::width == 16 && lane_vectors<double, 32>::width == 8);
    const auto whole = [&](index_t i) FUSOR_INLINE_LAMBDA {
        return ev.template get_register<false, Read, Twins>(begin + i, 16);
    };
    const index_t groups_end = n - n % 32;
    __m512d d0 = _mm512_setzero_pd(), d1 = d0, d2 = d0, d3 = d0;
    index_t i = 0;
    while (i < groups_end) {
        __m512 f0 = _mm512_setzero_ps(), f1 = f0;
        const index_t stop = std::min(groups_end, i + 32 * float_lane_depth);
        for (; i < stop; i += 32) {
            f0 = _mm512_add_ps(f0, whole(i));
            f1 = _mm512_add_ps(f1, whole(i + 16));
        }
        d0 = _mm512_add_pd(d0, float64_half<0>(f0));
        d1 = _mm512_add_pd(d1, float64_half<1>(f0));
        d2 = _mm512_add_pd(d2, float64_half<0>(f1));
        d3 = _mm512_add_pd(d3, float64_half<1>(f1));
    }
    double tail = 0.0; // fewer than 32 terms, one at a time in order
    for (index_t t = groups_end; t < n; t += 16) {
        const index_t len = std::min<index_t>(16, n - t);
        tail = add_terms_in_order<Impl>(
            tail, ev.template get_register<true, Read, Twins>(begin + t, len), len);
    }
    return lanes32_tree(d0, d1, d2, d3) + tail; // float_lane_sum's tree
}
// The same, loading an operand read twice once where the evaluator's twins read alike.
template <class Impl, register_read Read, class Ev>
double register_float_lane_sum(const Ev& ev, index_t begin, index_t n) {
    if constexpr (holds_twins<Ev>())
        if (ev.twins_alike())
            return register_float_lanes_loop<Impl, true, Read>(ev, begin, n);
    return register_float_lanes_loop<Impl, false, Read>(ev, begin, n);
}
#endif

template <class Impl, bool Contiguous, bool Registers = false, class Ev, class Run = whole_run>
double pairwise_terms(const Ev& ev, index_t begin, index_t n, Run run = {}) {
    static_assert(!Registers || (Contiguous && std::is_same_v<Run, whole_run>));
    if constexpr (planning::float_lane_reducer<Impl> && !one_short_block<Run>)
        if (n >= planning::float_lane_min_run_for<Impl>) // reduce_kernel::float_lanes
            return float_lane_sum<Contiguous>(ev, begin, n, run);
    if (n < 8) {
        const index_t at = run(begin, n);
        double s = 0.0;
        for (index_t i = 0; i < n; ++i)
            s += Impl::term(ev.template get<Contiguous>(at + i));
        return s;
    }
    if constexpr (one_short_block<Run>) { // 8 to collapse_max_cols terms
        return pairwise_block_sum<8, Impl, Contiguous, Registers>(ev, begin, n, run);
    } else {
        // Rows up to pairwise_rows_max_run (511) keep NumPy's 8 lanes and tree, and so NumPy's bits
        // for float32 sums (the pairwise_rows kernel relies on the same edge); a reducer that
        // promises no such bits (`wide_lanes`: a contraction's sum) takes 32 lanes from 64 terms
        // on, four independent chains of adds instead of one.
        constexpr bool wide = requires {
            requires Impl::wide_lanes;
        };
        if (n <= pairwise_rows_max_run && !(wide && n >= 64))
            return pairwise_block_sum<8, Impl, Contiguous, Registers>(ev, begin, n, run);
        if (n <= pairwise_block)
            return pairwise_block_sum<32, Impl, Contiguous, Registers>(ev, begin, n, run);
        index_t half = n / 2;
        half -= half % 32;
        return pairwise_terms<Impl, Contiguous, Registers>(ev, begin, half, run)
               + pairwise_terms<Impl, Contiguous, Registers>(ev, begin + half, n - half, run);
    }
}

// NumPy's 8 lanes and tree (pairwise_block_sum<8>) over R runs of n terms each (8 <= n < 512)
// into s[q]: run q is read by evaluator `ev[q * ev_step]` from its element `q * run_step`
// (R evaluators each bound to its run: ev_step 1, run_step 0; one evaluator bound to the first
// of R consecutive runs of a flat operand: ev_step 0, run_step n, no copies of it). Each run's
// lanes take the same terms in the same order as one run at a time, so the same bits, with R
// runs' chains of adds in flight (reduce_kernel::pairwise_rows). A run's 8 lanes are vectors of
// one register (lane_vectors.hpp).
template <class Impl, index_t R, class Ev>
FUSOR_INLINE void
pairwise_rows_sums(const Ev* ev, index_t ev_step, index_t run_step, index_t n, double (&s)[R]) {
    using lanes = lane_vectors<double, 8>;
    constexpr index_t L = lanes::width, K = lanes::count;
    using vec = typename lanes::vector;
    const auto terms = [&]<index_t... J>(
        index_t q, index_t at, std::integer_sequence<index_t, J...>) FUSOR_INLINE_LAMBDA {
        const Ev& e = ev[q * ev_step];
        const index_t from = q * run_step + at;
        return vec{Impl::term(e.template get<true>(from + J))...};
    };
    using each_lane = std::make_integer_sequence<index_t, L>;
    vec r[R][K];
    for (index_t q = 0; q < R; ++q)
        for (index_t k = 0; k < K; ++k)
            r[q][k] = terms(q, k * L, each_lane{});
    const index_t lanes_end = n - n % 8;
    for (index_t i = 8; i < lanes_end; i += 8)
#pragma GCC unroll 16
        for (index_t q = 0; q < R; ++q)
#pragma GCC unroll 2
            for (index_t k = 0; k < K; ++k)
                r[q][k] += terms(q, i + k * L, each_lane{});
    for (index_t q = 0; q < R; ++q) {
        double l[8];
        for (index_t j = 0; j < 8; ++j)
            l[j] = r[q][j / L][j % L];
        double t = ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));
        for (index_t i = lanes_end; i < n; ++i) // the tail
            t += Impl::term(ev[q * ev_step].template get<true>(q * run_step + i));
        s[q] = t;
    }
}

// `pairwise_rows_per_pass` evaluators of one tree, each bound to its own run.
template <class Ev>
struct evaluator_rows {
    Ev row[pairwise_rows_per_pass];
    void own_buffers(scratch& s) {
        for (Ev& e : row)
            e.own_buffers(s);
    }
};
template <class Ev>
evaluator_rows<Ev> make_evaluator_rows(const Ev& ev) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return evaluator_rows<Ev>{{((void)I, ev)...}};
    }
    (std::make_index_sequence<pairwise_rows_per_pass>{});
}

// The R runs of pairwise_rows_sums (`Registers`: reduce_kernel::pairwise_rows_simd, each run's
// terms a register at a time, loading twin operands once where they read alike; the same bits).
template <class Impl, index_t R, bool Registers, register_read Read, class Ev>
FUSOR_INLINE void
rows_sums(const Ev* ev, index_t ev_step, index_t run_step, index_t n, double (&s)[R]) {
#if FUSOR_SUM_IN_REGISTERS
    if constexpr (Registers && sum_in_registers<Impl, Ev>) {
        if constexpr (holds_twins<Ev>()) {
            bool alike = true;
            for (index_t q = 0; q < R; ++q)
                alike = alike && ev[q * ev_step].twins_alike();
            if (alike) {
                register_rows_sums<Impl, R, Read, true>(ev, ev_step, run_step, n, s);
                return;
            }
        }
        register_rows_sums<Impl, R, Read, false>(ev, ev_step, run_step, n, s);
    } else
#endif
    {
        static_assert(Read == register_read::block); // the plain loop reads at unit stride
        pairwise_rows_sums<Impl, R>(ev, ev_step, run_step, n, s);
    }
}

// reduce_kernel::pairwise_rows_simd over a flat reduction (flat_plan; exec::
// execute_flat_reduction): one evaluator bound at each pass's first run reads run q `q *
// f.cols` elements on and a column's element q rows on, broadcast into a register (no splat
// buffer); pairwise_rows_per_pass runs per pass, then the runs left over one at a time. The
// lanes, order and bits of pairwise_rows.
template <class Impl, register_read Read, class Ev, class D>
FUSOR_INLINE void
flat_rows_in_registers(Ev& ev, const flat_plan& f, D* out, const loop_plan* traced) {
    constexpr index_t per_pass = pairwise_rows_per_pass;
    const auto finish = [&](index_t row, double s) FUSOR_INLINE_LAMBDA {
        out[row] = convert<D>(Impl::finalize(Impl::absorb(Impl::identity(), s), f.cols));
    };
    index_t row = 0;
    for (; row + per_pass <= f.rows; row += per_pass) {
        double s[per_pass];
        for (index_t q = 0; q < per_pass; ++q)
            trace_flat_row(traced, row + q, f.cols);
        ev.bind_row(row);
        rows_sums<Impl, per_pass, true, Read>(&ev, 0, f.cols, f.cols, s);
        for (index_t q = 0; q < per_pass; ++q)
            finish(row + q, s[q]);
    }
    for (; row < f.rows; ++row) {
        double s[1];
        trace_flat_row(traced, row, f.cols);
        ev.bind_row(row);
        rows_sums<Impl, 1, true, Read>(&ev, 0, f.cols, f.cols, s);
        finish(row, s[0]);
    }
}

// The pairwise_rows kernel over a block of `b.rows` runs of `b.cols` elements (the loop's two
// innermost levels; `row_step`: each operand's stride between runs): R runs per pass, then the
// runs left over one at a time, each run's sum absorbed into its accumulator in run order.
// `Registers`: pairwise_rows_simd.
template <class Impl, bool Registers, class Ev>
void pairwise_rows_block(std::size_t ops,
                         evaluator_rows<Ev>& e,
                         typename Impl::acc_type* a0,
                         const block& b,
                         const index_t* row_step) {
    constexpr index_t R = pairwise_rows_per_pass;
    index_buffer off(b.offsets, ops), o(ops);
    index_t r = 0;
    for (; r + R <= b.rows; r += R) {
        for (index_t q = 0; q < R; ++q) {
            for (std::size_t k = 0; k < ops; ++k)
                o[k] = off[k] + q * row_step[k];
            e.row[q].bind(o.data()); // reads the offsets now
        }
        double s[R];
        rows_sums<Impl, R, Registers, register_read::block>(e.row, 1, 0, b.cols, s);
        for (index_t q = 0; q < R; ++q) {
            typename Impl::acc_type* a = a0 + off[0] + q * row_step[0];
            *a = Impl::absorb(*a, s[q]);
        }
        for (std::size_t k = 0; k < ops; ++k)
            off[k] += R * row_step[k];
    }
    for (; r < b.rows; ++r) {
        e.row[0].bind(off.data());
        typename Impl::acc_type* a = a0 + off[0];
        *a = Impl::absorb(*a, pairwise_terms<Impl, true>(e.row[0], 0, b.cols));
        for (std::size_t k = 0; k < ops; ++k)
            off[k] += row_step[k];
    }
}

// The register path of a compensated (float64) sum: eight interleaved lanes, each a running
// sum and the running total of its rounding errors, computed exactly with Knuth's branch-free
// TwoSum (t = s + x; the error is (s - (t - z)) + (x - z) with z = t - s). The eight lanes are
// K vectors of one register each (lane_vectors.hpp: two on AVX): as plain arrays, g++ 12 vectorised
// them on AVX2 partly in 256-bit, partly in 128-bit and partly in scalar instructions (the sum of
// 2^24 float64 at 0.57 of a plain loop's speed). Merged at the end with the same compensated add
// (reducers::detail::add). Every lane keeps its own rounding error, so the result is within ~2 eps
// of the exact sum (plus an n eps^2 sum|x| term) however many terms there are.
FUSOR_LANES_FILLED_BEGIN
template <class Impl, bool Contiguous, class Ev, class Run = whole_run>
typename Impl::acc_type compensated_terms(const Ev& ev, index_t n, Run run = {}) {
    constexpr index_t L = lane_vectors<double, 8>::width, K = lane_vectors<double, 8>::count;
    using lanes_vec = lane_vectors<double, 8>::vector;
    lanes_vec sv[K] = {}, cv[K] = {};
    const index_t lanes_end = n - n % 8;
    index_t at = 0, len = 0, i = 0;
    // The lanes over the block of `len` elements at `start` of the run, bound at `at`.
    auto lanes = [&](index_t start) FUSOR_INLINE_LAMBDA {
        const index_t groups_end = std::min(len, lanes_end - start);
        // The terms of up to 64 elements at a time into an array, then 8 at a time from it into
        // the lanes. Filled lane by lane, g++ 12 built each vector from eight masked broadcasts
        // (the sum of 2^24 float64 at half a plain loop's speed); an array of 8 per group still
        // left a product's terms as scalar multiplies. The loop over the chunk vectorises.
        constexpr index_t chunk = 64;
        double terms[chunk];
        for (i = 0; i + 8 <= groups_end;) {
            const index_t m = std::min(chunk, (groups_end - i) / 8 * 8), first = at + i;
            for (index_t j = 0; j < m; ++j)
                terms[j] = Impl::term(ev.template get<Contiguous>(first + j));
            for (index_t g = 0; g < m; g += 8)
                for (index_t k = 0; k < K; ++k) {
                    lanes_vec x;
                    std::memcpy(&x, terms + g + k * L, sizeof x);
                    const lanes_vec t = sv[k] + x;
                    const lanes_vec z = t - sv[k];
                    cv[k] += (sv[k] - (t - z)) + (x - z);
                    sv[k] = t;
                }
            i += m;
        }
    };
    if constexpr (std::is_same_v<Run, whole_run>) {
        len = n;
        lanes(0);
    } else if (one_short_block<Run> || n <= Run::block) { // one block: as for whole_run
        len = n;
        at = run(0, n);
        lanes(0);
    } else if constexpr (!one_short_block<Run>) {
        for (index_t start = 0; start < n; start += Run::block) {
            len = std::min(Run::block, n - start);
            at = run(start, len);
            lanes(start);
        }
    }
    typename Impl::acc_type acc{};
    for (index_t j = 0; j < 8; ++j) {
        const double s = sv[j / L][j % L], c = cv[j / L][j % L];
        acc = Impl::absorb(acc, s);
        if (s - s == 0.0) // an inf or NaN lane's error term is NaN (inf - inf): drop it
            acc = Impl::absorb(acc, c);
    }
    for (; i < len; ++i) // the tail, in the last block (still bound)
        acc = Impl::absorb(acc, Impl::term(ev.template get<Contiguous>(at + i)));
    return acc;
}
FUSOR_LANES_FILLED_END

// One accumulator, in index order: arg-reductions (their (value, index) pairs do not
// vectorise, and one predictable branch per element beats eight lanes of them) and rows too
// short for lanes.
template <class Impl, bool Contiguous, class Ev>
typename Impl::acc_type sequential_reduce(const Ev& ev, index_t n, index_t i0, index_t si) {
    typename Impl::acc_type reg = Impl::identity();
    for (index_t i = 0; i < n; ++i)
        reg = Impl::step(reg, ev.template get<Contiguous>(i), i0 + i * si);
    return reg;
}

// Floating max and min keep the eight lanes in one vector (GCC's and clang's vector extension):
// the same steps lane by lane, compiled to a compare and a blend per eight elements, where the
// array of lanes compiled to a compare and a branch per element, mispredicted on random data
// (max(a, 1) on (64, 16) float32: ~1 ns per element).
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class Impl>
inline constexpr bool vector_lanes = planning::extreme_reducer<Impl> && !Impl::needs_index
                                     && std::is_floating_point_v<typename Impl::acc_type>;
// clang-format on

// Lanes [Half, 2 Half) of a vector of `L` lanes moved to lanes [0, Half) (the others any): the
// second operand of one level of lane_reduce's halving tree.
template <index_t Half, index_t L, class V>
FUSOR_INLINE V upper_lanes(V v) {
    static_assert(Half < L && (L == 2 || L == 4 || L == 8));
    if constexpr (L == 8 && Half == 4)
        return __builtin_shufflevector(v, v, 4, 5, 6, 7, 4, 5, 6, 7);
    else if constexpr (L == 8 && Half == 2)
        return __builtin_shufflevector(v, v, 2, 3, 2, 3, 4, 5, 6, 7);
    else if constexpr (L == 8)
        return __builtin_shufflevector(v, v, 1, 1, 2, 3, 4, 5, 6, 7);
    else if constexpr (L == 4 && Half == 2)
        return __builtin_shufflevector(v, v, 2, 3, 2, 3);
    else if constexpr (L == 4)
        return __builtin_shufflevector(v, v, 1, 1, 2, 3);
    else
        return __builtin_shufflevector(v, v, 1, 1);
}

// Eight interleaved accumulators (lane j takes elements j, j + 8, ...), merged in lane order
// (max and min: halving, below).
// One accumulator would chain every step on the previous one (a compare-and-select per element
// for max: latency-bound, ~10x slower than memory); eight independent chains run at the speed
// of the loads. `merge` is associative for every reducer, so the result is the sequential one
// (up to float rounding order in prod and logsumexp, and the sign of a zero max/min).
FUSOR_LANES_FILLED_BEGIN
template <class Impl, bool Contiguous, class Ev>
typename Impl::acc_type lane_reduce(const Ev& ev, index_t n, index_t i0, index_t si) {
    using acc_t = typename Impl::acc_type;
    index_t i = 0;
    if constexpr (vector_lanes<Impl>) {
        // The 8 lanes as K vectors of at most one register each (lane_vectors.hpp); lane j
        // is element j % L of vector j / L.
        constexpr index_t L = lane_vectors<acc_t, 8>::width;
        constexpr index_t K = lane_vectors<acc_t, 8>::count;
        using lanes_vec = typename lane_vectors<acc_t, 8>::vector;
        // Impl::step lane by lane (merge is step for every such reducer): `v` when better, or
        // when NaN (max, min), or when the lane has seen only NaNs so far (nanmax and nanmin:
        // their lanes start at NaN).
        const auto step = [](lanes_vec best, lanes_vec v) FUSOR_INLINE_LAMBDA {
            constexpr bool greater = planning::keeps_greater<Impl>;
            const auto better = greater ? (v > best) : (v < best);
            if constexpr (requires { Impl::nan_ignoring_order; })
                return (better | (best != best)) ? v : best;
            else
                return (better | (v != v)) ? v : best;
        };
        lanes_vec best[K] = {};
        for (index_t k = 0; k < K; ++k)
            for (index_t j = 0; j < L; ++j)
                best[k][j] = Impl::identity();
        for (; i + 8 <= n; i += 8) {
            // A tensor of the accumulator's type at unit stride: one load per vector. Filled
            // lane by lane (or through an array, which g++ 12 turned back into the same), each
            // vector was built from one insert per element (max(x, 1) on (8, 16) float32: a
            // tenth of a softmax's time).
            constexpr bool loads = Contiguous && std::is_base_of_v<leaf_evaluator<acc_t>, Ev>;
            for (index_t k = 0; k < K; ++k) {
                lanes_vec v;
                if constexpr (loads)
                    std::memcpy(&v, ev.cur + i + k * L, sizeof v);
                else
                    for (index_t j = 0; j < L; ++j)
                        v[j] = static_cast<acc_t>(ev.template get<Contiguous>(i + k * L + j));
                best[k] = step(best[k], v);
            }
        }
        if (i < n) { // the tail into lane 0, in order
            acc_t first = best[0][0];
            for (; i < n; ++i)
                first = Impl::step(first, ev.template get<Contiguous>(i), i0 + i * si);
            best[0][0] = first;
        }
        // Halving, a tree of 3 merges deep instead of a chain of 7 (at rows of 32 the chain
        // cost as much as the loop): lane j merged with lane j + half for half = 4, 2, 1, as
        // whole vectors while half spans vectors, then within the first by shuffles (through
        // an array of lanes, a vector store read back as scalars). Max and min are associative
        // (up to the sign of a zero result and which NaN), so the result is the chain's.
        const auto halve = [&]<index_t Half>() FUSOR_INLINE_LAMBDA {
            if constexpr (Half >= L) {
                for (index_t k = 0; k < Half / L; ++k)
                    best[k] = step(best[k], best[k + Half / L]);
            } else {
                best[0] = step(best[0], upper_lanes<Half, L>(best[0]));
            }
        };
        halve.template operator()<4>();
        halve.template operator()<2>();
        halve.template operator()<1>();
        return best[0][0];
    } else {
        acc_t lane[8];
        for (index_t j = 0; j < 8; ++j)
            lane[j] = Impl::identity();
        for (; i + 8 <= n; i += 8)
            for (index_t j = 0; j < 8; ++j)
                lane[j] =
                    Impl::step(lane[j], ev.template get<Contiguous>(i + j), i0 + (i + j) * si);
        for (; i < n; ++i)
            lane[0] = Impl::step(lane[0], ev.template get<Contiguous>(i), i0 + i * si);
        for (index_t j = 1; j < 8; ++j)
            lane[0] = Impl::merge(lane[0], lane[j]);
        return lane[0];
    }
}
FUSOR_LANES_FILLED_END

// Rows per pass (unroll-and-jam, which g++ -O3 applies to the hand-written loop two rows at a
// time): over a block of [reduced, kept] levels at unit stride, rows r to r + R - 1 go into the
// row of accumulators in one pass, ((acc + x_r) + x_{r+1}) + ...: the order of one row at a
// time, so the same bits, with an R-th of the loads and stores of the accumulators. Not for
// arg-reductions (their steps take the index); the planner decides R (reduce_kernel::two_rows,
// four_rows, eight_rows: planning::jammed_rows_for). `row` holds R evaluators, each bound to
// its own row of the pass.
template <class Ev, index_t R>
struct jammed_evaluators {
    Ev row[R];
    void own_buffers(scratch& s) { // every row's (a thread's copy: run_loop_nest)
        for (Ev& e : row)
            e.own_buffers(s);
    }
};
template <index_t R, class Ev>
jammed_evaluators<Ev, R> make_jammed_evaluators(const Ev& ev) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return jammed_evaluators<Ev, R>{{((void)I, ev)...}};
    }
    (std::make_index_sequence<R>{});
}

// The rows [0, rows) of a block, `add_row(ev)` once for each in order, through copies of the
// flat evaluators `first` and `second` (leaves, scalars and element-wise nodes: flat_leaf_count)
// bound once, at the offsets `off` and `off + row_step`, and moved on two rows per pass
// (`advance`), so their pointers stay in registers: binding both from the offsets each pass
// took ~35 instructions a row where a column sum's arithmetic takes ~8.
template <class Ev, class AddRow>
FUSOR_INLINE void rows_bound_once(const Ev& first,
                                  const Ev& second,
                                  const index_t* off,
                                  const index_t* row_step,
                                  std::size_t ops,
                                  index_t rows,
                                  AddRow&& add_row) {
    Ev one = first, two = second;
    index_buffer at(off, ops), pass_step(ops);
    one.bind(at.data());
    for (std::size_t k = 0; k < ops; ++k) {
        at[k] += row_step[k];
        pass_step[k] = 2 * row_step[k];
    }
    two.bind(at.data());
    index_t r = 0;
    for (; r + 1 < rows; r += 2) {
        add_row(one);
        add_row(two);
        one.advance(pass_step.data());
        two.advance(pass_step.data());
    }
    if (r < rows) // an odd row out
        add_row(one);
}

// Eight float64 lanes as vectors of one register each (lane_vectors.hpp): one on AVX-512, two
// on AVX, four on SSE2 (AVX2: `mean(x, 0)` over (100000, 8) float64 took 0.97 ms as one vector
// of 8 doubles, 0.50 ms as two).
using two_rows_lane_vectors = lane_vectors<double, 8>;

// How many of the eight register lanes (two_rows_lane_vectors) hold a block's accumulators
// when they stay in registers: all of them (`full`) or the first `n` (`partial`, the other
// lanes add zeros and are never stored).
enum class two_rows_accumulators { full, partial };

// Every row of a block, two per pass, into accumulators `a` of `n` (at most 8) columns held in
// registers (sums, means and norms: `Impl::term`
// then a double or TwoSum add), from the operands' offsets `off` at the block's first row;
// `row_step`: each operand's stride between rows. The accumulators stay in registers across
// all the rows and are stored once. Two rows per pass: more gain nothing here (the
// accumulators are not reloaded), and eight cost (100000, 8) float64 column means 0.58 -> 0.80
// ms (the binding of eight evaluators per pass).
template <class Impl, two_rows_accumulators Where, class Ev, class Acc>
FUSOR_INLINE void two_rows_in_registers(std::size_t ops,
                                        Ev& first,
                                        Ev& second,
                                        Acc* a,
                                        index_t rows,
                                        index_t n,
                                        const index_t* off,
                                        const index_t* row_step) {
    // The offsets of the loop that binds the rows each pass (below). Made here, not in its
    // branch: made there, g++ 12 kept float32's sums on the stack again (1.4x slower).
    index_buffer o1(off, ops), o2(ops);
    for (std::size_t k = 0; k < ops; ++k)
        o2[k] = o1[k] + row_step[k];
    // The sums (and, for float64, the TwoSum corrections) in registers; each lane takes the
    // same terms in the same order as a scalar accumulator would. Vector `g` holds columns
    // [g * L, g * L + L).
    using vec = two_rows_lane_vectors::vector;
    constexpr index_t L = two_rows_lane_vectors::width;
    constexpr index_t G = two_rows_lane_vectors::count;
    constexpr bool full = Where == two_rows_accumulators::full;
    constexpr bool compensated = std::is_same_v<Acc, reducers::detail::compensated_sum>;
    using lanes = std::make_integer_sequence<index_t, L>;
    using groups = std::make_integer_sequence<index_t, G>;
    const auto initial = [&]<index_t... J>(
        index_t g, bool correction, std::integer_sequence<index_t, J...>) {
        if constexpr (compensated)
            return vec{(full || g * L + J < n
                            ? (correction ? a[g * L + J].correction : a[g * L + J].sum)
                            : 0.0)...};
        else
            return vec{(full || g * L + J < n ? a[g * L + J] : 0.0)...};
    };
    vec sum[G], corr[G];
    for (index_t g = 0; g < G; ++g) {
        sum[g] = initial(g, false, lanes{});
        corr[g] = compensated ? initial(g, true, lanes{}) : vec{};
    }
    const auto add_row = [&](const Ev& ev) {
        [&]<index_t... g>(std::integer_sequence<index_t, g...>) {
            const auto add_group = [&]<index_t... J>(
                vec & s, vec & c, std::integer_sequence<index_t, J...>, auto group) {
                constexpr index_t first_column = decltype(group)::value * L;
                const vec x = {(full || first_column + J < n
                                    ? Impl::term(ev.template get<true>(first_column + J))
                                    : 0.0)...};
                if constexpr (compensated)
                    reducers::detail::two_sum_into(s, c, x);
                else
                    s += x;
            };
            (add_group(sum[g], corr[g], lanes{}, std::integral_constant<index_t, g>{}), ...);
        }
        (groups{});
    };
    if constexpr (compensated && flat_leaf_count<Ev>::value >= 0) {
        // float64 over leaves, scalars and element-wise nodes: the z-score's sum of squares over
        // (100000, 8) ran at 0.70 of the hand loop's speed with the loop below, 0.91 bound once
        // (docs/performance.md, "Column sums in registers, bound once"). Not float32's plain
        // sums: with that loop g++ 12 kept their register on the stack (a store and a reload
        // on each pass's chain of additions: 1.4x slower).
        rows_bound_once(first, second, off, row_step, ops, rows, add_row);
    } else {
        index_t r = 0;
        for (; r + 1 < rows; r += 2) {
            first.bind(o1.data());
            second.bind(o2.data());
            add_row(first);
            add_row(second);
            for (std::size_t k = 0; k < ops; ++k) {
                o1[k] += 2 * row_step[k];
                o2[k] += 2 * row_step[k];
            }
        }
        if (r < rows) { // an odd row out
            first.bind(o1.data());
            add_row(first);
        }
    }
    // Lane by lane, with constant indices into the vectors.
    [&]<index_t... I>(std::integer_sequence<index_t, I...>) {
        const auto store = [&](auto lane) {
            constexpr index_t i = decltype(lane)::value;
            if (full || i < n) {
                if constexpr (compensated)
                    a[i] = Acc{sum[i / L][i % L], corr[i / L][i % L]};
                else
                    a[i] = sum[i / L][i % L];
            }
        };
        (store(std::integral_constant<index_t, I>{}), ...);
    }
    (std::make_integer_sequence<index_t, two_rows_lane_vectors::width * G>{});
}

// The `two_rows_register_columns` lanes (four registers of float64 lanes) as vectors.
using wide_rows_lane_vectors = lane_vectors<double, two_rows_register_columns>;

// two_rows_in_registers over more than eight columns (and at most two_rows_register_columns):
// the accumulators of `n` columns in `Groups` registers of L lanes, register g starting at
// column min(g * L, n - L), so that every lane reads a column of the row and the last register
// overlaps the one before where n is not a multiple of L (an overlapped column is summed by
// both, with the same terms in the same order, and stored twice with the same value). Flat
// evaluators only (leaves, scalars and element-wise nodes: bound once, then moved on two rows
// per pass). Not inlined into jammed_rows_block: inlined there beside two_rows_in_registers,
// g++ 12 kept the latter's sums on the stack (the z-score's sum of squares 20 % slower).
// (100000 * 8 / n, n) float64 column sums, n = 12, 16, 32: 0.57, 0.60, 0.62 of the hand loop's
// speed with the accumulators in memory (jammed_rows_in_memory, eight rows per pass); 0.9-1.05
// here (docs/performance.md, "Column sums in registers, bound once").
template <class Impl, index_t Groups, class Ev, class Acc>
[[gnu::noinline]] void wide_rows_in_registers(const Ev& first,
                                              const Ev& second,
                                              Acc* a,
                                              index_t rows,
                                              index_t n,
                                              const index_t* off,
                                              const index_t* row_step,
                                              std::size_t ops) {
    using vec = wide_rows_lane_vectors::vector;
    constexpr index_t L = wide_rows_lane_vectors::width;
    constexpr bool compensated = std::is_same_v<Acc, reducers::detail::compensated_sum>;
    using lanes = std::make_integer_sequence<index_t, L>;
    using groups = std::make_integer_sequence<index_t, Groups>;
    index_t column[Groups];
    for (index_t g = 0; g < Groups; ++g)
        column[g] = std::min(g * L, n - L);
    vec sum[Groups], corr[Groups];
    [&]<index_t... J>(std::integer_sequence<index_t, J...>) {
        for (index_t g = 0; g < Groups; ++g) {
            const Acc* c = a + column[g];
            if constexpr (compensated) {
                sum[g] = vec{c[J].sum...};
                corr[g] = vec{c[J].correction...};
            } else {
                sum[g] = vec{c[J]...};
                corr[g] = vec{};
            }
        }
    }
    (lanes{});
    const auto add_row = [&](const Ev& ev) FUSOR_INLINE_LAMBDA {
        [&]<index_t... g>(std::integer_sequence<index_t, g...>) FUSOR_INLINE_LAMBDA {
            const auto add_group = [&]<index_t... J>(
                vec & s, vec & c, index_t c0, std::integer_sequence<index_t, J...>)
                FUSOR_INLINE_LAMBDA {
                const vec x = {Impl::term(ev.template get<true>(c0 + J))...};
                if constexpr (compensated)
                    reducers::detail::two_sum_into(s, c, x);
                else
                    s += x;
            };
            (add_group(sum[g], corr[g], column[g], lanes{}), ...);
        }
        (groups{});
    };
    rows_bound_once(first, second, off, row_step, ops, rows, add_row);
    for (index_t g = 0; g < Groups; ++g) {
        double s[L], c[L];
        std::memcpy(s, &sum[g], sizeof s);
        std::memcpy(c, &corr[g], sizeof c);
        for (index_t j = 0; j < L; ++j) {
            if constexpr (compensated)
                a[column[g] + j] = Acc{s[j], c[j]};
            else
                a[column[g] + j] = s[j];
        }
    }
}

// Every row of a block, R per pass, into the row of accumulators `a` of `n` columns in memory,
// from the operands' offsets `off` at the block's first row; `row_step`: each operand's stride
// between rows. Row q of a pass reads through evaluator q.
template <class Impl, class Ev, index_t R, class Acc>
FUSOR_INLINE void jammed_rows_in_memory(std::size_t ops,
                                        jammed_evaluators<Ev, R>& e,
                                        Acc* a,
                                        index_t rows,
                                        index_t n,
                                        const index_t* off,
                                        const index_t* row_step) {
    // Row q of the pass reads at the offsets row(q) (words [q * ops, q * ops + ops) of `o`).
    index_buffer o(static_cast<std::size_t>(R) * ops);
    const auto row = [&](index_t q) {
        return o.data() + static_cast<std::size_t>(q) * ops;
    };
    for (index_t q = 0; q < R; ++q)
        for (std::size_t k = 0; k < ops; ++k)
            row(q)[k] = off[k] + q * row_step[k];
    index_t r = 0;
    for (; r + R <= rows; r += R) {
        for (index_t q = 0; q < R; ++q)
            e.row[q].bind(row(q));
        for (index_t i = 0; i < n; ++i) {
            Acc x = a[i];
            for (index_t q = 0; q < R; ++q)
                x = Impl::step(x, e.row[q].template get<true>(i), 0);
            a[i] = x;
        }
        for (index_t q = 0; q < R; ++q)
            for (std::size_t k = 0; k < ops; ++k)
                row(q)[k] += R * row_step[k];
    }
    for (index_t q = 0; r < rows; ++r, ++q) { // the rows left over, one at a time
        e.row[q].bind(row(q));
        for (index_t i = 0; i < n; ++i)
            a[i] = Impl::step(a[i], e.row[q].template get<true>(i), 0);
    }
}

// The jammed-rows kernel over a block of [reduced, kept] levels at unit stride: every
// accumulator takes its rows in order, `rows` per pass (2 or R), the bits of one row at a time.
// Two rows over a kept row of at most `two_rows_register_columns` columns (the z-score's
// (100000, 8)) keep a sum's, mean's or norm's accumulators in a vector register across all the
// rows: stored after each pair of rows, each column's chain of additions waited on memory, and
// (100000, 8) float64 column sums ran at 0.65 of the hand-written loop's speed. Otherwise the
// row of accumulators stays in memory, R rows per pass (planning::jammed_rows_for of the child:
// the one count compiled; two rows run in memory only when R is two).
template <class Impl, class Ev, index_t R, class Acc>
void jammed_rows_block(
    const loop_plan& p, index_t rows, jammed_evaluators<Ev, R>& e, Acc* a0, const block& b) {
    const std::size_t ops = p.operand_count;
    index_buffer row_step(ops);
    for (std::size_t k = 0; k < ops; ++k)
        row_step[k] = p.stride(k, 0);
    Acc* a = a0 + b.offsets[0];
    using where = two_rows_accumulators;
    if constexpr (planning::pairwise_reducer<Impl>) {
        if constexpr (two_rows_register_columns > 8 && flat_leaf_count<Ev>::value >= 0) {
            constexpr index_t L = wide_rows_lane_vectors::width;
            if (rows == 2 && b.cols > 8 && b.cols <= two_rows_register_columns) {
                if (b.cols <= 2 * L)
                    wide_rows_in_registers<Impl, 2>(
                        e.row[0], e.row[1], a, b.rows, b.cols, b.offsets, row_step.data(), ops);
                else
                    wide_rows_in_registers<Impl, wide_rows_lane_vectors::count>(
                        e.row[0], e.row[1], a, b.rows, b.cols, b.offsets, row_step.data(), ops);
                return;
            }
        }
        if (rows == 2 && b.cols <= 8) {
            if (b.cols == 8)
                two_rows_in_registers<Impl, where::full>(
                    ops, e.row[0], e.row[1], a, b.rows, b.cols, b.offsets, row_step.data());
            else
                two_rows_in_registers<Impl, where::partial>(
                    ops, e.row[0], e.row[1], a, b.rows, b.cols, b.offsets, row_step.data());
            return;
        }
    }
    (void)rows;
    jammed_rows_in_memory<Impl>(ops, e, a, b.rows, b.cols, b.offsets, row_step.data());
}

// A pairwise reducer whose lanes are plain sums (not float64's compensated lanes).
// (Unformatted: clang-format 14 reads `v<T> &&` as an rvalue reference type.)
// clang-format off
template <class Impl>
inline constexpr bool plain_pairwise_reducer =
    planning::pairwise_reducer<Impl>
    && !std::is_same_v<typename Impl::acc_type, reducers::detail::compensated_sum>;
// clang-format on

// Whether execute_reduction hands plan `p`'s pairwise runs to its kernel a block of rows at a
// time (depth 2) instead of one run per call: plain pairwise sums of contiguous runs, under an
// outer level, with the threads splitting the outer levels.
template <class Impl>
bool pairwise_runs_by_blocks(const loop_plan& p) {
    if constexpr (plain_pairwise_reducer<Impl>)
        return (p.reduction == reduce_kernel::pairwise || p.reduction == reduce_kernel::float_lanes)
               && p.kernel == inner_kernel::contiguous && p.extents.size() >= 2 && !p.split_inner;
    else
        return false;
}

// Throws NumPy's value_error for a reduction without an identity (`name`; `numpy_name` as
// NumPy's message spells it; `single_axis`: argmax and argmin) over an empty selection, of
// `axes` of `shape`. Out of line: the message built in check_reducible was ~1.1 KB of string
// code per reduction type at -O3.
[[noreturn]] FUSOR_HEADER_INLINE void throw_empty_reduction(std::string_view name,
                                                            std::string_view numpy_name,
                                                            bool single_axis,
                                                            const shape_t& axes,
                                                            const shape_t& shape);

template <class R, class C>
void check_reducible(const reduction<R, C>& r) {
    using impl = typename reduction<R, C>::impl;
    if constexpr (!impl::has_identity) {
        if (r.size() > 0 && r.count() == 0) [[unlikely]]
            throw_empty_reduction(R::name, R::numpy_name, R::single_axis, r.axes, r.child.shape());
    }
}
} // namespace detail

namespace detail {
// The register accumulator `*a` takes a run of `n` elements of `ev` (bound at the run's start)
// as the plan's kernel `k` says (pairwise, compensated, minmax_simd, rescaled_blocks,
// sequential or lanes); `i0` and `si` are the index operand's value at the run's start and its
// step (arg-reductions).
template <class Impl, class T, bool Contiguous, class Ev>
FUSOR_INLINE void register_reduce(
    reduce_kernel k, typename Impl::acc_type* a, const Ev& ev, index_t n, index_t i0, index_t si) {
    switch (k) {
    case reduce_kernel::pairwise:
    case reduce_kernel::float_lanes:
    case reduce_kernel::float_lanes_simd: // (run by execute_flat_reduction; the same bits)
    case reduce_kernel::compensated:
        if constexpr (planning::pairwise_reducer<Impl>) {
            if constexpr (std::is_same_v<typename Impl::acc_type,
                                         reducers::detail::compensated_sum>)
                *a = Impl::merge(*a, compensated_terms<Impl, Contiguous>(ev, n));
            else
                *a = Impl::absorb(*a, pairwise_terms<Impl, Contiguous>(ev, 0, n));
        }
        return;
    case reduce_kernel::pairwise_simd:
        if constexpr (planning::pairwise_reducer<Impl>) {
            constexpr bool registers = Contiguous && sum_in_registers<Impl, Ev>;
            if constexpr (!std::is_same_v<typename Impl::acc_type,
                                          reducers::detail::compensated_sum>)
                *a = Impl::absorb(*a, pairwise_terms<Impl, Contiguous, registers>(ev, 0, n));
        }
        return;
    case reduce_kernel::minmax_simd:
        if constexpr (Contiguous && planning::vector_minmax<Impl, T>)
            *a = Impl::merge(*a, vector_minmax_reduce<Impl, T>(ev, n, i0, si));
        return;
    case reduce_kernel::rescaled_blocks:
        if constexpr (planning::rescaled_reducer<Impl>)
            *a = Impl::merge(*a, rescaled_blocks_reduce<Impl, Contiguous>(ev, n));
        return;
    case reduce_kernel::sequential:
        *a = Impl::merge(*a, sequential_reduce<Impl, Contiguous>(ev, n, i0, si));
        return;
    default: // lanes
        *a = Impl::merge(*a, lane_reduce<Impl, Contiguous>(ev, n, i0, si));
        return;
    }
}
} // namespace detail

/// Runs a flat reduction (flat_plan, `f.reduction` set): `r`'s operand is `f.rows` contiguous
/// runs of `f.cols` elements, each into one register accumulator finalized into `out[row]`; no
/// driver, no accumulator buffer, no finalize loop. `traced`: the general walk's plan, for the
/// trace hooks only (null when nothing traces).
template <class R, class C, class D>
FUSOR_INLINE void execute_flat_reduction(const flat_plan& f,
                                         const reduction<R, C>& r,
                                         D* out,
                                         const loop_plan* traced) {
    using impl = typename reduction<R, C>::impl;
    (void)traced;
    FUSOR_TRACE_KERNEL(*traced, reduce_kernel_name(f.reduction));
    if constexpr (planning::rows_at_once_reducer<impl>) {
        using Ev = decltype(flat_evaluator_builder{0, f.cols}.build(r.child));
        if constexpr (detail::sum_in_registers<impl, Ev>) {
            if (f.reduction == reduce_kernel::pairwise_rows_simd) {
                // Columns at stride 0, each run's element broadcast (register_read::rows); else
                // every leaf at unit stride.
                if (f.column != 0) {
                    auto ev =
                        flat_evaluator_builder{0, f.cols, 0, nullptr, f.column, nullptr, 1, true}
                            .build(r.child);
                    detail::flat_rows_in_registers<impl, register_read::rows>(ev, f, out, traced);
                    return;
                }
                auto ev = flat_evaluator_builder{0, f.cols}.build(r.child);
                detail::flat_rows_in_registers<impl, register_read::block>(ev, f, out, traced);
                return;
            }
#if FUSOR_SUM_IN_REGISTERS
            if constexpr (planning::float_lane_reducer<impl>) {
                if (f.reduction == reduce_kernel::float_lanes_simd) {
                    // Runs with columns, one at a time: each column's element broadcast into
                    // a register (register_read::rows), not splatted into a buffer.
                    auto ev =
                        flat_evaluator_builder{0, f.cols, 0, nullptr, f.column, nullptr, 1, true}
                            .build(r.child);
                    for (index_t row = 0; row < f.rows; ++row) {
                        detail::trace_flat_row(traced, row, f.cols);
                        ev.bind_row(row);
                        const double s = detail::register_float_lane_sum<impl, register_read::rows>(
                            ev, 0, f.cols);
                        out[row] =
                            convert<D>(impl::finalize(impl::absorb(impl::identity(), s), f.cols));
                    }
                    return;
                }
            }
#endif
        }
    }
    if constexpr (planning::flat_columns_reducer<impl, C>) {
        if (f.column != 0) {
            // Columns splatted per run, 8 runs per pass (pairwise_rows) or each run alone: the
            // general walk's blocked sums (blocked_reduction) take a run at a time in one block,
            // with the same lanes, so the same terms in the same order.
            constexpr index_t per_pass = pairwise_rows_per_pass;
            const bool rows_at_once = f.reduction == reduce_kernel::pairwise_rows;
            scratch buffers;
            auto ev =
                flat_evaluator_builder{
                    0, f.cols, 0, nullptr, f.column, &buffers, rows_at_once ? per_pass : 1}
                    .build(r.child);
            index_t row = 0;
            if constexpr (planning::rows_at_once_reducer<impl>) {
                // One evaluator bound to the pass's runs, run q read q * f.cols elements on:
                // the tensors in place, each column's elements splatted run after run.
                for (; rows_at_once && row + per_pass <= f.rows; row += per_pass) {
                    double s[per_pass];
                    for (index_t q = 0; q < per_pass; ++q)
                        detail::trace_flat_row(traced, row + q, f.cols);
                    ev.bind_rows(row, per_pass);
                    detail::pairwise_rows_sums<impl, per_pass>(&ev, 0, f.cols, f.cols, s);
                    for (index_t q = 0; q < per_pass; ++q)
                        out[row + q] = convert<D>(
                            impl::finalize(impl::absorb(impl::identity(), s[q]), f.cols));
                }
            }
            // Every run, or those pairwise_rows left over (one at a time, the same bits).
            const reduce_kernel one_run = rows_at_once ? reduce_kernel::pairwise : f.reduction;
            for (; row < f.rows; ++row) {
                detail::trace_flat_row(traced, row, f.cols);
                ev.bind_row(row);
                auto a = impl::identity();
                detail::register_reduce<impl, typename C::value_type, true>(
                    one_run, &a, ev, f.cols, 0, 1);
                out[row] = convert<D>(impl::finalize(a, f.cols));
            }
            return;
        }
    }
    auto ev = flat_evaluator_builder{0, f.cols}.build(r.child);
    index_t row = 0;
    if constexpr (planning::rows_at_once_reducer<impl>) {
        if (f.reduction == reduce_kernel::pairwise_rows) {
            // Every tensor of the operand is dense and row-major: one evaluator bound to the
            // pass's first run reads the next runs `f.cols` elements on (8 copies of it per pass
            // cost sum(a, 1) on (8, 16) a fifth of its time, with a store-forwarding stall).
            constexpr index_t per_pass = pairwise_rows_per_pass;
            for (; row + per_pass <= f.rows; row += per_pass) {
                double s[per_pass];
                for (index_t q = 0; q < per_pass; ++q)
                    detail::trace_flat_row(traced, row + q, f.cols);
                ev.bind_row(row);
                detail::pairwise_rows_sums<impl, per_pass>(&ev, 0, f.cols, f.cols, s);
                for (index_t q = 0; q < per_pass; ++q)
                    out[row + q] =
                        convert<D>(impl::finalize(impl::absorb(impl::identity(), s[q]), f.cols));
            }
        }
    }
    // Every run, or those pairwise_rows left over (one at a time, the same bits).
    const reduce_kernel one_run =
        f.reduction == reduce_kernel::pairwise_rows ? reduce_kernel::pairwise : f.reduction;
    for (; row < f.rows; ++row) {
        detail::trace_flat_row(traced, row, f.cols);
        ev.bind_row(row);
        auto a = impl::identity();
        detail::register_reduce<impl, typename C::value_type, true>(one_run, &a, ev, f.cols, 0, 1);
        out[row] = convert<D>(impl::finalize(a, f.cols));
    }
}

/// Runs a flat product (planning::is_flat_product; `g` as the planner's small_gemm): fusor's
/// small matrix product into accumulators on the stack, each finalized into `out` (row-major
/// over the result, `g.m` x `g.n`); no plan cache, no evaluator, no finalize loop. The same
/// steps in the same order as the small_gemm kernel of execute_reduction, so the same bits.
/// `traced`: the general walk's plan, for the trace hooks only (null when nothing traces).
template <class R, class C, class D>
FUSOR_INLINE void execute_flat_product(const gemm_plan& g,
                                       const reduction<R, C>& r,
                                       D* out,
                                       const loop_plan* traced) {
    using impl = typename reduction<R, C>::impl;
    using acc_t = typename impl::acc_type;
    (void)traced;
    FUSOR_TRACE_KERNEL(*traced, reduce_kernel_name(reduce_kernel::small_gemm));
    const index_t results = g.m * g.n;
    // Raw storage, as execute_reduction's accumulators: run_small_gemm starts each of the
    // `results` accumulators at identity. An array of float64's compensated sums (two doubles,
    // each with an initialiser) was cleared whole, 4 KB, on every evaluation.
    static_assert(std::is_trivially_destructible_v<acc_t>);
    alignas(acc_t) unsigned char storage[planning::flat_product_max_results * sizeof(acc_t)];
    acc_t* const acc = reinterpret_cast<acc_t*>(storage);
    run_small_gemm<impl>(g, child<0>(r.child).data, child<1>(r.child).data, acc);
    for (index_t i = 0; i < results; ++i)
        out[i] = convert<D>(impl::finalize(acc[i], g.k));
}

namespace detail {
// A register accumulator of an additive reducer that reads its runs in blocks (the plan's
// choice, plan/kernel_choice.hpp): operands standing still in the run read their splat, math
// functions with a vectorised form run over each block first (SLEEF), and the lanes take the
// elements in the order of the plain path (blocked_run), so the sums have its bits for the
// same terms.
template <class Impl, bool Blocked, class C>
void blocked_reduction(const loop_plan& p,
                       const C& child,
                       typename Impl::acc_type* a0,
                       temporary_cache& cache,
                       scratch& buffers) {
    auto ev = evaluator_builder<Blocked>{&p, cache, buffers}.build(child);
    if (jammed_rows(p.reduction) == 0 && arg_rows_per_pass(p.reduction) == 0) // as below
        FUSOR_TRACE_KERNEL(p, reduce_kernel_name(p.reduction)); // after the temporaries' loops
    using Ev = decltype(ev);
    // Two levels per call when the nest has them, the rows stepped here (as contiguous_rows)
    // rather than a driver call per run.
    const std::size_t levels = p.extents.size(), ops = p.operand_count;
    const index_buffer row_step = row_steps(p, levels >= 2);
    const bool collapsed = p.kernel == inner_kernel::collapsed;
    auto kernel = [a0, ops, &row_step, collapsed](Ev& ev, const block& b) {
        index_buffer off(b.offsets, ops);
        if (collapsed) {
            // Runs of b.cols as one loop (planning::collapsible_runs): each block of whole runs
            // bound at once (the operands continuing from run to run read in place, rows and
            // columns repeated into buffers, math functions over the block), then each run's
            // sum from it, its terms in the same order as alone.
            const index_t per_block = collapse_block(b.cols) / b.cols;
            for (index_t r0 = 0; r0 < b.rows; r0 += per_block) {
                const index_t runs = std::min(per_block, b.rows - r0);
                ev.bind_block(off.data(), r0 * b.cols, runs * b.cols);
                for (index_t q = 0; q < runs; ++q) {
                    typename Impl::acc_type* a = a0 + off[0] + (r0 + q) * row_step[0];
                    const bound_run run{q * b.cols};
                    if constexpr (std::is_same_v<typename Impl::acc_type,
                                                 reducers::detail::compensated_sum>)
                        *a = Impl::merge(*a, compensated_terms<Impl, true>(ev, b.cols, run));
                    else
                        *a = Impl::absorb(*a, pairwise_terms<Impl, true>(ev, 0, b.cols, run));
                }
            }
            return;
        }
        for (index_t r = 0; r < b.rows; ++r) {
            typename Impl::acc_type* a = a0 + off[0];
            const blocked_run<Ev> run{ev, off.data()};
            if constexpr (std::is_same_v<typename Impl::acc_type,
                                         reducers::detail::compensated_sum>)
                *a = Impl::merge(*a, compensated_terms<Impl, true>(ev, b.cols, run));
            else
                *a = Impl::absorb(*a, pairwise_terms<Impl, true>(ev, 0, b.cols, run));
            if (r + 1 < b.rows)
                for (std::size_t k = 0; k < ops; ++k)
                    off[k] += row_step[k];
        }
    };
    run_loop_nest(p, levels >= 2 ? 2 : 1, ev, kernel);
}

#if FUSOR_SUM_IN_REGISTERS
// The terms at [begin, begin + n) of a run bound by `ev.bind` (register_read::rows), n from 8,
// a register at a time: pairwise_terms' lanes and recursion (8 lanes and NumPy's tree to 511
// terms, 32 lanes to pairwise_block, halves above), its tail of fewer than L terms added in
// order after the tree: its bits, with every function computed on its argument's register.
template <class Impl, class Ev>
double register_run_terms(const Ev& ev, index_t begin, index_t n) {
    const auto with_tail = [&]<index_t L>() FUSOR_INLINE_LAMBDA {
        double s = register_lanes_sum<L, Ev, register_read::rows>(ev, begin, n);
        for (index_t i = n - n % L; i < n; i += 16) { // the tail, 16 terms per register
            const index_t len = std::min<index_t>(16, n - i);
            s = add_terms_in_order<Impl>(
                s, ev.template get_register<true, register_read::rows>(begin + i, len), len);
        }
        return s;
    };
    if (n <= pairwise_rows_max_run)
        return with_tail.template operator()<8>();
    if (n <= pairwise_block)
        return with_tail.template operator()<32>();
    index_t half = n / 2;
    half -= half % 32;
    return register_run_terms<Impl>(ev, begin, half)
           + register_run_terms<Impl>(ev, begin + half, n - half);
}

// The plan's rows_in_registers on a float32 sum (planning::math_sum_in_registers): each run
// bound where it starts and summed a register at a time, its math functions computed in the
// registers of their arguments, a still operand's element broadcast into a register
// (register_read::rows: these evaluators' leaves have no outer stride, so run q's evaluator
// reads its own element): no splat, repeat or function buffer. Runs of 8 to 511 go
// pairwise_rows_per_pass per pass (their chains of adds and the function calls in flight; one at
// a time, each run waited on its tree), then the runs left over one at a time, longer runs one at
// a time (register_run_terms). The lanes, order and tail of pairwise_terms (8 lanes and NumPy's
// tree from 8 terms, 32 lanes from 512, halves from 4,097; fewer than 8 in order), so its bits.
template <class Impl, class C>
void register_runs(const loop_plan& p,
                   const C& child,
                   typename Impl::acc_type* a0,
                   temporary_cache& cache,
                   scratch& buffers) {
    auto ev = evaluator_builder<true>{&p, cache, buffers}.build(child);
    using Ev = decltype(ev);
    static_assert(sum_in_registers<Impl, Ev>, "planning::math_sum_in_registers implies it");
    FUSOR_TRACE_KERNEL(p, reduce_kernel_name(p.reduction)); // after the temporaries' loops
    constexpr index_t R = pairwise_rows_per_pass;
    auto rows = make_evaluator_rows(ev); // no buffers to own: every function in registers
    const std::size_t levels = p.extents.size(), ops = p.operand_count;
    const index_buffer row_step = row_steps(p, levels >= 2);
    auto kernel = [a0, ops, &row_step](evaluator_rows<Ev>& e, const block& b) {
        index_buffer off(b.offsets, ops), o(ops);
        const auto absorb = [&](index_t q, double s) FUSOR_INLINE_LAMBDA {
            typename Impl::acc_type* a = a0 + off[0] + q * row_step[0];
            *a = Impl::absorb(*a, s);
        };
        const auto next = [&](index_t runs) FUSOR_INLINE_LAMBDA {
            for (std::size_t k = 0; k < ops; ++k)
                off[k] += runs * row_step[k];
        };
        index_t r = 0;
        if (b.cols >= 8 && b.cols <= pairwise_rows_max_run)
            for (; r + R <= b.rows; r += R) {
                for (index_t q = 0; q < R; ++q) {
                    for (std::size_t k = 0; k < ops; ++k)
                        o[k] = off[k] + q * row_step[k];
                    e.row[q].bind(o.data());
                }
                double s[R];
                rows_sums<Impl, R, true, register_read::rows>(e.row, 1, 0, b.cols, s);
                for (index_t q = 0; q < R; ++q)
                    absorb(q, s[q]);
                next(R);
            }
        for (; r < b.rows; ++r) {
            Ev& one = e.row[0];
            one.bind(off.data());
            double s[1];
            if (b.cols > pairwise_rows_max_run) {
                s[0] = register_run_terms<Impl>(one, 0, b.cols);
            } else if (b.cols >= 8) {
                rows_sums<Impl, 1, true, register_read::rows>(&one, 0, 0, b.cols, s);
            } else { // a thread's part of a run: pairwise_terms' few terms, in order
                s[0] = add_terms_in_order<Impl>(
                    0.0, one.template get_register<true, register_read::rows>(0, b.cols), b.cols);
            }
            absorb(0, s[0]);
            next(1);
        }
    };
    run_loop_nest(p, levels >= 2 ? 2 : 1, rows, kernel);
}
#endif

// The plan's finalize loop, on the same driver: out[...] = finalize(acc) over the result.
template <class Impl, class R, class C, class D>
void finalize_reduction(const loop_plan& p,
                        const reduction<R, C>& r,
                        const typename Impl::acc_type* a0,
                        const tensor_view<D>& out) {
    using acc_t = typename Impl::acc_type;
    using impl = Impl;
    const loop_plan& f = *p.finalize;
    const index_t count = r.count();
    const index_t so = f.extents.empty() ? 0 : f.stride(0, f.extents.size() - 1);
    const index_t sacc = f.extents.empty() ? 0 : f.stride(1, f.extents.size() - 1);
    struct finalize_context {
        D* out;
        const acc_t* acc;
        index_t so, sacc, count;
    } fc{out.data(), a0, so, sacc, count};
    drive(
        f,
        1,
        0,
        f.extents.empty() ? 1 : f.extents[0],
        [](void* c, const block& b) {
            const auto& x = *static_cast<const finalize_context*>(c);
            D* o = x.out + b.offsets[0];
            const acc_t* a = x.acc + b.offsets[1];
            for (index_t i = 0; i < b.cols; ++i)
                o[i * x.so] = convert<D>(impl::finalize(a[i * x.sacc], x.count));
        },
        &fc,
        false);
}
// A reduction's result computed elsewhere (the BLAS's product, row-major over the result)
// converted into `out` through the plan's finalize loop.
template <class T, class D>
void copy_result(const loop_plan& p, const T* a0, const tensor_view<D>& out) {
    const loop_plan& f = *p.finalize;
    struct copy_context {
        D* out;
        const T* from;
        index_t so, sf;
    } cc{out.data(),
         a0,
         f.extents.empty() ? 0 : f.stride(0, f.extents.size() - 1),
         f.extents.empty() ? 0 : f.stride(1, f.extents.size() - 1)};
    drive(
        f,
        1,
        0,
        f.extents.empty() ? 1 : f.extents[0],
        [](void* c, const block& b) {
            const auto& x = *static_cast<const copy_context*>(c);
            D* o = x.out + b.offsets[0];
            const T* a = x.from + b.offsets[1];
            for (index_t i = 0; i < b.cols; ++i)
                o[i * x.so] = convert<D>(a[i * x.sf]);
        },
        &cc,
        false);
}

// The plan's matrix product (reduce_kernel::gemm): the BLAS writes the result straight into
// `out` when the plan says it may (`direct`), else into a buffer converted into `out`. The
// operands' first elements come from their evaluators (a temporary is computed on the way).
template <class R, class C, class D>
void execute_gemm(const reduction<R, C>& r,
                  const loop_plan& p,
                  const tensor_view<D>& out,
                  temporary_cache& cache) {
    using T = typename C::value_type;
    scratch buffers;
    evaluator_builder<false> builder{&p, cache, buffers};
    // Each factor's evaluator, for its first element: an element-wise factor's is its temporary
    // (planning::factor_gemm_candidate: the plan computes it first), computed here.
    auto factor = [&builder](const auto& c) {
        if constexpr (planning::materialisable_factor<std::remove_cvref_t<decltype(c)>>)
            return builder.temporary_for(c.child);
        else
            return builder.build(c);
    };
    const auto first = factor(child<0>(r.child));
    const auto second = factor(child<1>(r.child));
    FUSOR_TRACE_KERNEL(p, reduce_kernel_name(p.reduction)); // after the factors' loops
    const T* a = p.gemm.swapped ? second.base : first.base;
    const T* b = p.gemm.swapped ? first.base : second.base;
    if constexpr (std::is_same_v<D, T>) {
        if (p.gemm.direct) {
            run_gemm<T>(p.gemm, a, b, out.data());
            return;
        }
    }
    const auto buffer = std::make_unique_for_overwrite<T[]>(static_cast<std::size_t>(r.size()));
    run_gemm<T>(p.gemm, a, b, buffer.get());
    copy_result(p, buffer.get(), out);
}
} // namespace detail

/// Runs a reduction plan: accumulates into a contiguous buffer over the result (operand 0),
/// then finalizes into `out` (any strided view of the result's shape) through the plan's
/// finalize loop. How it accumulates is the plan's `reduction` kernel: in registers when the
/// innermost loop reduces (pairwise in double, compensated lanes for float64 sums, eight lanes,
/// one in order, SIMD lanes for max/min, or logsumexp by blocks), else a row of accumulators (two,
/// four or eight rows per pass when the nest is [reduced, kept]).
template <class R, class C, class D>
void execute_reduction(const reduction<R, C>& r,
                       const loop_plan& p,
                       const tensor_view<D>& out,
                       temporary_cache& cache) {
    using impl = typename reduction<R, C>::impl;
    using acc_t = typename impl::acc_type;
    using value_t = typename C::value_type;
    detail::check_reducible(r);
    if constexpr (planning::gemm_candidate<R, C> || planning::factor_gemm_candidate<R, C>) {
        if (p.reduction == reduce_kernel::gemm) {
            detail::execute_gemm(r, p, out, cache); // traces the kernel
            return;
        }
    }
    if constexpr (planning::one_term_reducer<R>) {
        if (p.reduction == reduce_kernel::single_term) { // the terms' element-wise loop
            if (p.alias_copy)
                execute_alias_copy(p, out.data(), r.child, cache);
            else
                execute_elementwise(p, out.data(), r.child, cache);
            return;
        }
    }
    // Accumulators: up to `inline_accumulators` on the stack (a small result allocates
    // nothing), up to pooled_temporary_bytes of them from this thread's scratch pool (a
    // reduction evaluated again allocates nothing: bench_small's softmax of (256, 4)), more on
    // the heap (the pool keeps what it hands out). Not std::vector: all/any accumulate bool,
    // and vector<bool> has no data().
    static_assert(std::is_trivially_destructible_v<acc_t>);
    static_assert(alignof(acc_t) <= scratch_alignment);
    constexpr index_t inline_accumulators = 64;
    alignas(acc_t) unsigned char inline_acc[inline_accumulators * sizeof(acc_t)];
    std::unique_ptr<acc_t[]> heap_acc;
    scratch buffers;
    const index_t acc_bytes = r.size() * static_cast<index_t>(sizeof(acc_t));
    acc_t* a0 = reinterpret_cast<acc_t*>(inline_acc);
    if (r.size() > inline_accumulators) {
        if (acc_bytes <= pooled_temporary_bytes) {
            a0 = buffers.make<acc_t>(static_cast<std::size_t>(r.size()));
        } else {
            heap_acc = std::make_unique_for_overwrite<acc_t[]>(static_cast<std::size_t>(r.size()));
            a0 = heap_acc.get();
        }
    }
    // Each kernel is traced once its evaluator is built: building it computes the temporaries
    // the loop reads, whose loops run (and are traced) first. The jammed-rows and arg-rows
    // kernels trace the count they run.
    if constexpr (planning::product_candidate<R, C>) {
        if (p.reduction == reduce_kernel::small_gemm) { // fusor's i-k-j product, no driver
            const auto ev = evaluator_builder<false>{&p, cache, buffers}.build(r.child);
            FUSOR_TRACE_KERNEL(p, reduce_kernel_name(p.reduction));
            // A is operand 1 (choose_small_gemm never swaps: its kernel takes any strides).
            // The kernel starts each accumulator at the identity itself: no fill first.
            run_small_gemm<impl>(
                p.gemm, slot_value<0>(ev.children).base, slot_value<1>(ev.children).base, a0);
            detail::finalize_reduction<impl>(p, r, a0, out);
            return;
        }
    }
    std::uninitialized_fill_n(a0, r.size(), impl::identity());
#if FUSOR_SUM_IN_REGISTERS
    if constexpr (planning::math_sum_in_registers<impl, C>) {
        if (p.rows_in_registers) {
            detail::register_runs<impl>(p, r.child, a0, cache, buffers);
            detail::finalize_reduction<impl>(p, r, a0, out);
            return;
        }
    }
#endif
    if constexpr (planning::pairwise_reducer<impl>) {
        if ((p.kernel == inner_kernel::broadcast && p.reduction != reduce_kernel::row)
            || p.kernel == inner_kernel::collapsed || !p.vector_functions.empty()) {
            detail::blocked_reduction<impl, has_vector_math<C>>(p, r.child, a0, cache, buffers);
            detail::finalize_reduction<impl>(p, r, a0, out);
            return;
        }
    }
    // A sum whose terms call a vectorised math function runs its register accumulators through
    // blocked_reduction above whenever there is a run to sum (choose_reduction_kernel names the
    // functions then); the loops below take its rows of accumulators, its two-row and rescaled
    // kernels and a 0-d reduction, never several runs per pass or runs by blocks (an empty plan
    // may name those, and runs nothing).
    constexpr bool runs_in_blocks_only = planning::vector_math_sum<impl, C>;
    auto ev = evaluator_builder<false>{&p, cache, buffers}.build(r.child);
    if (jammed_rows(p.reduction) == 0 && arg_rows_per_pass(p.reduction) == 0)
        FUSOR_TRACE_KERNEL(p, reduce_kernel_name(p.reduction));
    using Ev = decltype(ev);
    const std::size_t levels = p.extents.size();
    const index_t sa = levels ? p.stride(0, levels - 1) : 0;
    const std::size_t idx_op = p.operand_count - 1; // the index operand, when there is one
    const index_t si = levels ? p.stride(idx_op, levels - 1) : 0;

    if (p.reduction == reduce_kernel::row && p.kernel == inner_kernel::broadcast) {
        // A row of accumulators (unit stride) over operands at unit stride or splatted, in
        // blocks of broadcast_block: the contiguous row loop, vectorised.
        auto kernel = [a0](Ev& ev, const block& b) {
            acc_t* a = a0 + b.offsets[0];
            for (index_t start = 0; start < b.cols; start += broadcast_block) {
                const index_t len = std::min(broadcast_block, b.cols - start);
                ev.bind_block(b.offsets, start, len);
                for (index_t i = 0; i < len; ++i)
                    a[start + i] = impl::step(a[start + i], ev.template get<true>(i), 0);
            }
        };
        run_loop_nest(p, 1, ev, kernel);
    } else if (p.reduction == reduce_kernel::rescaled_rows) {
        if constexpr (planning::rescaled_reducer<impl>) {
            const std::size_t ops = p.operand_count;
            detail::index_buffer row_step(ops);
            for (std::size_t k = 0; k < ops; ++k)
                row_step[k] = p.stride(k, 0);
            auto kernel = [&row_step, ops, a0](Ev& ev, const block& b) {
                detail::rescaled_rows_block<impl>(
                    ops, ev, a0 + b.offsets[0], b.rows, b.cols, b.offsets, row_step.data());
            };
            run_loop_nest(p, 2, ev, kernel);
        }
    } else if (p.reduction == reduce_kernel::pairwise_rows
               || p.reduction == reduce_kernel::pairwise_rows_simd) {
        if constexpr (planning::rows_at_once_reducer<impl> && !runs_in_blocks_only) {
            auto rows = detail::make_evaluator_rows(ev);
            for (index_t q = 1; q < pairwise_rows_per_pass; ++q)
                rows.row[q].own_buffers(buffers);
            const std::size_t ops = p.operand_count, inner = p.extents.size() - 1;
            detail::index_buffer row_step(ops);
            for (std::size_t k = 0; k < ops; ++k)
                row_step[k] = p.stride(k, inner - 1);
            auto in_rows = [&]<bool Registers>() {
                auto kernel = [&row_step, ops, a0](detail::evaluator_rows<Ev>& e, const block& b) {
                    detail::pairwise_rows_block<impl, Registers>(ops, e, a0, b, row_step.data());
                };
                run_loop_nest(p, 2, rows, kernel);
            };
            // The register form compiled only where the evaluator has it (the planner's
            // rows_terms_in_registers of the node implies it).
            bool in_registers = false;
            if constexpr (detail::sum_in_registers<impl, Ev>)
                in_registers = p.reduction == reduce_kernel::pairwise_rows_simd;
            if (in_registers)
                in_rows.template operator()<detail::sum_in_registers<impl, Ev>>();
            else
                in_rows.template operator()<false>();
        }
    } else if (arg_rows_per_pass(p.reduction) != 0) {
        if constexpr (planning::arg_rows_reducer<impl>) {
            // per_pass: the one count compiled for this reducer and child type, as the plan
            // chose it (planning::arg_rows_for); traced as what runs.
            constexpr index_t per_pass = planning::arg_rows_for<impl, C>;
            FUSOR_TRACE_KERNEL(p, reduce_kernel_name(planning::arg_rows_kernel(per_pass)));
            if constexpr (per_pass == 1) {
                auto kernel = [&p, a0](Ev& ev, const block& b) {
                    detail::arg_rows_block<impl>(p, ev, a0, b);
                };
                run_loop_nest(p, 2, ev, kernel);
            } else {
                auto jammed = detail::make_jammed_evaluators<per_pass>(ev);
                for (index_t q = 1; q < per_pass; ++q) // the first keeps the evaluation's buffers
                    jammed.row[q].own_buffers(buffers);
                auto kernel = [&p, a0](detail::jammed_evaluators<Ev, per_pass>& e, const block& b) {
                    detail::arg_lanes_block<impl, per_pass>(p, e, a0, b);
                };
                run_loop_nest(p, 2, jammed, kernel);
            }
        }
    } else if (jammed_rows(p.reduction) != 0) {
        if constexpr (!impl::needs_index) {
            // per_pass: the one count compiled for this child type. Two rows per pass where the
            // plan says two and either per_pass is two or the kept rows are short enough for
            // registers (then every block's are); else per_pass. Traced as what runs.
            constexpr index_t per_pass = planning::jammed_rows_for<C>;
            const index_t rows =
                jammed_rows(p.reduction) == 2
                        && (per_pass == 2 || planning::jammed_rows_in_registers<impl, C>(p))
                    ? 2
                    : per_pass;
            FUSOR_TRACE_KERNEL(p, reduce_kernel_name(planning::jammed_rows_kernel(rows)));
            auto jammed = detail::make_jammed_evaluators<per_pass>(ev);
            for (index_t q = 1; q < per_pass; ++q) // the first keeps the evaluation's buffers
                jammed.row[q].own_buffers(buffers);
            auto kernel = [&p, rows, a0](detail::jammed_evaluators<Ev, per_pass>& e,
                                         const block& b) {
                detail::jammed_rows_block<impl>(p, rows, e, a0, b);
            };
            run_loop_nest(p, 2, jammed, kernel);
        }
    } else if (detail::pairwise_runs_by_blocks<impl>(p)) {
        // Pairwise sums of contiguous runs, a block of rows of them per call of the kernel: the
        // same runs in the same order as one run per call (below), without the driver's call
        // between two of them (einsum "ijk,ik->ij" over (64, 64, 64): 4,096 runs of 64).
        if constexpr (detail::plain_pairwise_reducer<impl> && !runs_in_blocks_only) {
            const std::size_t ops = p.operand_count;
            detail::index_buffer row_step(ops);
            for (std::size_t k = 0; k < ops; ++k)
                row_step[k] = p.stride(k, levels - 2);
            auto kernel = [&row_step, ops, a0](Ev& ev, const block& b) {
                detail::index_buffer off(b.offsets, ops);
                for (index_t r = 0; r < b.rows; ++r) {
                    ev.bind(off.data());
                    acc_t* a = a0 + off[0];
                    *a = impl::absorb(*a, detail::pairwise_terms<impl, true>(ev, 0, b.cols));
                    for (std::size_t k = 0; k < ops; ++k)
                        off[k] += row_step[k];
                }
            };
            run_loop_nest(p, 2, ev, kernel);
        }
    } else {
        // One inner loop; which accumulation it runs is the plan's (plan/kernel_choice.hpp).
        auto run = [&]<bool Contiguous>() {
            auto kernel = [&](Ev& ev, const block& b) {
                const index_t n = b.cols;
                const index_t* off = b.offsets;
                ev.bind(off);
                acc_t* a = a0 + off[0];
                const index_t i0 = impl::needs_index ? off[idx_op] : 0;
                // The same switch as detail::register_reduce, written out here: calling that
                // function (or any shared form of it) from this lambda made g++ compile the
                // SIMD max/min kernel ~20 % slower (W7_max_axis1, A/B 26-27 -> 21-22 GB/s).
                switch (p.reduction) {
                case reduce_kernel::pairwise:
                case reduce_kernel::float_lanes:
                case reduce_kernel::float_lanes_simd: // (execute_flat_reduction's; same bits)
                case reduce_kernel::compensated:
                    if constexpr (planning::pairwise_reducer<impl>) {
                        if constexpr (std::is_same_v<acc_t, reducers::detail::compensated_sum>)
                            *a =
                                impl::merge(*a, detail::compensated_terms<impl, Contiguous>(ev, n));
                        else
                            *a = impl::absorb(*a,
                                              detail::pairwise_terms<impl, Contiguous>(ev, 0, n));
                    }
                    return;
                case reduce_kernel::pairwise_simd:
                    if constexpr (planning::pairwise_reducer<impl>) {
                        constexpr bool registers = Contiguous && detail::sum_in_registers<impl, Ev>;
                        if constexpr (!std::is_same_v<acc_t, reducers::detail::compensated_sum>)
                            *a = impl::absorb(
                                *a, detail::pairwise_terms<impl, Contiguous, registers>(ev, 0, n));
                    }
                    return;
                case reduce_kernel::minmax_simd:
                    if constexpr (Contiguous && planning::vector_minmax<impl, value_t>)
                        *a = impl::merge(
                            *a, detail::vector_minmax_reduce<impl, value_t>(ev, n, i0, si));
                    return;
                case reduce_kernel::rescaled_blocks:
                    if constexpr (planning::rescaled_reducer<impl>)
                        *a = impl::merge(*a,
                                         detail::rescaled_blocks_reduce<impl, Contiguous>(ev, n));
                    return;
                case reduce_kernel::sequential:
                    *a =
                        impl::merge(*a, detail::sequential_reduce<impl, Contiguous>(ev, n, i0, si));
                    return;
                case reduce_kernel::lanes:
                    *a = impl::merge(*a, detail::lane_reduce<impl, Contiguous>(ev, n, i0, si));
                    return;
                default:                        // a row of accumulators
                    if constexpr (Contiguous) { // the accumulator row has unit stride here
                        for (index_t i = 0; i < n; ++i)
                            a[i] = impl::step(a[i], ev.template get<true>(i), i0 + i * si);
                    } else {
                        for (index_t i = 0; i < n; ++i)
                            a[i * sa] =
                                impl::step(a[i * sa], ev.template get<false>(i), i0 + i * si);
                    }
                    return;
                }
            };
            run_loop_nest(p, 1, ev, kernel);
        };
        if (p.kernel == inner_kernel::contiguous)
            run.template operator()<true>();
        else
            run.template operator()<false>();
    }

    detail::finalize_reduction<impl>(p, r, a0, out);
}

/// As above, for a reduction at the root of an evaluation (its own temporaries).
template <class R, class C, class D>
void execute_reduction(const reduction<R, C>& r, const loop_plan& p, const tensor_view<D>& out) {
    temporary_cache cache;
    execute_reduction(r, p, out, cache);
}

template <class R, class C>
void evaluate_reduction(const reduction<R, C>& r,
                        const loop_plan& p,
                        tensor<typename reduction<R, C>::value_type>& t,
                        temporary_cache& cache) {
    if constexpr (planning::flat_reduction_candidate<reduction<R, C>>) {
        if (p.flat_reduction) {
            // A boundary the planner found to be a flat reduction (tree_walker::materialise):
            // its runs (p.flat_runs) straight into the temporary, as at the root (a row
            // softmax's `max(x, 1)` over (8, 16): a register per row, not the driver's nest).
            execute_flat_reduction(p.flat_runs, r, t.data(), &p);
            return;
        }
    }
    execute_reduction(r, p, t.view(), cache);
}

} // namespace fusor::exec

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/exec/execute.ipp>
#endif
