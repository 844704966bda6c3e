// fusor/exec/scratch.hpp: the scratch buffers kernels need (a still operand's splat, a tile, a
// block of vector math), taken from a per-thread pool that is never given back to the heap.
// Evaluators hold raw pointers into it, so building, copying and destroying one costs nothing,
// and after the first evaluation of a given size none allocates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/tail_slack.hpp>

namespace fusor::exec {

namespace detail {
// One thread's buffers, handed out in stack order: `used` of them are taken.
struct scratch_pool {
    std::vector<std::unique_ptr<unsigned char[]>> blocks;
    std::vector<std::size_t> sizes;
    std::size_t used = 0;
};
FUSOR_DECL scratch_pool& thread_scratch_pool();
} // namespace detail

/// How scratch buffers are aligned: a cache line. A still operand's splat buffer is written
/// and read back at once, a 64-byte register at a time; where a register straddles two lines
/// (malloc gives 16 bytes) the read cannot be forwarded from the store and waits for it: a
/// scratch program splatting two buffers per row of 16 took 6.6-6.8 us for 512 rows with the
/// buffers 4 bytes off a line, 1.8 us aligned (docs/performance.md, 2026-11-30). The same as a
/// tensor's buffer (core/tail_slack.hpp).
inline constexpr std::size_t scratch_alignment = fusor::detail::buffer_alignment;

/// The buffers of one evaluation, or of one thread of it: `make<T>(n)` gives room for `n`
/// elements of `T` (scratch_alignment-aligned, uninitialised, then tail_slack_bytes of zeros,
/// zeroed at each make: core/tail_slack.hpp) until this object is destroyed.
/// Scratch objects on one thread live in stack order (an evaluation's boundaries are evaluated,
/// with their own scratch, while it builds), so the pool is a stack: destroying one gives back
/// everything it took. The pool is looked up at the first `make`, not before: a scratch that
/// makes nothing costs a store and a test (the general element-wise path holds one for every
/// plan, and only the broadcast, collapsed, tiled and vector-math kernels make buffers).
class scratch {
public:
    scratch() = default;
    scratch(const scratch&) = delete;
    scratch& operator=(const scratch&) = delete;
    ~scratch() {
        if (pool_)
            pool_->used = mark_;
    }

    template <class T>
    T* make(std::size_t n) {
        if (!pool_) {
            // Nothing made since this object was: what it takes starts at the pool's top, and
            // any scratch made after it has given its buffers back (stack order).
            pool_ = &detail::thread_scratch_pool();
            mark_ = pool_->used;
        }
        detail::scratch_pool& pool = *pool_;
        const std::size_t bytes = n * sizeof(T);
        if (pool.used == pool.blocks.size()) {
            pool.blocks.emplace_back();
            pool.sizes.push_back(0);
        }
        if (pool.sizes[pool.used] < bytes) {
            pool.blocks[pool.used] = std::make_unique_for_overwrite<unsigned char[]>(
                bytes + scratch_alignment - 1 + fusor::detail::tail_slack_bytes);
            pool.sizes[pool.used] = bytes;
        }
        const auto at = reinterpret_cast<std::uintptr_t>(pool.blocks[pool.used++].get());
        auto* first = reinterpret_cast<unsigned char*>((at + scratch_alignment - 1)
                                                       & ~(scratch_alignment - 1));
        fusor::detail::zero_tail_slack(first + bytes);
        return reinterpret_cast<T*>(first);
    }

private:
    detail::scratch_pool* pool_ = nullptr; ///< this thread's, from the first make on
    std::size_t mark_ = 0;                 ///< the pool's top at the first make
};

} // namespace fusor::exec

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/exec/scratch.ipp>
#endif
