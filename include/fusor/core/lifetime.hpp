// fusor/core/lifetime.hpp: checked mode's record of the storage each expression operand was
// built over (FUSOR_CHECKED, see config.hpp).
//
// An expression holds its lvalue operands by reference (expr/leaf.hpp), so an operand freed or
// reallocated before evaluation makes the expression read freed memory. In checked mode every
// tensor owns a `storage_token` that it shares with each leaf and view made from it; the token
// outlives the tensor and records what happened to it. A leaf or view keeps a
// `lifetime_stamp`: the token and the epochs it saw. Evaluation compares the two before it
// reads anything else of the operand. In release mode the stamp is an empty member and every
// check compiles to nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/error.hpp>

namespace fusor::detail {

#if FUSOR_CHECKED
/// What one tensor's storage has been through. Shared by the tensor and every leaf and view
/// made from it, so it outlives the tensor.
struct storage_token {
    bool destroyed = false;
    bool moved_from = false;
    std::uint32_t buffer_epoch = 0; ///< bumped when the buffer is freed and replaced
    std::uint32_t shape_epoch = 0;  ///< bumped when the shape changes over the same buffer
};

/// What a leaf or view saw of its storage when it was made.
struct lifetime_stamp {
    std::shared_ptr<const storage_token> token;
    std::uint32_t buffer_epoch = 0;
    std::uint32_t shape_epoch = 0;
    /// A tensor leaf reads the tensor's own shape and strides, so a reshape breaks it; a view
    /// has its own and only needs the elements to stay.
    bool follows_shape = false;
    // adapt(std::vector&): the vector, read through these two, and what it held then.
    const void* vector = nullptr;
    const void* (*vector_data)(const void*) = nullptr;
    std::size_t (*vector_size)(const void*) = nullptr;
    const void* data = nullptr;
    std::size_t size = 0;

    /// Empty when the storage is as it was; otherwise what happened to it.
    std::string problem() const {
        if (token) {
            if (token->destroyed)
                return "was destroyed";
            if (token->moved_from)
                return "was moved from";
            if (token->buffer_epoch != buffer_epoch)
                return "was reallocated (assigned or resized to another number of elements)";
            if (follows_shape && token->shape_epoch != shape_epoch)
                return "was reshaped (by reshape() or an assignment of another shape)";
        }
        if (vector) {
            if (vector_data(vector) != data)
                return "is an adapted std::vector that reallocated (it grew past its capacity, "
                       "or was assigned or swapped)";
            if (vector_size(vector) < size)
                return "is an adapted std::vector that shrank below the view's extent";
        }
        return {};
    }
};

/// The stamp a leaf or view of a tensor with `token` takes now.
FUSOR_DECL lifetime_stamp stamp_of(const std::shared_ptr<storage_token>& token, bool follows_shape);

/// The stamp of a view over `v`'s elements `[0, needed)`.
template <class T, class A>
lifetime_stamp stamp_of_vector(const std::vector<T, A>& v, std::size_t needed) {
    lifetime_stamp s;
    s.vector = &v;
    s.vector_data = [](const void* p) -> const void* {
        return static_cast<const std::vector<T, A>*>(p)->data();
    };
    s.vector_size = [](const void* p) {
        return static_cast<const std::vector<T, A>*>(p)->size();
    };
    s.data = v.data();
    s.size = needed;
    return s;
}
#else
/// Release mode: nothing recorded.
struct lifetime_stamp {
    static std::string problem() { return {}; }
};
#endif

/// Throws `lifetime_error` when the operand with `stamp` changed: the `position`-th tensor or
/// view of the expression from the left (counting from 1), a `dtype` (may be empty) `kind`
/// ("tensor" or "view"). The words are joined only when it throws: checked mode runs this for
/// every leaf of every evaluation (joining them first was a quarter of a small evaluation).
FUSOR_DECL void check_stamp([[maybe_unused]] const lifetime_stamp& stamp,
                            [[maybe_unused]] int position,
                            [[maybe_unused]] std::string_view dtype,
                            [[maybe_unused]] std::string_view kind);

} // namespace fusor::detail

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/core/lifetime.ipp>
#endif
