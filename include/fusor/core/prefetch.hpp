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

/// How many rows of `row_bytes` ahead a gather of whole rows (`take(a, idx, 0)` of a matrix,
/// `view(x, idx, all)`) asks for each row's first cache line (the hardware prefetcher follows a
/// row once it is being read): about 4 KiB ahead, 4 to gather_prefetch_distance rows. Rows of a
/// (2^26 / w, w) float32 matrix gathered 2^22 (w <= 16) or 2^19 times: w = 2 82-83 -> 43-45 ms,
/// 16 68-74 -> 45-49, 64 14-17 -> 10-14, 256 67-110 -> 50-78 (4 to 64 rows ahead alike).
constexpr index_t gather_prefetch_rows(std::size_t row_bytes) {
    const std::size_t ahead = row_bytes == 0 ? 64 : 4096 / row_bytes;
    return ahead < 4 ? 4 : ahead > 64 ? gather_prefetch_distance : static_cast<index_t>(ahead);
}

/// Hints that element `i * stride` past `base` will be read soon. `i` may be any index, checked
/// or not: the address is formed in unsigned integers (no out-of-range pointer arithmetic, no
/// signed overflow for an absurd index, which its check rejects later) and a prefetch never
/// faults.
template <class T>
inline void prefetch_element(const T* base, std::int64_t i, index_t stride = 1) {
    const auto at = reinterpret_cast<std::uintptr_t>(base)
                    + static_cast<std::uintptr_t>(i) * static_cast<std::uintptr_t>(stride)
                          * static_cast<std::uintptr_t>(sizeof(T));
    __builtin_prefetch(reinterpret_cast<const void*>(at), 0, 3);
}

} // namespace fusor::detail
