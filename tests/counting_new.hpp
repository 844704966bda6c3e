// Replacement global operator new and delete for the tests that count allocations
// (tests/reduce/test_fusion.cpp, tests/plan/test_flat.cpp): every allocation in the executable
// goes through malloc and calls `record_allocation(bytes)`, which the including test defines.
// Include it in exactly one translation unit of an executable.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>

/// Called with the size of every allocation the executable makes.
void record_allocation(std::size_t bytes);

// The pairs below allocate with malloc and free with free; g++ cannot see that they pair up
// once inlined, hence -Wmismatched-new-delete is off here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n) {
    record_allocation(n);
    if (void* p = std::malloc(n ? n : 1))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
    return operator new(n);
}
// The nothrow forms too (std::stable_sort's buffer uses them), so every new pairs with our delete.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    try {
        return operator new(n);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept {
    return operator new(n, t);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
// The aligned forms (std::align_val_t: tensors' buffers, core/tail_slack.hpp), counted alike.
void* operator new(std::size_t n, std::align_val_t a) {
    record_allocation(n);
    const auto align = static_cast<std::size_t>(a);
    const std::size_t rounded = ((n ? n : 1) + align - 1) / align * align; // aligned_alloc's rule
    if (void* p = std::aligned_alloc(align, rounded))
        return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) {
    return operator new(n, a);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
    try {
        return operator new(n, a);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept {
    return operator new(n, a, t);
}
void operator delete(void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
    std::free(p);
}
