// fusor/core/prefetch.hpp: read prefetches for gathers (`take`, `view(x, idx)`), whose addresses
// come from an index array and so are beyond what the hardware prefetcher predicts.
#pragma once

#include <cstddef>
#include <cstdint>

#include <fusor/fwd.hpp> // index_t

namespace fusor::detail {

/// How many indices ahead of the element it stores a gather asks the cache for one. Each random
/// read from memory waits about 100 ns; the loop alone keeps only as many in flight as its
/// out-of-order window holds. 2^20 random float32 from 2^24 on this project's Zen 4 host (one
/// thread): 6.3-6.9 ms without, 5.2-5.8 ms at 32, 64 or 128 ahead alike, 6.2-6.4 ms at 8 or 16.
inline constexpr index_t gather_prefetch_distance = 64;

/// Below this many bytes of source a gather does not prefetch: the source sits in the caches
/// (up to L2, 1 MiB on that host), where the extra index load and hint per element cost time
/// (2^20 gathers from 16 KiB: 0.52-0.54 ms without, 0.56-0.59 with; from 1 MiB the same).
inline constexpr std::size_t gather_prefetch_min_bytes = std::size_t{1} << 20;

/// Hints that element `i` past `base` will be read soon. `i` may be any index, checked or not:
/// the address is formed as an integer (no out-of-range pointer arithmetic) and a prefetch
/// never faults.
template <class T>
inline void prefetch_element(const T* base, std::int64_t i) {
    const auto at = reinterpret_cast<std::uintptr_t>(base)
                    + static_cast<std::uintptr_t>(i) * static_cast<std::uintptr_t>(sizeof(T));
    __builtin_prefetch(reinterpret_cast<const void*>(at), 0, 3);
}

} // namespace fusor::detail
