// fusor/core/shape.hpp: index_t, shape_t and row-major strides.
#pragma once

#include <fusor/config.hpp>

// g++ 12 reports a false -Wstringop-overread (and -overflow) inside boost::container's
// memcpy/memmove when it inlines a small_vector copy or a growing push_back at -O1 and above
// (GCC bug 105329's family); the copies are bounded by the source's size.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
#include <boost/container/small_vector.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <ostream>
#include <string>
#include <utility>

namespace fusor {

/// Every extent, stride (in elements, never bytes) and index.
using index_t = std::ptrdiff_t;

/// A small vector of `index_t` of any rank; ranks up to 6 live inline (no allocation).
/// Prints as a Python tuple: `(3, 4)`, `(2,)`, `()`.
/// Example: `fusor::shape_t s{3, 4}; s.size() == 2`.
class shape_t : public boost::container::small_vector<index_t, 6> {
    using base = boost::container::small_vector<index_t, 6>;
    static constexpr std::size_t inline_rank = 6; // extents stored in the object itself

public:
    using base::base;
    // User-provided, not defaulted: `shape_t{}` and a node aggregate's `{}` member would otherwise
    // zero the inline storage (value-initialisation of a class without a user-provided
    // constructor), a memset call for every empty shape made.
    shape_t() noexcept {}
    shape_t(std::initializer_list<index_t> il) : base(il.begin(), il.end()) {}
    /// `n` zeros. Up to 6 they are one fixed-length store into the inline storage: boost's
    /// value-initialising constructor took a generic path and a memset call (a third of building
    /// a 4 x 4 matmul, which makes four).
    explicit shape_t(size_type n) : base(n, boost::container::default_init) {
        if (n <= inline_rank)
            __builtin_memset(base::data(), 0, inline_rank * sizeof(index_t));
        else
            std::fill_n(base::data(), n, index_t{0});
    }

    // Copies of up to 6 extents are a few register moves, not a call to memmove: boost's copy
    // of a trivially copyable range calls memmove whatever its length, and evaluating a small
    // expression copies a dozen shapes (about half of building a 4 x 4 matmul was those calls).
    shape_t(const shape_t& o)
        : base(o.size() <= inline_rank ? o.size() : 0, boost::container::default_init) {
        if (o.size() <= inline_rank) [[likely]]
            copy_from(o);
        else
            copy_heap(o);
    }
    // Built at its size, then copied, as the copy (a node moved into its parent moves its
    // shapes this way): assigning into an empty vector went through boost's growth path, twice
    // the instructions.
    shape_t(shape_t&& o) noexcept
        : base(o.size() <= inline_rank ? o.size() : 0, boost::container::default_init) {
        if (o.size() <= inline_rank) [[likely]]
            copy_from(o); // inline: allocates nothing, so it cannot throw
        else
            take_heap(o);
    }
    shape_t& operator=(const shape_t& o) {
        if (this != &o) {
            base::resize(o.size(), boost::container::default_init);
            copy_from(o);
        }
        return *this;
    }
    shape_t& operator=(shape_t&& o) noexcept {
        if (o.size() <= inline_rank) // inline: a copy (allocates nothing, so it cannot throw)
            return *this = static_cast<const shape_t&>(o);
        if (this != &o)
            base::operator=(std::move(static_cast<base&>(o)));
        return *this;
    }

    /// The rank as a signed number (avoids sign-conversion noise in loops over axes).
    index_t rank() const { return static_cast<index_t>(size()); }

    friend bool operator==(const shape_t& a, const shape_t& b) {
        // The same object first: a node's shape is often its child's (elementwise::shape_child).
        if (&a == &b)
            return true;
        const std::size_t n = a.size();
        if (n != b.size())
            return false;
        // Raw pointers: boost's end() tests for an empty vector on every call.
        const index_t* p = a.data();
        const index_t* q = b.data();
        for (std::size_t k = 0; k < n; ++k)
            if (p[k] != q[k])
                return false;
        return true;
    }

private:
    // this->size() == o.size() already. Where both buffers hold 6 extents (the inline storage,
    // or a heap buffer grown past it) the whole block is copied, whatever the rank: three vector
    // moves and no branch on it. A heap buffer can hold fewer (a shape cut down from a longer
    // one), so the capacities are checked, not assumed.
    void copy_from(const shape_t& o) {
        index_t* d = base::data();
        const index_t* s = o.data();
        if (base::capacity() >= inline_rank && o.capacity() >= inline_rank
            && o.size() <= inline_rank) [[likely]] {
            __builtin_memcpy(d, s, inline_rank * sizeof(index_t));
            return;
        }
        std::copy(s, s + o.size(), d);
    }
    // Out of line, so that copies and moves of an inline shape are small enough to inline.
    [[gnu::noinline]] void copy_heap(const shape_t& o) { base::assign(o.begin(), o.end()); }
    [[gnu::noinline]] void take_heap(shape_t& o) noexcept {
        base::operator=(std::move(static_cast<base&>(o)));
    }
};

/// Strides share the representation of shapes (elements, may be 0 or negative).
using strides_t = shape_t;

// shape_size, row_major_strides, bytes_touched and is_row_major stay inline in every mode,
// FUSOR_SEPARATE_COMPILATION included: each evaluation of a small tensor calls them.

/// Number of elements of a shape (1 for the 0-d shape `()`).
inline index_t shape_size(const shape_t& s) {
    index_t n = 1;
    for (index_t e : s)
        n *= e;
    return n;
}

/// Row-major (C order) strides of a contiguous tensor of shape `s`, in elements.
inline strides_t row_major_strides(const shape_t& s) {
    strides_t st(s.size(), boost::container::default_init); // every element written below
    index_t acc = 1;
    for (index_t i = s.rank() - 1; i >= 0; --i) {
        st[static_cast<std::size_t>(i)] = acc;
        acc *= s[static_cast<std::size_t>(i)];
    }
    return st;
}

/// The elements a strided layout touches, relative to its first element's address: from `first`
/// (at or below 0) to `last` (at or above 0), both included. Every extent at least 1.
struct element_span {
    index_t first = 0, last = 0;
};
FUSOR_DECL element_span span_of(const shape_t& shape, const strides_t& strides);

/// The bytes [lo, hi) that `shape` elements of `itemsize` bytes at `strides` from `address`
/// touch (the overlap tests between a destination and what an expression reads). An empty
/// shape or a null address touches nothing: {nullptr, nullptr}.
FUSOR_LAZY inline std::pair<const char*, const char*> bytes_touched(const void* address,
                                                                    const shape_t& shape,
                                                                    const strides_t& strides,
                                                                    index_t itemsize) {
    if (!address || shape_size(shape) == 0)
        return {nullptr, nullptr};
    const element_span s = span_of(shape, strides);
    const char* base = static_cast<const char*>(address);
    return {base + s.first * itemsize, base + (s.last + 1) * itemsize};
}

/// True when `strides` are the row-major strides of `shape` (what `row_major_strides` returns),
/// checked without building them.
inline bool is_row_major(const shape_t& shape, const strides_t& strides) {
    if (shape.size() != strides.size())
        return false;
    index_t acc = 1;
    for (std::size_t i = shape.size(); i-- > 0;) {
        if (strides[i] != acc)
            return false;
        acc *= shape[i];
    }
    return true;
}

/// `(3, 4)`, `(2,)`, `()` as Python prints tuples.
FUSOR_DECL std::string to_string(const shape_t& s);

/// NumPy's compact form used in its error messages: `(3,4)`, `(2,)`, `()`.
FUSOR_DECL std::string to_compact_string(const shape_t& s);

/// Prints a shape (or strides) as a Python tuple: `(3, 4)`, `(2,)`, `()`.
FUSOR_DECL std::ostream& operator<<(std::ostream& os, const shape_t& s);

namespace detail {
/// What `if (e)` and `static_cast<bool>(e)` check before reading the one element of `e`, of
/// `shape`: throws `value_error` with NumPy's reason when there is not exactly one ("the truth
/// value of an array with more than one element is ambiguous ... use any(e) or all(e)"; for an
/// empty one, as NumPy 2: "the truth value of an empty array is ambiguous").
FUSOR_DECL void check_truth_value(const shape_t& shape);
} // namespace detail

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/core/shape.ipp>
#endif
