// Contractions fuse, proven by counting allocations: the broadcast product a contraction
// reduces is never stored, element-wise operands are computed inside its loop, and an
// element-wise epilogue (`maximum(matmul(a, b) + bias, 0)`) stores only the product's result.
#include <cstddef>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../counting_new.hpp"

using namespace fusor;

namespace {
std::size_t largest_allocation = 0;
std::size_t total_allocated = 0;
bool counting = false;

void start_counting() {
    largest_allocation = total_allocated = 0;
    counting = true;
}
// What a tensor of `bytes` of elements allocates: they and the zeroed slack after them
// (core/tail_slack.hpp). Raw buffers (fusor's accumulators) have no slack.
std::size_t tensor_allocation(std::size_t bytes) {
    return bytes + detail::tail_slack_bytes;
}
} // namespace

void record_allocation(std::size_t n) {
    if (counting) {
        total_allocated += n;
        largest_allocation = n > largest_allocation ? n : largest_allocation;
    }
}

TEST_CASE("a fused epilogue stores the product's result once, never the broadcast product") {
    const index_t n = 64, k = 96, m = 80;
    const tensor<float> a = ones<float>({n, k}), b = ones<float>({k, m}), bias = ones<float>({m});
    tensor<float> c = zeros<float>({n, m});
    const std::size_t result_bytes = static_cast<std::size_t>(n * m) * sizeof(float);
    const std::size_t product_bytes = result_bytes * static_cast<std::size_t>(k);
    start_counting();
    c = maximum(matmul(a, b) + bias, 0.0f);
    counting = false;
    // The temporary the epilogue reads (with a BLAS: the product's result, float32; without,
    // fusor's loop adds its accumulators, doubles), and the plans (a few KiB).
    CHECK(largest_allocation
          == (FUSOR_BLAS_GEMM ? tensor_allocation(result_bytes) : 2 * result_bytes));
    CHECK(total_allocated < (FUSOR_BLAS_GEMM ? 2 : 4) * result_bytes);
    CHECK(total_allocated < product_bytes / 16);
    CHECK(c(0, 0) == static_cast<float>(k + 1));
}

TEST_CASE("an element-wise operand is computed inside the contraction's loop, or once for the "
          "BLAS") {
    // With a BLAS, a * 2 is computed into a temporary of its own shape first, which the BLAS
    // reads (the product written straight into c). Without, fusor's loop computes it inside,
    // with one accumulator per result element (doubles). Either way nothing of the product's
    // size is stored.
    const index_t n = 64, k = 32, m = 80;
    const tensor<float> a = ones<float>({n, k}), b = ones<float>({k, m});
    tensor<float> c = zeros<float>({n, m});
    const std::size_t accumulator_bytes = static_cast<std::size_t>(n * m) * sizeof(double);
    const std::size_t factor_bytes = static_cast<std::size_t>(n * k) * sizeof(float);
    const std::size_t product_bytes = static_cast<std::size_t>(n * k * m) * sizeof(float);
    start_counting();
    c = matmul(a * 2.0f, b);
    counting = false;
    const std::size_t stored =
        FUSOR_BLAS_GEMM ? tensor_allocation(factor_bytes) : accumulator_bytes;
    CHECK(largest_allocation == stored);
    CHECK(total_allocated < stored + 16384); // and the plans (a few KiB each)
    CHECK(total_allocated < product_bytes / 8);
    CHECK(c(0, 0) == static_cast<float>(2 * k));
}

TEST_CASE("an element-wise operand of a product the BLAS does not take is never stored") {
    // Row dot products: no GEMM layout, so fusor's loop computes a * 2 as it reads it.
    const index_t n = 512, k = 256;
    const tensor<float> a = ones<float>({n, k});
    tensor<float> r = zeros<float>({n});
    start_counting();
    r = einsum("ij,ij->i", a * 2.0f, a);
    counting = false;
    CHECK(largest_allocation < static_cast<std::size_t>(n * k) * sizeof(float) / 64);
    CHECK(r(0) == static_cast<float>(2 * k));
}

TEST_CASE("row dot products store nothing but their result") {
    const index_t n = 512, k = 256;
    const tensor<double> x = ones<double>({n, k});
    tensor<double> r = zeros<double>({n});
    start_counting();
    r = einsum("ij,ij->i", x, x);
    counting = false;
    CHECK(largest_allocation < static_cast<std::size_t>(n * k) * sizeof(double) / 64);
    CHECK(r(0) == static_cast<double>(k));
}

TEST_CASE("a chain stores each intermediate once") {
    // (b c) first: its (48, 64) intermediate (24 KiB, larger than a plan) is the smallest.
    const index_t n = 48, l = 64;
    const tensor<double> a = ones<double>({n, n}), b = ones<double>({n, 2 * n}),
                         c = ones<double>({2 * n, l});
    tensor<double> r = zeros<double>({n, l});
    start_counting();
    r = einsum("ij,jk,kl->il", a, b, c);
    counting = false;
    // The intermediate (with a BLAS; fusor's loop adds its compensated accumulators, two
    // doubles per element), never the (n, 2n, l) product of the one-loop form.
    const std::size_t intermediate_bytes = static_cast<std::size_t>(n * l) * sizeof(double);
    CHECK(largest_allocation
          == (FUSOR_BLAS_GEMM ? tensor_allocation(intermediate_bytes) : 2 * intermediate_bytes));
    CHECK(r(0, 0) == static_cast<double>(n * 2 * n));
}
