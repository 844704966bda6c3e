// fusor/exec/driver.hpp: THE loop. One odometer over a plan's coalesced loop nest hands each
// block (the innermost level, or the two innermost for two-level kernels) to a kernel; one
// function splits the work across threads. Every kernel in exec/ runs through these two.
#pragma once

#include <cstddef>

#include <fusor/config.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/index_buffer.hpp>
#include <fusor/exec/scratch.hpp>
#include <fusor/exec/threads.hpp>
#include <fusor/plan/loop_plan.hpp>

namespace fusor::exec {

/// What the driver hands a kernel: every operand's element offset at the block's start
/// (`offsets[k]`), and the block's extent: `cols` iterations of the innermost level, `rows` of
/// the level outside it for two-level kernels (1 otherwise).
struct block {
    const index_t* offsets;
    index_t rows;
    index_t cols;
};

/// A kernel as the driver calls it: a plain function pointer and its context, so the odometer
/// below is compiled once for the whole program, not once per expression type.
using block_kernel = void (*)(void* context, const block& b);

/// The odometer. Runs `kernel` once per block of `p`'s loop nest, where a block is the
/// innermost `depth` levels (1 or 2); the split level (the outermost, or the innermost when
/// `p.split_inner`) is limited to [begin, end). Operand offsets advance by precomputed strides:
/// no index multiplication per element. A 0-d plan makes one block of one element; an empty
/// plan none. `traced`: false for a reduction's finalize loop, which explain shows as a line of
/// its reduction's loop, not as a loop of its own.
///
/// Test hook: a translation unit that defines `FUSOR_TRACE_INNER_LOOP(plan, offsets, n)` before
/// including fusor sees every inner loop of every block as it runs (tests/explain proves with
/// it that the loops explain prints are the loops that run). Without it there is no cost.
// Inline in every mode, FUSOR_SEPARATE_COMPILATION included: its body holds the trace hook a
// translation unit may define (FUSOR_TRACE_INNER_LOOP), so it cannot be compiled once.
inline void drive(const loop_plan& p,
                  int depth,
                  index_t begin,
                  index_t end,
                  block_kernel kernel,
                  void* context,
                  bool traced = true) {
    if (p.empty || begin >= end)
        return;
    const std::size_t ops = p.operand_count;
    const std::size_t levels = p.extents.size();
    detail::index_buffer offsets(ops, 0); // no allocation up to 16 operands
    auto call = [&](index_t rows, index_t cols) {
#ifdef FUSOR_TRACE_INNER_LOOP
        if (!traced) {
        } else if (rows == 1) {
            FUSOR_TRACE_INNER_LOOP(p, offsets.data(), cols);
        } else {
            detail::index_buffer row(ops, 0);
            for (index_t r = 0; r < rows; ++r) {
                for (std::size_t k = 0; k < ops; ++k)
                    row[k] = offsets[k] + r * p.stride(k, levels - 2);
                FUSOR_TRACE_INNER_LOOP(p, row.data(), cols);
            }
        }
#else
        (void)traced;
#endif
        kernel(context, block{offsets.data(), rows, cols});
    };
    if (levels == 0) {
        call(1, 1);
        return;
    }
    const std::size_t split = p.split_inner ? levels - 1 : 0;
    const std::size_t outer = levels - static_cast<std::size_t>(depth); // odometer levels
    auto low = [&](std::size_t l) {
        return l == split ? begin : index_t{0};
    };
    auto high = [&](std::size_t l) {
        return l == split ? end : p.extents[l];
    };
    for (std::size_t k = 0; k < ops; ++k)
        offsets[k] = begin * p.stride(k, split);
    const index_t rows = depth == 2 ? high(levels - 2) - low(levels - 2) : 1;
    const index_t cols = high(levels - 1) - low(levels - 1);
    if (outer == 0) {
        call(rows, cols);
        return;
    }
    detail::index_buffer counter(outer, 0);
    for (std::size_t l = 0; l < outer; ++l)
        counter[l] = low(l);
    for (;;) {
        call(rows, cols);
        // Carry from the innermost odometer level outwards.
        std::size_t l = outer;
        for (;;) {
            --l;
            for (std::size_t k = 0; k < ops; ++k)
                offsets[k] += p.stride(k, l);
            if (++counter[l] < high(l))
                break;
            if (l == 0)
                return;
            for (std::size_t k = 0; k < ops; ++k)
                offsets[k] -= p.stride(k, l) * (high(l) - low(l));
            counter[l] = low(l);
        }
    }
}

/// A worker thread's own copy of the state a kernel reads (an evaluator, or a pair of them),
/// with the scratch its buffers come from: copies share the original's buffers until
/// `own_buffers` gives them their own.
template <class Local>
struct thread_state {
    scratch buffers; // first: `local` takes its buffers from it
    Local local;
    explicit thread_state(const Local& original) : local(original) { local.own_buffers(buffers); }
};

namespace detail {
/// The driver's call of `kernel(local, b)` for one kind of state and kernel: a plain function,
/// one per pair of types (a lambda converted to a function pointer is two at -O0).
template <class Local, class Kernel>
struct nest_call {
    Local* local;
    Kernel* kernel;
    static void run(void* context, const block& b) {
        auto* c = static_cast<nest_call*>(context);
        (*c->kernel)(*c->local, b);
    }
};

/// A thread's state for a split loop nest, made from the calling thread's `local`: one pair of
/// functions per type of state, shared by every kernel that runs over it. (As parts of each
/// kernel's chunk loop, the state's copy was compiled once per kernel: ~360 bytes each at -O3.)
template <class Local>
struct nest_state {
    static void make(void* local, void* storage) {
        ::new (storage) thread_state<Local>(*static_cast<const Local*>(local));
    }
    static void destroy(void* state) noexcept {
        static_cast<thread_state<Local>*>(state)->~thread_state();
    }
};

/// One chunk of a split loop nest: the driver over iterations [begin, end) of the split level,
/// with a thread's state.
template <class Local, class Kernel>
struct nest_chunk {
    const loop_plan* p;
    int depth;
    Kernel* kernel;
    static void run(void* context, void* state, index_t begin, index_t end) {
        const auto* c = static_cast<const nest_chunk*>(context);
        nest_call<Local, Kernel> call{&static_cast<thread_state<Local>*>(state)->local, c->kernel};
        drive(*c->p, c->depth, begin, end, &nest_call<Local, Kernel>::run, &call);
    }
};
} // namespace detail

/// The one place work is split across threads: runs `kernel(local, b)` over every block of
/// `p`'s loop nest (`depth` levels per block), on `p.threads` threads in chunks of `p.chunk`
/// iterations of the split level when the plan says so (each extra thread with its own copy of
/// `local`), else on the calling thread with `local`. The chunks depend only on the extents, so
/// every result is the same for any thread count.
template <class Local, class Kernel>
void run_loop_nest(const loop_plan& p, int depth, Local& local, Kernel& kernel) {
    const std::size_t levels = p.extents.size();
    const index_t extent = levels == 0 ? 1 : p.extents[p.split_inner ? levels - 1 : 0];
    if (!threads_enabled || p.threads <= 1 || p.chunk == 0) {
        detail::nest_call<Local, Kernel> call{&local, &kernel};
        drive(p, depth, 0, extent, &detail::nest_call<Local, Kernel>::run, &call);
        return;
    }
    if constexpr (threads_enabled) {
        // Through the team's shared code even for one chunk: no second copy of the state's
        // set-up per kernel for a case that hardly happens.
        using state = detail::nest_state<Local>;
        detail::nest_chunk<Local, Kernel> chunk{&p, depth, &kernel};
        const detail::chunk_work w{&chunk,
                                   &local,
                                   sizeof(thread_state<Local>),
                                   alignof(thread_state<Local>),
                                   &state::make,
                                   &state::destroy,
                                   &detail::nest_chunk<Local, Kernel>::run,
                                   extent,
                                   p.chunk};
        detail::run_chunk_loop(p.threads, w);
    }
}

} // namespace fusor::exec
