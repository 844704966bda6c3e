// fusor/core/tail_slack.hpp: how every buffer fusor allocates for elements is laid out: aligned
// to a cache line, with zeroed bytes after its last element.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

namespace fusor::detail {

/// Bytes every buffer fusor allocates (a tensor's elements, a scratch buffer) keeps after its
/// last element, zeroed when it is allocated. The register form of the kernels reads and writes
/// a loop's last partial register through masked loads and stores; masked-off lanes that reach
/// a page that is not present (never touched, or not mapped) make the access a
/// fault-suppression assist on x86, a microcode path of about 130 ns on this project's AVX-512
/// host (`exp(a)` over 17 float32 into memory ending before an untouched page: 230 ns, against
/// 103 when that page had been written). Zeroing the slack when the buffer is made makes its
/// page present, so no register from the last element onwards (at most 64 bytes) reaches
/// another. Memory fusor does not allocate (`adapt`) has no such slack: docs/api.md.
inline constexpr std::size_t tail_slack_bytes = 64;

/// Zeroes the tail_slack_bytes at `end` (the byte after a new buffer's last element).
inline void zero_tail_slack(void* end) {
    std::memset(end, 0, tail_slack_bytes);
}

/// The alignment of a buffer of elements fusor allocates (a tensor's, a block's stored rows):
/// one cache line, one 512-bit register. operator new gives 16 bytes, and glibc's large blocks
/// start 16 bytes past a page, so with 16 every 64-byte load of an AVX-512 kernel straddled two
/// cache lines: `sum(a * b, 1)` over (4096, 4096) float32 ran 1.5x slower than from aligned rows
/// (docs/performance.md, "Buffers aligned to a cache line").
inline constexpr std::size_t buffer_alignment = 64;

/// Frees an allocate_with_tail_slack buffer (its elements are trivially destructible).
template <class T>
struct aligned_buffer_delete {
    void operator()(T* p) const noexcept {
        ::operator delete[](p, std::align_val_t{buffer_alignment});
    }
};
/// A buffer of elements from allocate_with_tail_slack.
template <class T>
using aligned_buffer = std::unique_ptr<T[], aligned_buffer_delete<T>>;

/// `n` uninitialised elements of `T`, the first at a multiple of buffer_alignment, followed by
/// tail_slack_bytes of zeros. Throws std::bad_array_new_length when the bytes overflow and
/// std::bad_alloc when memory runs out, as `new T[n]`.
template <class T>
aligned_buffer<T> allocate_with_tail_slack(std::size_t n) {
    static_assert(std::is_trivially_destructible_v<T> && alignof(T) <= buffer_alignment);
    constexpr std::size_t extra = (tail_slack_bytes + sizeof(T) - 1) / sizeof(T);
    if (n > static_cast<std::size_t>(-1) / sizeof(T) - extra)
        throw std::bad_array_new_length();
    void* raw = ::operator new[]((n + extra) * sizeof(T), std::align_val_t{buffer_alignment});
    // For-overwrite, as std::make_unique_for_overwrite: no initialisation of the (trivial) types.
    T* p = ::new (raw) T[n + extra];
    zero_tail_slack(p + n);
    return aligned_buffer<T>(p);
}

} // namespace fusor::detail
