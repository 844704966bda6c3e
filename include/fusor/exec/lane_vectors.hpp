// fusor/exec/lane_vectors.hpp: a reduction's N accumulator lanes as GCC/Clang vectors
// (`vector_size`) of at most one register of the target each. g++ 12 does not split a vector
// wider than the target's registers into registers when it takes a select or a lane-wise add:
// it went through the stack lane by lane (AVX2: max along rows at 0.2 of the hand loop,
// mean(x, 0) of (100000, 8) float64 at half speed; docs/performance.md).
#pragma once

#include <fusor/core/shape.hpp>     // index_t
#include <fusor/plan/loop_plan.hpp> // lane_vector_bytes

namespace fusor::exec::detail {

// N lanes of T (N a power of two) as `count` vectors of `width` lanes each: lane j is element
// j % width of vector j / width. `width` is N or one register's worth (lane_vector_bytes /
// sizeof(T)), whichever is smaller.
template <class T, index_t N>
struct lane_vectors {
    static constexpr index_t per_register = lane_vector_bytes / index_t{sizeof(T)};
    static constexpr index_t width = per_register < N ? per_register : N;
    static constexpr index_t count = N / width;
    typedef T vector __attribute__((vector_size(width * sizeof(T))));
};

} // namespace fusor::exec::detail
