// fusor/tensor/tensor_view.hpp: tensor_view<T>, a non-owning strided view.
#pragma once

#include <iterator>
#include <memory>
#include <type_traits>
#include <vector>

#include <fusor/core/affine_map.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/lifetime.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/tensor/nested_list.hpp>

namespace fusor {

namespace ops {
struct add;
struct subtract;
struct multiply;
struct divide;
struct mod;
struct bitwise_and;
struct bitwise_or;
struct bitwise_xor;
struct left_shift;
struct right_shift;
} // namespace ops

namespace detail {
struct view_parts; // expr/leaf.hpp: an rvalue view's members moved into a leaf
// Unchecked element offset of a multi-index.
template <class... I>
index_t offset_of(const strides_t& strides, I... i) {
    index_t off = 0;
    std::size_t k = 0;
    ((off += static_cast<index_t>(i) * strides[k++]), ...);
    return off;
}

// Checked offset: rank must match, each index in [-n, n) (negative counts from the end).
template <class... I>
index_t checked_offset_of(const shape_t& shape, const strides_t& strides, I... i) {
    if (sizeof...(I) != shape.size())
        throw index_error("at(): " + std::to_string(sizeof...(I)) + " indices for tensor of rank "
                          + std::to_string(shape.size()));
    index_t off = 0;
    std::size_t k = 0;
    auto one = [&](index_t idx) {
        const index_t n = shape[k];
        const index_t j = idx < 0 ? idx + n : idx;
        if (j < 0 || j >= n)
            throw index_error("index " + std::to_string(idx) + " is out of bounds for axis "
                              + std::to_string(k) + " with size " + std::to_string(n));
        off += j * strides[k++];
    };
    (one(static_cast<index_t>(i)), ...);
    return off;
}

// Row-major iteration over a strided layout (the odometer, one element at a time).
template <class T>
class strided_iterator {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::remove_const_t<T>;
    using difference_type = index_t;
    using pointer = T*;
    using reference = T&;

    strided_iterator() = default;
    strided_iterator(T* data, const shape_t* shape, const strides_t* strides, index_t pos)
        : data_(data), shape_(shape), strides_(strides), index_(shape->size(), 0), pos_(pos) {}

    reference operator*() const { return *data_; }
    strided_iterator& operator++() {
        ++pos_;
        for (std::size_t d = shape_->size(); d-- > 0;) {
            data_ += (*strides_)[d];
            if (++index_[d] < (*shape_)[d])
                return *this;
            data_ -= (*strides_)[d] * (*shape_)[d];
            index_[d] = 0;
        }
        return *this;
    }
    strided_iterator operator++(int) {
        auto old = *this;
        ++*this;
        return old;
    }
    friend bool operator==(const strided_iterator& a, const strided_iterator& b) {
        return a.pos_ == b.pos_;
    }

private:
    T* data_ = nullptr;
    const shape_t* shape_ = nullptr;
    const strides_t* strides_ = nullptr;
    shape_t index_;
    index_t pos_ = 0;
};
} // namespace detail

/// A non-owning strided view: a data pointer, a shape and strides in elements (0 on broadcast
/// axes, negative on flipped ones). Writable when `T` is not const.
///
/// Views are what `transpose`, `diagonal`, `view(...)` and `adapt` return for tensors; they
/// never copy. A view does not keep its tensor alive: it dangles when the tensor is destroyed
/// or reassigned to another shape. The one exception is the copy `reshape` makes of a view
/// whose layout cannot be reshaped in place (as NumPy's reshape returns a copy then): that view
/// owns its elements (`owner()` is set) and copies of it share them.
///
/// Assignment writes through: `v = e` stores `e` (broadcast to `v.shape()`, extra leading
/// extent-1 axes allowed, cast to `T` as NumPy's `v[...] = e`) into the viewed elements; it is
/// an element-wise copy, never a rebinding. `v += e` follows compound assignment's rules.
/// Throws `broadcast_error` when `e` does not broadcast to the view's shape, before any store.
/// Example: `fusor::diagonal(d) = 0.0;` zeroes the diagonal of `d`.
template <class T>
class tensor_view {
    static_assert(element_type<std::remove_const_t<T>>,
                  "fusor::tensor_view<T>: T must be bool, a fixed-width integer, float or double");

public:
    using value_type = std::remove_const_t<T>;
    using element_type = T;

    /// A view of `shape` over `data` with explicit `strides` (elements).
    tensor_view(T* data, shape_t shape, strides_t strides)
        : data_(data), shape_(std::move(shape)), strides_(std::move(strides)) {}
    /// A row-major contiguous view of `shape` over `data`.
    tensor_view(T* data, shape_t shape)
        : data_(data), shape_(std::move(shape)), strides_(row_major_strides(shape_)) {}
    /// A view that keeps `owner` (the storage `data` points into) alive.
    tensor_view(T* data, shape_t shape, strides_t strides, std::shared_ptr<const void> owner)
        : data_(data), shape_(std::move(shape)), strides_(std::move(strides)),
          owner_(std::move(owner)) {}
    /// (Internal) a view that also carries what checked mode recorded of its storage. The shape
    /// and strides are copied or moved straight into place (views of small tensors are made in
    /// inner loops, and each extra move of a shape cost about as much as copying it).
    template <class Shape, class Strides>
    tensor_view(T* data,
                Shape&& shape,
                Strides&& strides,
                std::shared_ptr<const void> owner,
                detail::lifetime_stamp stamp)
        : data_(data), shape_(std::forward<Shape>(shape)), strides_(std::forward<Strides>(strides)),
          owner_(std::move(owner)), stamp_(std::move(stamp)) {}

    /// A writable view converts to a read-only one.
    operator tensor_view<const value_type>() const requires(!std::is_const_v<T>) {
        tensor_view<const value_type> v{data_, shape_, strides_, owner_, stamp_};
        v.base_ = base_;
        return v;
    }

    tensor_view(const tensor_view&) = default;
    /// Element-wise copy of `other`'s values into this view's elements (not a rebinding).
    const tensor_view& operator=(const tensor_view& other) const {
        detail::assign_to_view(*this, other, true);
        return *this;
    }
    template <class E>
        requires(expression<E> || scalar<E>)
    const tensor_view& operator=(const E& e) const {
        static_assert(!std::is_const_v<T>,
                      "fusor: cannot assign to a read-only view (tensor_view<const T>, e.g. a "
                      "broadcast_to result)");
        detail::assign_to_view(*this, e, true);
        return *this;
    }
    /// `v = {7, 8, 9}`, `v = {{1, 2}, {3, 4}}` (up to 3 levels): the braced list as a tensor of
    /// the view's element type, assigned as any operand (it must broadcast to the view's shape),
    /// as NumPy's `x[0] = [7, 8, 9]`.
    template <class U = std::remove_const_t<T>>
    const tensor_view& operator=(typename detail::nested_list<U, 1>::type l) const {
        return *this = tensor<U>(l);
    }
    template <class U = std::remove_const_t<T>>
    const tensor_view& operator=(typename detail::nested_list<U, 2>::type l) const {
        return *this = tensor<U>(l);
    }
    template <class U = std::remove_const_t<T>>
    const tensor_view& operator=(typename detail::nested_list<U, 3>::type l) const {
        return *this = tensor<U>(l);
    }
    template <class E>
    const tensor_view& operator+=(const E& e) const {
        detail::compound_assign<ops::add>(*this, e);
        return *this;
    }
    template <class E>
    const tensor_view& operator-=(const E& e) const {
        detail::compound_assign<ops::subtract>(*this, e);
        return *this;
    }
    template <class E>
    const tensor_view& operator*=(const E& e) const {
        detail::compound_assign<ops::multiply>(*this, e);
        return *this;
    }
    template <class E>
    const tensor_view& operator/=(const E& e) const {
        detail::compound_assign<ops::divide>(*this, e);
        return *this;
    }
    template <class E>
    const tensor_view& operator%=(const E& e) const {
        detail::compound_assign<ops::mod>(*this, e);
        return *this;
    }
    template <class E>
    const tensor_view& operator&=(const E& e) const {
        detail::compound_assign<ops::bitwise_and>(*this, e);
        return *this;
    }
    template <class E>
    const tensor_view& operator|=(const E& e) const {
        detail::compound_assign<ops::bitwise_or>(*this, e);
        return *this;
    }
    template <class E>
    const tensor_view& operator^=(const E& e) const {
        detail::compound_assign<ops::bitwise_xor>(*this, e);
        return *this;
    }
    template <class E>
    const tensor_view& operator<<=(const E& e) const {
        detail::compound_assign<ops::left_shift>(*this, e);
        return *this;
    }
    template <class E>
    const tensor_view& operator>>=(const E& e) const {
        detail::compound_assign<ops::right_shift>(*this, e);
        return *this;
    }

    const shape_t& shape() const { return shape_; }
    const strides_t& strides() const { return strides_; }
    index_t rank() const { return shape_.rank(); }
    index_t size() const { return shape_size(shape_); }
    T* data() const { return data_; }
    /// The storage this view owns (a reshape copy), or null for an ordinary, non-owning view.
    const std::shared_ptr<const void>& owner() const { return owner_; }
    /// The data pointer of the tensor (or `adapt`ed memory) this view was made from, through
    /// any chain of views: `data() - base()` is the view's offset into it (explain prints it).
    T* base() const { return base_ ? base_ : data_; }
    /// (Internal) what checked mode recorded of the storage this view reads (empty otherwise).
    const detail::lifetime_stamp& lifetime() const { return stamp_; }

    /// Unchecked element access (no bounds or rank check).
    template <class... I>
    T& operator()(I... i) const {
        return data_[detail::offset_of(strides_, i...)];
    }
    /// Checked element access: throws `index_error` (a `std::out_of_range`) for a wrong number
    /// of indices or an index outside its axis; negative indices count from the end.
    template <class... I>
    T& at(I... i) const {
        detail::check_stamp(stamp_, 1, {}, "view");
        return data_[detail::checked_offset_of(shape_, strides_, i...)];
    }
    /// The one element of a size-1 view; throws `value_error` otherwise.
    value_type item() const {
        detail::check_stamp(stamp_, 1, {}, "view");
        if (size() != 1)
            throw value_error("item(): only a tensor of size 1 converts to a scalar, this one has "
                              "shape "
                              + to_string(shape_));
        return *data_;
    }
    /// `static_cast<double>(v)`, `if (v)`: `item()` converted to `U` (any arithmetic type), as
    /// for expressions. Throws `value_error` unless the view has one element (for `bool` with
    /// NumPy's words: detail::check_truth_value).
    template <class U>
        requires std::is_arithmetic_v<U>
    explicit operator U() const {
        if constexpr (std::is_same_v<U, bool>) {
            detail::check_stamp(stamp_, 1, {}, "view");
            detail::check_truth_value(shape_);
        }
        return static_cast<U>(item());
    }

    /// The view of this view through an affine index map (used by every view function).
    tensor_view remap(const affine_map& m) const {
        return from_parts(data_ + m.apply_offset(strides_),
                          shape_t(m.out_shape),
                          m.apply_strides(strides_),
                          owner_,
                          stamp_,
                          base());
    }
    /// As above, taking the map's view shape.
    tensor_view remap(affine_map&& m) const {
        return from_parts(data_ + m.apply_offset(strides_),
                          std::move(m.out_shape),
                          m.apply_strides(strides_),
                          owner_,
                          stamp_,
                          base());
    }
    /// (Internal) the view of `shape` and `strides` (moved in) at `data`, in storage that starts
    /// at `base`, keeping `owner` alive.
    static tensor_view from_parts(T* data,
                                  shape_t&& shape,
                                  strides_t&& strides,
                                  std::shared_ptr<const void> owner,
                                  detail::lifetime_stamp stamp,
                                  T* base) {
        tensor_view v{
            data, std::move(shape), std::move(strides), std::move(owner), std::move(stamp)};
        v.base_ = base;
        return v;
    }
    /// (Internal) as from_parts, with a shape and strides of `rank` axes written in place by
    /// `fill(shape, strides)`, which returns the first element's offset from `data`: a view made
    /// in an inner loop (`x[1:] - x[:-1]`) moves no shape into place.
    template <class Fill>
    static tensor_view from_filled(T* data,
                                   std::size_t rank,
                                   std::shared_ptr<const void> owner,
                                   detail::lifetime_stamp stamp,
                                   T* base,
                                   Fill&& fill) {
        tensor_view v{rank, std::move(owner), std::move(stamp)};
        v.data_ = data + fill(v.shape_, v.strides_);
        v.base_ = base;
        return v;
    }
    /// The same elements under another shape and strides (a reshape that needs no copy).
    tensor_view restrided(shape_t shape, strides_t strides) const {
        tensor_view v{data_, std::move(shape), std::move(strides), owner_, stamp_};
        v.base_ = base();
        return v;
    }

    /// Row-major (logical order) iteration.
    detail::strided_iterator<T> begin() const { return {data_, &shape_, &strides_, 0}; }
    detail::strided_iterator<T> end() const { return {data_, &shape_, &strides_, size()}; }

private:
    template <class U>
    friend class tensor_view;
    friend struct detail::view_parts; // moves an rvalue view's members into a leaf

    // from_filled's view: `rank` axes, each written by its caller.
    tensor_view(std::size_t rank, std::shared_ptr<const void> owner, detail::lifetime_stamp stamp)
        : shape_(rank, boost::container::default_init),
          strides_(rank, boost::container::default_init), owner_(std::move(owner)),
          stamp_(std::move(stamp)) {}

    T* data_;
    shape_t shape_;
    strides_t strides_;
    std::shared_ptr<const void> owner_;
    T* base_ = nullptr; // null: data_ is the base
    [[no_unique_address]] detail::lifetime_stamp stamp_;
};

/// A view over external memory, row-major: `adapt(ptr, {3, 4})`; with explicit strides in
/// elements: `adapt(ptr, {3, 4}, {1, 3})`. Writable when `ptr` is not a pointer to const.
/// `adapt(ptr, {})` is a 0-d view of `*ptr`.
template <class T>
tensor_view<T> adapt(T* data, shape_t shape) {
    return {data, std::move(shape)};
}
template <class T>
tensor_view<T> adapt(T* data, shape_t shape, strides_t strides) {
    if (strides.size() != shape.size())
        throw value_error("adapt: " + std::to_string(strides.size()) + " strides for shape "
                          + to_string(shape));
    return {data, std::move(shape), std::move(strides)};
}

namespace detail {
// adapt(vector) for a const or non-const vector: the element type follows `v.data()`.
template <class Vec>
auto adapt_vector(Vec& v, shape_t shape) {
    using T = std::remove_pointer_t<decltype(v.data())>;
    const index_t n = shape_size(shape);
    if (n > static_cast<index_t>(v.size()))
        throw value_error("adapt: shape " + to_string(shape) + " needs " + std::to_string(n)
                          + " elements, the vector has " + std::to_string(v.size()));
    strides_t st = row_major_strides(shape);
#if FUSOR_CHECKED
    return tensor_view<T>(v.data(),
                          std::move(shape),
                          std::move(st),
                          nullptr,
                          stamp_of_vector(v, static_cast<std::size_t>(n)));
#else
    return tensor_view<T>(v.data(), std::move(shape), std::move(st));
#endif
}
} // namespace detail

/// A view over a `std::vector`'s elements: `adapt(v)` is 1-d of `v.size()` elements,
/// `adapt(v, {3, 4})` row-major of that shape (throws `value_error` when the shape needs more
/// elements than `v` has). Writable when `v` is not const. Unlike `adapt(v.data(), …)`, in
/// checked mode (`FUSOR_CHECKED`) evaluating an expression over it after `v` reallocated
/// (`push_back` past its capacity, `assign`, `swap`) or shrank throws `lifetime_error` instead
/// of reading freed memory. `std::vector<bool>` has no contiguous `bool`s and is refused.
template <class T, class A>
    requires(!std::is_same_v<T, bool>)
tensor_view<T> adapt(std::vector<T, A>& v, shape_t shape) {
    return detail::adapt_vector(v, std::move(shape));
}
template <class T, class A>
    requires(!std::is_same_v<T, bool>)
tensor_view<const T> adapt(const std::vector<T, A>& v, shape_t shape) {
    return detail::adapt_vector(v, std::move(shape));
}
template <class T, class A>
    requires(!std::is_same_v<T, bool>)
tensor_view<T> adapt(std::vector<T, A>& v) {
    return detail::adapt_vector(v, shape_t{static_cast<index_t>(v.size())});
}
template <class T, class A>
    requires(!std::is_same_v<T, bool>)
tensor_view<const T> adapt(const std::vector<T, A>& v) {
    return detail::adapt_vector(v, shape_t{static_cast<index_t>(v.size())});
}

} // namespace fusor
