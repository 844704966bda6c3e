// fusor/core/tail_slack.hpp: the bytes every buffer fusor allocates keeps after its elements.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>

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

/// `n` uninitialised elements of `T` followed by tail_slack_bytes of zeros.
template <class T>
std::unique_ptr<T[]> allocate_with_tail_slack(std::size_t n) {
    constexpr std::size_t extra = (tail_slack_bytes + sizeof(T) - 1) / sizeof(T);
    auto p = std::make_unique_for_overwrite<T[]>(n + extra);
    zero_tail_slack(p.get() + n);
    return p;
}

} // namespace fusor::detail
