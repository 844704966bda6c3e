// fusor/exec/stream_stores.hpp: non-temporal (streaming) stores for loop_plan::stream_block:
// a block computed into a buffer that stays in the first-level cache is stored past the caches,
// so the destination's lines are not read before they are written (an ordinary store reads
// each line it writes: a third of the memory traffic of `c = a * b + d`).
#pragma once

#include <cstdint>

#include <fusor/config.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/plan/loop_plan.hpp> // stream_block_bytes

#if defined(__x86_64__) && defined(__SSE2__)
// The widest stores the target has: AVX's and AVX-512's in <immintrin.h>, SSE2's in
// <emmintrin.h>. Only what is used: <immintrin.h> declares every x86 extension's intrinsics and
// took g++ 0.7 s on its own, a quarter of `#include <fusor/fusor.hpp>` for the default target.
#if defined(__AVX__)
#include <immintrin.h>
#else
#include <emmintrin.h>
#endif
#define FUSOR_STREAM_STORES 1
#else
#define FUSOR_STREAM_STORES 0
#endif

namespace fusor::exec {

/// Stores `bytes` (a multiple of 64) from `from` to `to`, both 64-byte aligned, with streaming
/// stores of the widest register the target has (64, 32 or 16 bytes). Without them (not
/// x86-64), an ordinary copy.
FUSOR_INLINE void stream_copy(void* to, const void* from, index_t bytes) {
    char* t = static_cast<char*>(to);
    const char* f = static_cast<const char*>(from);
#if FUSOR_STREAM_STORES && defined(__AVX512F__)
    for (index_t k = 0; k < bytes; k += 64)
        _mm512_stream_si512(reinterpret_cast<__m512i*>(t + k),
                            _mm512_load_si512(reinterpret_cast<const void*>(f + k)));
#elif FUSOR_STREAM_STORES && defined(__AVX__)
    for (index_t k = 0; k < bytes; k += 32)
        _mm256_stream_si256(reinterpret_cast<__m256i*>(t + k),
                            _mm256_load_si256(reinterpret_cast<const __m256i*>(f + k)));
#elif FUSOR_STREAM_STORES
    for (index_t k = 0; k < bytes; k += 16)
        _mm_stream_si128(reinterpret_cast<__m128i*>(t + k),
                         _mm_load_si128(reinterpret_cast<const __m128i*>(f + k)));
#else
    for (index_t k = 0; k < bytes; ++k)
        t[k] = f[k];
#endif
}

/// Orders the streaming stores before any later store of this thread (SFENCE): called once a
/// kernel's block is done, before the thread's results can be read by another (the end of a
/// parallel region is a barrier, but its ordering of streaming stores is the hardware's, not
/// OpenMP's promise).
FUSOR_INLINE void stream_fence() {
#if FUSOR_STREAM_STORES
    _mm_sfence();
#endif
}

/// The elements of `out` (a row of `n`) before its first 64-byte boundary: the head a streamed
/// row stores the ordinary way (every element type's size divides 64).
template <class D>
FUSOR_INLINE index_t elements_to_line(const D* out, index_t n) {
    const auto address = reinterpret_cast<std::uintptr_t>(out);
    const auto head = static_cast<index_t>(((64 - address % 64) % 64) / sizeof(D));
    return head < n ? head : n;
}

} // namespace fusor::exec
