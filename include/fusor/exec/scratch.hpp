// fusor/exec/scratch.hpp: the scratch buffers kernels need (a still operand's splat, a tile, a
// block of vector math), taken from a per-thread pool that is never given back to the heap.
// Evaluators hold raw pointers into it, so building, copying and destroying one costs nothing,
// and after the first evaluation of a given size none allocates.
#pragma once

#include <cstddef>
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

/// The buffers of one evaluation, or of one thread of it: `make<T>(n)` gives room for `n`
/// elements of `T` (16-byte aligned, uninitialised) until this object is destroyed. Scratch
/// objects on one thread live in stack order (an evaluation's boundaries are evaluated, with
/// their own scratch, while it builds), so the pool is a stack: destroying one gives back
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
            pool_.blocks[pool_.used] = std::make_unique_for_overwrite<unsigned char[]>(bytes);
            pool_.sizes[pool_.used] = bytes;
        }
        return reinterpret_cast<T*>(pool_.blocks[pool_.used++].get());
    }

private:
    detail::scratch_pool& pool_;
    std::size_t mark_;
};

} // namespace fusor::exec

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/exec/scratch.ipp>
#endif
