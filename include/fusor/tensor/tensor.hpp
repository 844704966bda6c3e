// fusor/tensor/tensor.hpp: tensor<T>, the owning, contiguous, row-major n-d array.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>

#include <fusor/config.hpp>

#if defined(__linux__)
#include <sys/mman.h> // madvise: huge pages for large buffers (detail::allocate_elements)
#endif

#include <fusor/core/convert.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/lifetime.hpp>
#include <fusor/core/reshape.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/core/tail_slack.hpp>
#include <fusor/tensor/nested_list.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

/// Tag for the uninitialised constructor (what `empty()` uses).
struct uninitialized_t {};
inline constexpr uninitialized_t uninitialized{};

namespace detail {
// A tensor's buffer of `n` elements, uninitialised. From 4 MiB on it asks Linux for transparent
// huge pages before anything touches it (as NumPy does for its arrays of 4 MiB or more): a fresh
// 64 MiB result then takes 32 page faults on first touch instead of 16,384 (allocating and
// writing 2^24 float32 on this project's machine: 31 ms with 4 KiB pages, 15 ms with huge
// ones). Where the kernel's setting is `never` (or not Linux), nothing changes. Followed by
// tail_slack_bytes of zeros (core/tail_slack.hpp: a masked register at the end stays on a
// present page).
template <class T>
aligned_buffer<T> allocate_elements(std::size_t n) {
    auto p = allocate_with_tail_slack<T>(n);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::size_t huge_from = std::size_t{1} << 22;
    const std::size_t bytes = n * sizeof(T);
    if (bytes >= huge_from) {
        constexpr std::uintptr_t page = 4096;
        const auto first = reinterpret_cast<std::uintptr_t>(p.get());
        const std::uintptr_t lo = (first + page - 1) & ~(page - 1);
        const std::uintptr_t hi = (first + bytes) & ~(page - 1);
        if (hi > lo)
            ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE); // advice: may fail
    }
#endif
    return p;
}
} // namespace detail

namespace detail {
template <class T, std::size_t N, class L>
void shape_of_list(const L& l, shape_t& s, std::size_t depth) {
    if constexpr (N > 0) {
        const auto n = static_cast<index_t>(l.size());
        if (s.size() <= depth)
            s.push_back(n);
        else if (s[depth] != n)
            throw value_error("ragged nested initializer list: rows of " + std::to_string(s[depth])
                              + " and " + std::to_string(n) + " elements at depth "
                              + std::to_string(depth));
        for (const auto& sub : l)
            shape_of_list<T, N - 1>(sub, s, depth + 1);
        // An empty list still has a known rank: the inner extents are 0.
        if (n == 0)
            while (s.size() < depth + N)
                s.push_back(0);
    }
}

template <class T, std::size_t N, class L>
void copy_list(const L& l, T*& out) {
    if constexpr (N == 0) {
        if constexpr (std::is_same_v<L, list_element<T>>)
            *out++ = l.value;
        else
            *out++ = l;
    } else {
        for (const auto& sub : l)
            copy_list<T, N - 1>(sub, out);
    }
}

/// Returns when an array of `shape` can exist, as NumPy's PyArray_NewFromDescr checks: no
/// negative extent (`value_error`: "negative dimensions are not allowed"), and the product of
/// the non-zero extents times `itemsize` fits in `index_t` even when another extent is 0 (so
/// strides never overflow; `value_error`: "array is too big"). It takes the shape by reference
/// so that a tensor moves its shape once, into place (a `shape_t` move is ~40 instructions).
// Inline in every mode (FUSOR_SEPARATE_COMPILATION included): every tensor made calls it.
FUSOR_LAZY inline void check_shape(const shape_t& shape, index_t itemsize) {
    index_t bytes = itemsize;
    for (index_t n : shape) {
        if (n < 0)
            throw value_error("negative dimensions are not allowed: shape " + to_string(shape));
        if (n != 0 && bytes > std::numeric_limits<index_t>::max() / n)
            throw value_error("array is too big: shape " + to_string(shape) + " of "
                              + std::to_string(itemsize) + "-byte elements");
        if (n != 0)
            bytes *= n;
    }
}
} // namespace detail

/// An owning, contiguous, row-major (C order) n-d array with value semantics: copying copies
/// the elements, moving is O(1). Element types: `bool`, `int8_t`..`int64_t`,
/// `uint8_t`..`uint64_t`, `float`, `double`.
///
/// Construction:
///  - `tensor<double> a = {{1, 2, 3}, {4, 5, 6}};`  nested lists (rank 1 to 5; ragged lists
///    throw `value_error`),
///  - `tensor<float> t(shape_t{3, 4});`  zero-filled (write `shape_t{...}`: a bare braced list
///    is read as elements),
///  - `tensor<float> t(shape_t{3, 4}, uninitialized);`  no fill,
///  - `tensor<double> c = expr;`  evaluates an expression in one fused loop,
///  - `tensor<double> z;`  a 0-d tensor holding 0 (as `xt::xarray`).
///
/// `c = e` gives `c` the shape of `e` (casting to `T` as NumPy's assignment does); it is as if
/// `e` were evaluated before `c` is written, even when `e` reads `c`. `c += e` (and every
/// compound assignment: `-= *= /= %= &= |= ^= <<= >>=`)
/// requires `e` to broadcast *to* `c.shape()` (else `broadcast_error`, `c` untouched) and its
/// type to be `same_kind`-castable to `T` (checked at compile time).
template <class T>
class tensor {
    static_assert(element_type<T>,
                  "fusor::tensor<T>: T must be bool, a fixed-width integer, float or double");

public:
    using value_type = T;
    /// Elements held inside the tensor object rather than on the heap (32 bytes' worth: a 0-d
    /// result, a float64 3-vector); a tensor of more elements allocates its buffer. Moving a
    /// tensor of up to this many elements copies them (views of it then stay with the
    /// moved-from object, which holds none: as for any moved-from tensor, reading them is an
    /// error, a `lifetime_error` in checked mode).
    static constexpr index_t inline_capacity = static_cast<index_t>(32 / sizeof(T));

    tensor() : tensor(shape_t{}) {}
    explicit tensor(shape_t shape)
        : shape_((detail::check_shape(shape, sizeof(T)), std::move(shape))),
          strides_(row_major_strides(shape_)) {
        allocate(shape_size(shape_));
        std::fill_n(data_, shape_size(shape_), T{}); // zeros, as make_unique<T[]> gave
    }
    tensor(shape_t&& shape, uninitialized_t)
        : shape_((detail::check_shape(shape, sizeof(T)), std::move(shape))),
          strides_(row_major_strides(shape_)) {
        allocate(shape_size(shape_));
    }
    // From an lvalue shape (eval's: the expression's), one copy rather than a copy and a move.
    tensor(const shape_t& shape, uninitialized_t)
        : shape_((detail::check_shape(shape, sizeof(T)), shape)),
          strides_(row_major_strides(shape_)) {
        allocate(shape_size(shape_));
    }

    tensor(typename detail::nested_list<T, 1>::type l) { from_list<1>(l); }
    tensor(typename detail::nested_list<T, 2>::type l) { from_list<2>(l); }
    tensor(typename detail::nested_list<T, 3>::type l) { from_list<3>(l); }
    tensor(typename detail::nested_list<T, 4>::type l) { from_list<4>(l); }
    tensor(typename detail::nested_list<T, 5>::type l) { from_list<5>(l); }

    /// Evaluates `e` into a new tensor of `e.shape()` (one fused loop). In checked mode, throws
    /// `lifetime_error` when an operand of `e` changed since `e` was built.
    template <class E>
        requires(expression<E> && !std::is_same_v<std::remove_cvref_t<E>, tensor>)
    tensor(const E& e) : tensor(detail::checked_shape_of(e), uninitialized) {
        detail::assign_to_tensor(*this, e, true);
    }

    tensor(const tensor& o) : tensor(o.shape_, uninitialized) {
        std::copy(o.data(), o.data() + o.size(), data());
    }
    /// O(1): takes `o`'s elements (copies them when they are held inline: at most
    /// `inline_capacity`); `o` is left empty, of shape `(0,)`.
    tensor(tensor&& o) noexcept
        : shape_(std::exchange(o.shape_, shape_t{0})),
          strides_(std::exchange(o.strides_, strides_t{1})) {
        take_storage(o);
        o.lose_storage();
    }
    /// Copies `o`'s elements. When the element counts match, into this tensor's own buffer (as
    /// `std::vector` does), so expressions and views over this tensor stay valid; otherwise a
    /// new buffer replaces the old one.
    tensor& operator=(const tensor& o) {
        if (this == &o)
            return *this;
        if (data_ && o.size() == size()) {
            std::copy(o.data(), o.data() + o.size(), data());
            adopt_shape(o.shape_);
        } else {
            *this = tensor(o);
        }
        return *this;
    }
    /// Takes `o`'s elements. When the element counts match, they are copied into this tensor's
    /// own buffer (O(n), and `o` keeps its elements) so that expressions and views over this
    /// tensor stay valid, as for copy-assignment; otherwise the buffer is taken in O(1) and
    /// `o` is left empty, of shape `(0,)`.
    tensor& operator=(tensor&& o) noexcept {
        if (this == &o)
            return *this;
        if (data_ && o.data_ && o.size() == size()) {
            std::copy(o.data(), o.data() + o.size(), data());
            adopt_shape(o.shape_);
            return *this;
        }
        shape_ = std::exchange(o.shape_, shape_t{0});
        strides_ = std::exchange(o.strides_, strides_t{1});
        take_storage(o);
        o.lose_storage();
#if FUSOR_CHECKED
        if (token_) {
            ++token_->buffer_epoch;
            ++token_->shape_epoch;
        }
#endif
        return *this;
    }
#if FUSOR_CHECKED
    ~tensor() {
        if (token_)
            token_->destroyed = true;
    }
#endif

    /// `c = e`: `c` takes `e`'s shape and `e`'s values cast to `T`.
    template <class E>
        requires(expression<E> && !std::is_same_v<std::remove_cvref_t<E>, tensor>)
    tensor& operator=(const E& e) {
        detail::assign_to_tensor(*this, e);
        return *this;
    }
    /// `c = 2.0`: fills every element (the shape stays).
    template <class S>
    requires scalar<S> tensor& operator=(S s) {
        std::fill(data(), data() + size(), convert<T>(s));
        return *this;
    }

    template <class E>
    tensor& operator+=(const E& e) {
        detail::compound_assign<ops::add>(*this, e);
        return *this;
    }
    template <class E>
    tensor& operator-=(const E& e) {
        detail::compound_assign<ops::subtract>(*this, e);
        return *this;
    }
    template <class E>
    tensor& operator*=(const E& e) {
        detail::compound_assign<ops::multiply>(*this, e);
        return *this;
    }
    template <class E>
    tensor& operator/=(const E& e) {
        detail::compound_assign<ops::divide>(*this, e);
        return *this;
    }
    template <class E>
    tensor& operator%=(const E& e) {
        detail::compound_assign<ops::mod>(*this, e);
        return *this;
    }
    template <class E>
    tensor& operator&=(const E& e) {
        detail::compound_assign<ops::bitwise_and>(*this, e);
        return *this;
    }
    template <class E>
    tensor& operator|=(const E& e) {
        detail::compound_assign<ops::bitwise_or>(*this, e);
        return *this;
    }
    template <class E>
    tensor& operator^=(const E& e) {
        detail::compound_assign<ops::bitwise_xor>(*this, e);
        return *this;
    }
    template <class E>
    tensor& operator<<=(const E& e) {
        detail::compound_assign<ops::left_shift>(*this, e);
        return *this;
    }
    template <class E>
    tensor& operator>>=(const E& e) {
        detail::compound_assign<ops::right_shift>(*this, e);
        return *this;
    }

    const shape_t& shape() const {
        return shape_;
    }
    const strides_t& strides() const {
        return strides_;
    }
    index_t rank() const {
        return shape_.rank();
    }
    index_t size() const {
        return shape_size(shape_);
    }
    T* data() {
        return data_;
    }
    const T* data() const {
        return data_;
    }

    /// Unchecked element access.
    template <class... I>
    T& operator()(I... i) {
        return data_[static_cast<std::size_t>(detail::offset_of(strides_, i...))];
    }
    template <class... I>
    const T& operator()(I... i) const {
        return data_[static_cast<std::size_t>(detail::offset_of(strides_, i...))];
    }
    /// Checked access: throws `index_error` (a `std::out_of_range`) for a wrong number of
    /// indices or an index outside its axis; negative indices count from the end.
    template <class... I>
    T& at(I... i) {
        return data_[static_cast<std::size_t>(detail::checked_offset_of(shape_, strides_, i...))];
    }
    template <class... I>
    const T& at(I... i) const {
        return data_[static_cast<std::size_t>(detail::checked_offset_of(shape_, strides_, i...))];
    }
    /// Gives this tensor the shape `shape` in place, its elements staying in row-major order
    /// (as xtensor's `xarray::reshape`; one `-1` is inferred): (6,) → (2, 3). Throws
    /// `value_error` when the sizes differ, leaving the tensor unchanged. The free
    /// `reshape(t, shape)` returns a view instead.
    void reshape(const shape_t& shape) {
        adopt_shape(reshape_target(shape_, shape));
    }

    /// The one element of a size-1 tensor; throws `value_error` otherwise. Read here, not
    /// through view(): a view copies the shape and strides (`eval(sum(a * b)).item()` on 4
    /// elements paid ~5 ns for them).
    T item() const {
        if (size() != 1)
            throw value_error("item(): only a tensor of size 1 converts to a scalar, this one has "
                              "shape "
                              + to_string(shape_));
        return data_[0];
    }
    /// `static_cast<double>(t)`, `if (t)`: `item()` converted to `U` (any arithmetic type), as
    /// for expressions (`numpy.ndarray.__float__`, `__bool__`). Throws `value_error` unless the
    /// tensor has one element (any shape of size 1); for `bool`, with NumPy's words ("the truth
    /// value of an array with more than one element is ambiguous": use `any` or `all`).
    template <class U>
        requires std::is_arithmetic_v<U>
    explicit operator U() const {
        if constexpr (std::is_same_v<U, bool>)
            detail::check_truth_value(shape_);
        return static_cast<U>(item());
    }

    /// Writable and read-only views of the whole tensor.
    tensor_view<T> view() {
        return {data(), shape_, strides_, nullptr, lifetime_stamp(false)};
    }
    tensor_view<const T> view() const {
        return {data(), shape_, strides_, nullptr, lifetime_stamp(false)};
    }

    /// (Internal) what a leaf (`follows_shape`) or a view of this tensor records of its storage
    /// in checked mode; empty otherwise.
    detail::lifetime_stamp lifetime_stamp([[maybe_unused]] bool follows_shape) const {
#if FUSOR_CHECKED
        return detail::stamp_of(token_, follows_shape);
#else
        return {};
#endif
    }
    operator tensor_view<T>() {
        return view();
    }
    operator tensor_view<const T>() const {
        return view();
    }

    /// Row-major iteration (the storage order).
    T* begin() {
        return data();
    }
    T* end() {
        return data() + size();
    }
    const T* begin() const {
        return data();
    }
    const T* end() const {
        return data() + size();
    }

private:
    template <std::size_t N>
    void from_list(const typename detail::nested_list<T, N>::type& l) {
        shape_t s;
        detail::shape_of_list<T, N>(l, s, 0);
        detail::check_shape(s, sizeof(T));
        shape_ = std::move(s);
        strides_ = row_major_strides(shape_);
        allocate(shape_size(shape_));
        T* out = data();
        detail::copy_list<T, N>(l, out);
    }

    // Storage for `n` elements: inline when they fit (a 0-d result, a 3-vector of double:
    // `eval(sum(a * b))` then allocates nothing), else on the heap.
    void allocate(index_t n) {
        if (n <= inline_capacity) {
            data_ = inline_;
        } else {
            heap_ = detail::allocate_elements<T>(static_cast<std::size_t>(n));
            data_ = heap_.get();
        }
    }
    // This tensor's storage becomes `o`'s (this tensor's shape is already `o`'s old one): the
    // heap buffer is taken, inline elements are copied. `o` is left with none.
    void take_storage(tensor& o) noexcept {
        if (o.data_ == o.inline_) {
            std::copy_n(o.inline_, shape_size(shape_), inline_);
            heap_.reset();
            data_ = inline_;
        } else {
            heap_ = std::move(o.heap_);
            data_ = heap_.get();
        }
        o.data_ = nullptr;
    }

    // A new shape over the same buffer (same number of elements).
    void adopt_shape(const shape_t& to) {
        if (to == shape_)
            return;
        strides_t st = row_major_strides(to);
        shape_ = to;
        strides_ = std::move(st);
#if FUSOR_CHECKED
        if (token_)
            ++token_->shape_epoch;
#endif
    }
    // After its buffer was taken: what leaves and views of this tensor recorded is gone.
    void lose_storage() noexcept {
#if FUSOR_CHECKED
        if (token_)
            token_->moved_from = true;
        token_ = fresh_token();
#endif
    }

    // First, so that a masked register from its last element (at most 64 bytes) reaches the
    // members after it, inside this object (core/tail_slack.hpp: heap buffers have slack).
    alignas(16) T inline_[inline_capacity];
    shape_t shape_;
    strides_t strides_;
    detail::aligned_buffer<T> heap_; // the elements when there are more than inline_capacity
    T* data_ = nullptr;              // inline_ or heap_; null once taken by a move
#if FUSOR_CHECKED
    static std::shared_ptr<detail::storage_token> fresh_token() noexcept {
        try {
            return std::make_shared<detail::storage_token>();
        } catch (...) {
            return nullptr; // out of memory: this tensor goes unchecked
        }
    }
    std::shared_ptr<detail::storage_token> token_ = fresh_token();
#endif
};

} // namespace fusor
