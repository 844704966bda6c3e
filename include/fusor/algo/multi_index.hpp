// fusor/algo/multi_index.hpp: flat indices and multi-indices, as NumPy's unravel_index,
// ravel_multi_index and ndindex; and the reading of integer index operands that every
// index-array function (take, put, choose, ...) shares.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/broadcast.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {

// The element types an index operand may have: bool and the integers NumPy casts to intp
// under its 'safe' rule (so not uint64, and no floats: NumPy raises TypeError for both).
template <class T>
constexpr bool index_element() {
    return std::is_integral_v<T> && !std::is_same_v<T, std::uint64_t>;
}

/// An index operand as int64 values in row-major order, with its shape: an integer (or bool)
/// tensor, view or expression is evaluated once (converted to int64); a C++ integer is 0-d.
template <class I>
tensor<std::int64_t> index_tensor(const I& i) {
    if constexpr (std::is_arithmetic_v<I>) {
        static_assert(std::is_integral_v<I>, "fusor: an index must be an integer");
        tensor<std::int64_t> t(shape_t{}, uninitialized);
        t.data()[0] = static_cast<std::int64_t>(i);
        return t;
    } else {
        static_assert(index_element<value_type_t<I>>(),
                      "fusor: index arrays must hold bool or integers that fit int64 (NumPy: "
                      "\"Cannot cast array data from dtype('float64') to dtype('int64') according "
                      "to the rule 'safe'\"; uint64 is refused the same way)");
        return tensor<std::int64_t>(i);
    }
}

// The row-major multi-index `out` of flat position `flat` in `shape` (non-empty shape).
FUSOR_DECL void unravel_into(index_t flat, const shape_t& shape, shape_t& out);

// numpy.broadcast_shapes of a run-time list (the 0-d shape for none); a `broadcast_error`
// names every shape.
FUSOR_DECL shape_t broadcast_all(const std::vector<const shape_t*>& shapes);

FUSOR_DECL void require_non_negative(const shape_t& shape);

} // namespace detail

/// `ndindex(shape)` as numpy.ndindex: a range over every multi-index of `shape` in row-major
/// order, each a `shape_t` of `shape.size()` indices: `for (const shape_t& i : ndindex({2, 3}))`
/// visits (0, 0), (0, 1), ..., (1, 2). Also `ndindex(2, 3)`. The 0-d shape yields one empty
/// index, a shape with an extent 0 none. Throws `value_error` for a negative extent.
class ndindex {
public:
    /// The range's iterator: forward, yields `const shape_t&` (valid until the next `++`).
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = shape_t;
        using difference_type = index_t;
        using pointer = const shape_t*;
        using reference = const shape_t&;

        iterator() = default;
        iterator(const shape_t* shape, index_t pos)
            : shape_(shape), index_(shape->size(), 0), pos_(pos) {}

        reference operator*() const { return index_; }
        pointer operator->() const { return &index_; }
        iterator& operator++() {
            ++pos_;
            for (std::size_t d = shape_->size(); d-- > 0;) {
                if (++index_[d] < (*shape_)[d])
                    return *this;
                index_[d] = 0;
            }
            return *this;
        }
        iterator operator++(int) {
            iterator old = *this;
            ++*this;
            return old;
        }
        friend bool operator==(const iterator& a, const iterator& b) { return a.pos_ == b.pos_; }

    private:
        const shape_t* shape_ = nullptr;
        shape_t index_;
        index_t pos_ = 0;
    };

    FUSOR_LAZY explicit ndindex(shape_t shape) : shape_(std::move(shape)) {
        detail::require_non_negative(shape_);
    }
    template <class... I>
        requires(sizeof...(I) > 0 && (std::is_integral_v<I> && ...))
    explicit ndindex(I... extents) : ndindex(shape_t{static_cast<index_t>(extents)...}) {}

    iterator begin() const { return {&shape_, 0}; }
    iterator end() const { return {&shape_, size()}; }
    /// The number of indices: the shape's size (1 for the 0-d shape).
    index_t size() const { return shape_size(shape_); }
    const shape_t& shape() const { return shape_; }

private:
    shape_t shape_;
};

/// `unravel_index(indices, shape)` as numpy.unravel_index: the row-major multi-index of each
/// flat index, as one `tensor<int64_t>` per axis of `shape`, each of `indices`' shape (0-d for
/// a C++ integer): `unravel_index(5, {2, 3})` → {1, 2}. `indices`: an integer (or bool) tensor,
/// view, expression or C++ integer. Throws `value_error` for an index outside
/// `[0, size(shape))` ("index 6 is out of bounds for array with size 6", negative ones too, as
/// NumPy), for an `indices` that is not 0-d with the 0-d `shape` ("multiple indices are not
/// supported for 0d arrays"), or a negative extent.
template <class I>
    requires(expression<I> || std::is_integral_v<I>)
std::vector<tensor<std::int64_t>> unravel_index(const I& indices, const shape_t& shape) {
    detail::require_non_negative(shape);
    const tensor<std::int64_t> flat = detail::index_tensor(indices);
    if (shape.empty() && flat.rank() > 0)
        throw value_error("multiple indices are not supported for 0d arrays (indices of shape "
                          + to_string(flat.shape()) + " into the 0-d shape)");
    const index_t size = shape_size(shape);
    for (const std::int64_t i : flat)
        if (i < 0 || i >= size)
            throw value_error("index " + std::to_string(i)
                              + " is out of bounds for array with size " + std::to_string(size));
    std::vector<tensor<std::int64_t>> out;
    for (std::size_t d = 0; d < shape.size(); ++d)
        out.emplace_back(flat.shape(), uninitialized);
    shape_t multi(shape.size(), 0);
    for (index_t k = 0; k < flat.size(); ++k) {
        detail::unravel_into(flat.data()[k], shape, multi);
        for (std::size_t d = 0; d < shape.size(); ++d)
            out[d].data()[k] = multi[d];
    }
    return out;
}

namespace detail {
template <class Get>
tensor<std::int64_t> ravel_multi_index_impl(std::size_t n, const Get& get, const shape_t& dims) {
    if (n != dims.size())
        throw value_error("parameter multi_index must be a sequence of length "
                          + std::to_string(dims.size()) + ", got " + std::to_string(n)
                          + " index arrays");
    require_non_negative(dims);
    std::vector<tensor<std::int64_t>> idx;
    std::vector<const shape_t*> shapes;
    for (std::size_t d = 0; d < n; ++d)
        idx.push_back(index_tensor(get(d)));
    for (const auto& t : idx)
        shapes.push_back(&t.shape());
    const shape_t out_shape = broadcast_all(shapes);
    std::vector<tensor_view<const std::int64_t>> views;
    for (const auto& t : idx)
        views.push_back(broadcast_to(t, out_shape));
    const strides_t place = row_major_strides(dims);
    tensor<std::int64_t> out(out_shape, uninitialized);
    std::int64_t* o = out.data();
    const index_t size = out.size();
    for (index_t k = 0; k < size; ++k)
        o[k] = 0;
    for (std::size_t d = 0; d < n; ++d) {
        index_t k = 0;
        for (const std::int64_t v : views[d]) {
            if (v < 0 || v >= dims[d])
                throw value_error("invalid entry in coordinates array: index " + std::to_string(v)
                                  + " for axis " + std::to_string(d) + " with size "
                                  + std::to_string(dims[d]));
            o[k++] += v * place[d];
        }
    }
    return out;
}
} // namespace detail

/// `ravel_multi_index(multi_index, dims)` as numpy.ravel_multi_index (mode 'raise', C order):
/// the flat row-major index `Σ_d multi_index[d] * stride_d` of each multi-index, as a
/// `tensor<int64_t>` of the index arrays' broadcast shape: `ravel_multi_index({i, j}, {2, 3})`
/// with i = [1, 0], j = [2, 1] → [5, 1]. `multi_index`: one integer tensor or view per axis of
/// `dims`, as a braced list of int64 tensors/views or a `std::vector` of any (the output of
/// `unravel_index` or `nonzero` goes straight back in). Throws `value_error` when the count
/// differs from `dims.size()` ("parameter multi_index must be a sequence of length 2"), for an
/// index outside its axis ("invalid entry in coordinates array"), for a negative extent;
/// `broadcast_error` for index arrays that do not broadcast together.
template <int = 0> // a template: only a translation unit that calls it compiles its copy loop
tensor<std::int64_t>
ravel_multi_index(std::initializer_list<tensor_view<const std::int64_t>> multi_index,
                  const shape_t& dims) {
    return detail::ravel_multi_index_impl(
        multi_index.size(), [&](std::size_t d) { return multi_index.begin()[d]; }, dims);
}
template <class P>
    requires(tensor_like<P> || view_like<P>)
tensor<std::int64_t> ravel_multi_index(const std::vector<P>& multi_index, const shape_t& dims) {
    return detail::ravel_multi_index_impl(
        multi_index.size(), [&](std::size_t d) -> const P& { return multi_index[d]; }, dims);
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/algo/multi_index.ipp>
#endif
