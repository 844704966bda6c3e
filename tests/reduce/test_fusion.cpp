// Fusion, proven by counting allocations: a reduction consumes its element-wise operand inside
// its own loop and never stores it; eager evaluation does store it (which proves the counter).
#include <cstddef>
#include <cstdlib>
#include <new>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

namespace {
std::size_t largest_allocation = 0;
std::size_t total_allocated = 0;
bool counting = false;

void start_counting() {
    largest_allocation = total_allocated = 0;
    counting = true;
}
} // namespace

// The replacement operator new/delete pair below allocates with malloc and frees with free;
// g++ cannot see that they pair up once inlined, hence -Wmismatched-new-delete is off here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void* operator new(std::size_t n) {
    if (counting) {
        total_allocated += n;
        largest_allocation = n > largest_allocation ? n : largest_allocation;
    }
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

TEST_CASE("sum(a * b, 1) allocates its result and accumulators, never a * b") {
    const fusor::index_t n = 512, m = 256;
    const auto a = fusor::ones<double>({n, m});
    const auto b = fusor::full<double>({n, m}, 2.0);
    const std::size_t product_bytes = static_cast<std::size_t>(n * m) * sizeof(double);

    start_counting();
    fusor::tensor<double> s = fusor::sum(a * b, 1);
    counting = false;
    CHECK(s(0) == 512.0);
    CHECK(largest_allocation < product_bytes / 16);
    CHECK(total_allocated < product_bytes / 8);

    start_counting();
    fusor::tensor<double> e = fusor::eval_eager(fusor::sum(a * b, 1));
    counting = false;
    CHECK(e(0) == 512.0);
    CHECK(largest_allocation >= product_bytes); // eager stores a * b
}

TEST_CASE("standardisation materialises exactly the two small reductions") {
    const fusor::index_t n = 1000, d = 8;
    auto x = fusor::ones<double>({n, d});
    for (fusor::index_t i = 0; i < n; ++i)
        for (fusor::index_t j = 0; j < d; ++j)
            x(i, j) = static_cast<double>((i * 7 + j * 3) % 11);
    const std::size_t full_bytes = static_cast<std::size_t>(n * d) * sizeof(double);
    start_counting();
    fusor::tensor<double> z = (x - fusor::mean(x, 0)) / fusor::stddev(x, 0);
    counting = false;
    // Output (full_bytes) plus small (d,)-sized temporaries and plans: nothing else of size n*d.
    CHECK(largest_allocation == full_bytes);
    CHECK(total_allocated < full_bytes + full_bytes / 2);
    CHECK(fusor::eval(fusor::mean(z, 0))(3) == doctest::Approx(0.0).epsilon(1e-12));
    CHECK(fusor::eval(fusor::stddev(z, 0))(3) == doctest::Approx(1.0));
}
