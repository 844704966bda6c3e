// fusor/exec/temporary_pool.hpp: small materialised temporaries kept per thread, so that an
// evaluation repeated in a loop (a softmax per sample: its row maxima and sums) takes them
// from the last evaluation instead of the heap. As the scratch pool (exec/scratch.hpp), memory
// kept for the thread, never given back; unlike scratch buffers, a temporary is an owned
// tensor (plans read it through a shared_ptr), so one is reused only once nothing else holds
// it.
#pragma once

#include <cstddef>
#include <memory>

#include <fusor/config.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor::exec {

/// The most bytes of a temporary the pool keeps: temporaries of this size or less cost about
/// as much to allocate as to compute (`(8, 16)` softmax's two (8, 1) temporaries: two of its
/// allocations per evaluation), larger ones are computed in loops that dwarf an allocation.
inline constexpr index_t pooled_temporary_bytes = 16384;

/// How many temporaries of one element type a thread keeps: an evaluation's boundaries that
/// are small (a layer norm's mean and variance, a softmax's maxima and sums) fit.
inline constexpr std::size_t pooled_temporaries = 8;

namespace detail {
template <class T>
struct temporary_pool {
    std::shared_ptr<tensor<T>> kept[pooled_temporaries];
};
template <class T>
temporary_pool<T>& thread_temporary_pool() {
    thread_local temporary_pool<T> pool;
    return pool;
}
} // namespace detail

/// A contiguous tensor of `shape` for a temporary, its elements uninitialised: one the pool
/// holds of as many elements and that nothing else holds any more (the evaluation that used
/// it has ended), given `shape`; else a new one, kept in the pool when it has at most
/// pooled_temporary_bytes and a slot is idle. Results never depend on the pool: a temporary is
/// written whole before it is read.
template <class T>
std::shared_ptr<tensor<T>> pooled_temporary(const shape_t& shape) {
    const index_t n = shape_size(shape);
    if (n * static_cast<index_t>(sizeof(T)) > pooled_temporary_bytes)
        return std::make_shared<tensor<T>>(shape, uninitialized);
    auto& pool = detail::thread_temporary_pool<T>();
    std::shared_ptr<tensor<T>>* idle = nullptr;
    for (auto& k : pool.kept) {
        // use_count 1: only the pool holds it. No other thread can take a reference to it
        // (the pool is this thread's), so it cannot become shared after this test.
        if (k && k.use_count() == 1 && k->size() == n) {
            if (!(k->shape() == shape))
                k->reshape(shape);
            return k;
        }
        if (!idle && (!k || k.use_count() == 1))
            idle = &k;
    }
    auto t = std::make_shared<tensor<T>>(shape, uninitialized);
    if (idle)
        *idle = t;
    return t;
}

} // namespace fusor::exec
