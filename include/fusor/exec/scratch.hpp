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
/// buffers 4 bytes off a line, 1.8 us aligned (docs/performance.md, 2026-11-30).
inline constexpr std::size_t scratch_alignment = 64;

/// The buffers of one evaluation, or of one thread of it: `make<T>(n)` gives room for `n`
/// elements of `T` (scratch_alignment-aligned, uninitialised) until this object is destroyed.
/// Scratch objects on one thread live in stack order (an evaluation's boundaries are evaluated,
/// with their own scratch, while it builds), so the pool is a stack: destroying one gives back
/// everything it took.
class scratch {
public:
    scratch() : pool_(detail::thread_scratch_pool()), mark_(pool_.used) {}
    scratch(const scratch&) = delete;
    scratch& operator=(const scratch&) = delete;
    ~scratch() { pool_.used = mark_; }

    template <class T>
    T* make(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (pool_.used == pool_.blocks.size()) {
            pool_.blocks.emplace_back();
            pool_.sizes.push_back(0);
        }
        if (pool_.sizes[pool_.used] < bytes) {
            pool_.blocks[pool_.used] =
                std::make_unique_for_overwrite<unsigned char[]>(bytes + scratch_alignment - 1);
            pool_.sizes[pool_.used] = bytes;
        }
        const auto at = reinterpret_cast<std::uintptr_t>(pool_.blocks[pool_.used++].get());
        return reinterpret_cast<T*>((at + scratch_alignment - 1) & ~(scratch_alignment - 1));
    }

private:
    detail::scratch_pool& pool_;
    std::size_t mark_;
};

} // namespace fusor::exec

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/exec/scratch.ipp>
#endif
