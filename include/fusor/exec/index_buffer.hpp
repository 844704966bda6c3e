// fusor/exec/index_buffer.hpp: the per-operand and per-level index words of one evaluation
// (each operand's offset, its step one level out, an odometer's counters), held in the object up
// to 16 words and on the heap beyond. A shape_t did this before: its general constructors cost
// about 40 instructions each, and an evaluation of `c = transpose(a) + b` over (8, 8) made four
// (docs/performance.md, "Index words without a container").
#pragma once

#include <algorithm>
#include <cstddef>

#include <fusor/core/shape.hpp>

namespace fusor::exec::detail {

class index_buffer {
public:
    /// `n` words, each `fill`.
    index_buffer(std::size_t n, index_t fill) : words_(storage(n)), size_(n) {
        std::fill_n(words_, n, fill);
    }
    /// The `n` words at `first`.
    index_buffer(const index_t* first, std::size_t n) : words_(storage(n)), size_(n) {
        std::copy_n(first, n, words_);
    }
    /// `n` words, uninitialised.
    explicit index_buffer(std::size_t n) : words_(storage(n)), size_(n) {}
    // Moved (a function's result: NRVO usually elides it), never copied.
    index_buffer(index_buffer&& o) noexcept : words_(inline_), size_(o.size_) {
        if (o.words_ == o.inline_) {
            std::copy_n(o.inline_, size_, inline_);
        } else {
            words_ = o.words_;
            o.words_ = o.inline_;
            o.size_ = 0;
        }
    }
    index_buffer(const index_buffer&) = delete;
    index_buffer& operator=(const index_buffer&) = delete;
    index_buffer& operator=(index_buffer&&) = delete;
    ~index_buffer() {
        if (words_ != inline_) [[unlikely]]
            release(words_);
    }

    index_t& operator[](std::size_t i) { return words_[i]; }
    index_t operator[](std::size_t i) const { return words_[i]; }
    index_t* data() { return words_; }
    const index_t* data() const { return words_; }
    std::size_t size() const { return size_; }

private:
    static constexpr std::size_t inline_words = 16;
    index_t* storage(std::size_t n) {
        if (n <= inline_words) [[likely]]
            return inline_;
        return allocate(n);
    }
    // Out of line: the common case (inline words) compiles to a compare and a store.
    [[gnu::noinline]] static index_t* allocate(std::size_t n) { return new index_t[n]; }
    [[gnu::noinline]] static void release(index_t* words) noexcept { delete[] words; }

    index_t inline_[inline_words];
    index_t* words_;
    std::size_t size_;
};

} // namespace fusor::exec::detail
