// fusor/algo/vector_sort.hpp: sorting a lane with Highway's vectorised quicksort (VQSort,
// Debian libhwy-dev, when the build defines FUSOR_HAS_HWY) for sort, argsort and unique. VQSort
// is not stable; the callers get a stable sort's result from it, bit for bit: argsort sorts
// (order key, index) pairs, whose order is total, and sort moves NaN out first, sorts floats as
// integers of the same order and puts the zeros back in their first order (-0.0 and 0.0 are
// equal to a sort). Without Highway, or for element types it does not sort (one-byte values),
// `lane_sorter` says so and the callers use the standard library.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include <fusor/core/shape.hpp>
#include <fusor/tensor/tensor.hpp> // allocate_elements: buffers without zeroing, huge pages

#if defined(FUSOR_HAS_HWY)
#include <hwy/contrib/sort/vqsort.h>
#endif

namespace fusor::detail {

/// An unsigned integer of `T`'s width (at least 32 bits) whose ascending order is NumPy's sort
/// order of the values: numbers ascending with -0.0 equal to 0.0, then every NaN (all equal).
template <class T>
auto order_key(T v) {
    if constexpr (std::is_floating_point_v<T>) {
        using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
        constexpr U sign = U{1} << (sizeof(U) * 8 - 1);
        if (v != v)
            return std::numeric_limits<U>::max();
        if (v == T(0))
            v = T(0); // -0.0 -> 0.0
        U bits;
        std::memcpy(&bits, &v, sizeof bits);
        return (bits & sign) ? U(~bits) : U(bits | sign);
    } else if constexpr (sizeof(T) <= 4) {
        if constexpr (std::is_signed_v<T>)
            return static_cast<std::uint32_t>(static_cast<std::int32_t>(v)) ^ 0x80000000u;
        else
            return static_cast<std::uint32_t>(v);
    } else if constexpr (std::is_signed_v<T>) {
        return static_cast<std::uint64_t>(v) ^ (std::uint64_t{1} << 63);
    } else {
        return static_cast<std::uint64_t>(v);
    }
}

#if defined(FUSOR_HAS_HWY)
/// Element types lane_sorter::sort sorts with VQSort (floats as integers of their order).
template <class T>
inline constexpr bool vector_sortable =
    !std::is_same_v<T, bool> && sizeof(T) >= 2
    && (std::is_integral_v<T> || std::is_same_v<T, float> || std::is_same_v<T, double>);

/// Sorts lanes with VQSort; one per call of sort or argsort (it holds VQSort's buffer).
class lane_sorter {
public:
    /// Whether `sort` sorts values of `T` (else the caller sorts them itself).
    template <class T>
    bool sorts() const {
        return vector_sortable<T>;
    }

    /// [first, first + n) in the order of a stable sort by `sorts_before` (NaN last), bit for
    /// bit, for a `T` that `sorts<T>()`.
    template <class T>
    void sort(T* first, index_t n) const {
        if constexpr (!vector_sortable<T>) {
            static_cast<void>(first); // never called: sorts<T>() is false
            static_cast<void>(n);
        } else if constexpr (std::is_floating_point_v<T>) {
            // NaN to the end in their order (payloads kept); the numbers sorted as unsigned
            // integers of the same order (VQSort's own float sort in Highway 1.0.3 turns +inf
            // into the largest finite value), -0.0 just before 0.0; the zeros' signs are noted
            // first when both occur, and put back in that order.
            using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
            constexpr U sign = U{1} << (sizeof(U) * 8 - 1);
            index_t negative_zeros = 0, zeros = 0;
            for (index_t k = 0; k < n; ++k) {
                zeros += first[k] == T(0);
                negative_zeros += first[k] == T(0) && std::signbit(first[k]);
            }
            const bool mixed_zeros = negative_zeros > 0 && negative_zeros < zeros;
            std::vector<unsigned char> zero_signs;
            std::vector<T> nans;
            const auto keys = allocate_elements<U>(static_cast<std::size_t>(n));
            std::size_t numbers = 0;
            for (index_t k = 0; k < n; ++k) {
                const T v = first[k];
                if (v != v) {
                    nans.push_back(v);
                    continue;
                }
                if (mixed_zeros && v == T(0))
                    zero_signs.push_back(std::signbit(v) ? 1 : 0);
                U bits;
                std::memcpy(&bits, &v, sizeof bits);
                keys[numbers++] = (bits & sign) ? U(~bits) : U(bits | sign);
            }
            sorter_(keys.get(), numbers, hwy::SortAscending());
            for (std::size_t k = 0; k < numbers; ++k) {
                const U key = keys[k];
                const U bits = (key & sign) ? U(key & ~sign) : U(~key);
                std::memcpy(first + k, &bits, sizeof bits);
            }
            std::copy(nans.begin(), nans.end(), first + numbers);
            if (mixed_zeros) {
                T* zero = std::lower_bound(first, first + numbers, T(0));
                for (const unsigned char negative : zero_signs)
                    *zero++ = negative ? -T(0) : T(0);
            }
        } else {
            sorter_(first, static_cast<std::size_t>(n), hwy::SortAscending());
        }
    }

    /// The stable sorting order of the `n` values at `values` (as std::stable_sort of 0..n-1
    /// by `sorts_before`) into `order`, for any element type (bool and one-byte values through
    /// 32-bit keys).
    template <class T>
    void argsort(const T* values, index_t n, index_t* order) const {
        using key_type = decltype(order_key(T{}));
        const auto count = static_cast<std::size_t>(n);
        if (sizeof(key_type) == 4 && static_cast<std::uint64_t>(n) <= (std::uint64_t{1} << 32)) {
            // (key, index) in one 64-bit word: its order is the key's, then the index's.
            const auto pairs = allocate_elements<std::uint64_t>(count);
            for (std::size_t k = 0; k < count; ++k)
                pairs[k] = (static_cast<std::uint64_t>(order_key(values[k])) << 32) | k;
            sorter_(pairs.get(), count, hwy::SortAscending());
            for (std::size_t k = 0; k < count; ++k)
                order[k] = static_cast<index_t>(pairs[k] & 0xffffffffu);
        } else {
            const auto pairs = allocate_elements<hwy::uint128_t>(count); // compared as (hi, lo)
            for (std::size_t k = 0; k < count; ++k)
                pairs[k] = hwy::uint128_t{k, static_cast<std::uint64_t>(order_key(values[k]))};
            sorter_(pairs.get(), count, hwy::SortAscending());
            for (std::size_t k = 0; k < count; ++k)
                order[k] = static_cast<index_t>(pairs[k].lo);
        }
    }

private:
    hwy::Sorter sorter_;
};
/// Whether lane_sorter's argsort runs (Highway found): else the callers' stable sort.
inline constexpr bool vector_argsort = true;
#else
// Without Highway: sorts nothing (the callers' standard library sorts run instead).
class lane_sorter {
public:
    template <class T>
    bool sorts() const {
        return false;
    }
    template <class T>
    void sort(T*, index_t) const {}
    template <class T>
    void argsort(const T*, index_t, index_t*) const {}
};
inline constexpr bool vector_argsort = false;
#endif

} // namespace fusor::detail
