// Small matrix products: matmul and dot of tensors and views of rank 1 and 2 build their node
// directly (reduce/contraction.hpp, direct_product), and float products too small for the BLAS
// run fusor's own i-k-j kernel (reduce_kernel::small_gemm, plan/gemm.hpp, exec/small_gemm.hpp).
// The direct node must be the node the general construction builds (same views, same space);
// the kernel must give the bits of the row kernel it replaces, and run where explain says so.
// clang-format off: the trace hooks must be defined before fusor is included
#include "../explain/trace.hpp"
// clang-format on

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"
#include "filled.hpp"

#ifndef FUSOR_TEST_TARGET
#define FUSOR_TEST_TARGET 0 // the compiler's default target; 3 AVX-512 (..._avx512.cpp)
#endif

using namespace fusor;

namespace {
using contract_tests::filled;

// Whether this processor runs the instructions this file was built for.
bool processor_has_target() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (FUSOR_TEST_TARGET == 3)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    return true;
#else
    return FUSOR_TEST_TARGET == 0; // the AVX-512 build is x86's
#endif
}
const bool skip_here = !processor_has_target();

// Leaf `I` of two contraction nodes: the same element, shape, strides, base and owner.
template <std::size_t I, class N>
void check_same_leaf(const N& fast, const N& general) {
    const auto& x = fusor::child<I>(fast.child);
    const auto& y = fusor::child<I>(general.child);
    CHECK(x.data == y.data);
    CHECK(x.shape() == y.shape());
    CHECK(x.strides() == y.strides());
    CHECK(x.base == y.base);
    CHECK(x.is_view == y.is_view);
    CHECK(x.owner.get() == y.owner.get());
}

template <class N>
void check_same_node(const N& fast, const N& general) {
    CHECK(fast.axes == general.axes);
    CHECK(fast.shape() == general.shape());
    CHECK(fast.keepdims == general.keepdims);
    CHECK(fast.child.shape() == general.child.shape());
    check_same_leaf<0>(fast, general);
    check_same_leaf<1>(fast, general);
}

// matmul and dot of `a` and `b` (tensors or views) against the general construction's nodes.
template <class A, class B>
void check_direct(const A& a, const B& b) {
    CAPTURE(to_string(a.shape()));
    CAPTURE(to_string(b.shape()));
    check_same_node(matmul(a, b),
                    detail::make_contraction(detail::matmul_spec(a.shape(), b.shape()), a, b));
    check_same_node(dot(a, b),
                    detail::make_contraction(detail::dot_spec(a.shape(), b.shape()), a, b));
}

template <class T>
bool same_bits(const tensor<T>& x, const tensor<T>& y) {
    if (x.shape() != y.shape())
        return false;
    std::vector<T> u(x.begin(), x.end()), v(y.begin(), y.end());
    return std::memcmp(u.data(), v.data(), u.size() * sizeof(T)) == 0;
}

// `e` evaluated with the small product kernel and without it (the row kernel): the same bits.
// Returns the kernel the first evaluation ran, after checking that it is the one explain names.
template <class E>
std::string check_row_kernel_bits(const E& e) {
    using T = value_type_t<E>;
    const auto doc = nlohmann::json::parse(explain(e).json());
    trace::clear();
    const tensor<T> with = e;
    const std::vector<std::string> ran = trace::kernels;
    CHECK(ran == trace::kernels_from_json(doc));
    planning::small_gemm_enabled = false;
    trace::clear();
    const tensor<T> without = e;
    planning::small_gemm_enabled = true;
    CHECK(trace::kernels.back() != "small_gemm");
    // On an FMA target (the AVX-512 build of this file) the row kernels' float64 sums take the
    // product unrounded (g++ contracts it into the compensated add), where small_gemm rounds it
    // first, as NumPy does (exec/small_gemm.hpp, rounded_product): other bits, by design.
    if (!(FUSOR_FMA_TARGET && std::is_same_v<T, double>))
        CHECK(same_bits(with, without));
    return ran.empty() ? "" : ran.back();
}
} // namespace

TEST_CASE("matmul and dot of tensors and views build the general construction's node"
          * doctest::skip(skip_here)) {
    const auto m = filled<float>({5, 7}, 1), n = filled<float>({7, 3}, 2);
    const auto v = filled<float>({7}, 3), w = filled<float>({5}, 4);
    const auto big = filled<float>({9, 14}, 5);
    const tensor<double> md = filled<double>({4, 4}, 6);
    check_direct(m, n);                                       // (5, 7) @ (7, 3)
    check_direct(m, v);                                       // matrix times a column
    check_direct(w, m);                                       // a row times a matrix
    check_direct(v, v);                                       // two vectors
    check_direct(md, md);                                     // float64
    check_direct(transpose(n), transpose(m));                 // views, column-major
    check_direct(view(big, slice(1, 6), slice(0, 14, 2)), n); // an offset and a stride
    check_direct(view(big, 2, slice(0, 14, 2)), view(big, slice(2, 9), 3)); // vectors of views
    check_direct(view(big, slice(0, 1), slice(0, 7)), view(big, slice(0, 7), slice(0, 1)));
    const tensor<float>& cm = m;
    check_direct(cm, n); // a const tensor
    // Values: the same as the general node's, bit for bit.
    CHECK(same_bits(
        tensor<float>(matmul(m, n)),
        tensor<float>(detail::make_contraction(detail::matmul_spec(m.shape(), n.shape()), m, n))));
}

TEST_CASE("matmul and dot outside the direct forms keep NumPy's errors"
          * doctest::skip(skip_here)) {
    const auto m = filled<float>({5, 7}, 1), n = filled<float>({6, 3}, 2);
    CHECK_THROWS_AS(matmul(m, n), value_error);
    CHECK_THROWS_AS(dot(m, n), value_error);
    CHECK_THROWS_AS(matmul(m, filled<float>({5}, 3)), value_error);
    const tensor<float> s = full<float>({}, 2.0f);
    CHECK_THROWS_AS(matmul(s, m), value_error);
    CHECK(dot(s, m).shape() == m.shape()); // a 0-d operand multiplies (the general path)
}

TEST_CASE("float products too small for the BLAS run small_gemm with the row kernel's bits"
          * doctest::skip(skip_here)) {
    struct dims {
        index_t m, k, n;
    };
    const std::vector<dims> sizes = {{1, 1, 1},
                                     {2, 3, 4},
                                     {4, 4, 4},
                                     {8, 8, 8},
                                     {5, 7, 9},
                                     {3, 16, 13},
                                     {15, 15, 15},
                                     {7, 1, 12},
                                     {1, 9, 6},
                                     {6, 9, 1}};
    for (const dims& d : sizes) {
        CAPTURE(d.m);
        CAPTURE(d.k);
        CAPTURE(d.n);
        const auto a = filled<float>({d.m, d.k}, 11), b = filled<float>({d.k, d.n}, 12);
        const auto ad = filled<double>({d.m, d.k}, 13), bd = filled<double>({d.k, d.n}, 14);
        const auto wide = filled<float>({d.k, 2 * d.n}, 15); // every second column
        const auto at = eval(transpose(a));
        if (d.m > 1 && d.n > 1) {
            CHECK(check_row_kernel_bits(matmul(a, b)) == "small_gemm");
            CHECK(check_row_kernel_bits(matmul(ad, bd)) == "small_gemm");
            CHECK(check_row_kernel_bits(matmul(transpose(at), b)) == "small_gemm");
            CHECK(check_row_kernel_bits(matmul(a, view(wide, all, slice(0, 2 * d.n, 2))))
                  == "small_gemm");
        } else {
            check_row_kernel_bits(matmul(a, b));
            check_row_kernel_bits(matmul(ad, bd));
        }
        // Whichever kernel these take, the bits hold. A transposed B and a vector B sum in a
        // register: under 8 terms it takes them one at a time, so small_gemm replaces it.
        const auto b_t = eval(transpose(b));
        const std::string bt = check_row_kernel_bits(matmul(a, transpose(b_t)));
        const std::string mv = check_row_kernel_bits(matmul(a, view(b, all, 0)));
        if (d.k > 1 && d.k < 8 && d.m > 1) {
            CHECK(bt == "small_gemm");
            CHECK(mv == "small_gemm");
        }
        if (d.k >= 8 && d.m > 1)
            CHECK(mv == "pairwise");
        check_row_kernel_bits(dot(view(a, 0), b));
    }
}

TEST_CASE("small_gemm: batches, strided destinations, products inside expressions"
          * doctest::skip(skip_here)) {
    const auto a = filled<float>({6, 5, 7}, 21), b = filled<float>({6, 7, 4}, 22);
    const auto b1 = filled<float>({1, 7, 4}, 23);
    CHECK(check_row_kernel_bits(einsum("bij,bjk->bik", a, b)) == "small_gemm");
    CHECK(check_row_kernel_bits(matmul(a, b1)) == "small_gemm"); // a broadcast batch
    CHECK(explain_text::one_line(explain(matmul(a, b)).text()).find("6 products (batch loops)")
          != std::string::npos);
    // Into a strided view of a larger tensor, and with an epilogue: the product is a
    // temporary, the epilogue an element-wise loop.
    const auto x = filled<float>({4, 4}, 24), y = filled<float>({4, 4}, 25);
    tensor<float> big = zeros<float>({4, 8}), ref = zeros<float>({4, 8});
    trace::clear();
    view(big, all, slice(0, 8, 2)) = matmul(x, y);
    CHECK(trace::kernels == std::vector<std::string>{"small_gemm"});
    planning::small_gemm_enabled = false;
    view(ref, all, slice(0, 8, 2)) = matmul(x, y);
    planning::small_gemm_enabled = true;
    CHECK(same_bits(big, ref));
    trace::clear();
    const tensor<float> relu = maximum(matmul(x, y) + 1.0f, 0.0f);
    CHECK(trace::kernels.front() == "small_gemm");
    planning::small_gemm_enabled = false;
    const tensor<float> relu_row = maximum(matmul(x, y) + 1.0f, 0.0f);
    planning::small_gemm_enabled = true;
    CHECK(same_bits(relu, relu_row));
    // Integers keep the row kernel (the kernel is for float products).
    const tensor<int32_t> i = cast<int32_t>(x * 100.0f);
    trace::clear();
    const tensor<int32_t> ii = matmul(i, i);
    CHECK(trace::kernels == std::vector<std::string>{"row"});
}

TEST_CASE("explain names the small product, its sizes and its vectors" * doctest::skip(skip_here)) {
    const auto a = filled<float>({8, 8}, 31);
    const std::string t = explain_text::one_line(explain(matmul(a, a)).text());
    CHECK(t.find("kernel:  small_gemm: fusor's matrix product 8 x 8 x 8 (m x n x k, under the "
                 "4096 multiply-adds the BLAS takes)")
          != std::string::npos);
    CHECK(t.find("1 product; flat: straight into out (no plan cache, no finalize loop)\n")
          != std::string::npos);
    CHECK(t.find("float32 products 8 or 4 columns at a time") != std::string::npos);
    const auto d = filled<double>({8, 8}, 32);
    CHECK(explain_text::one_line(explain(matmul(d, d)).text())
              .find("vectors: none (one accumulator at a time)")
          != std::string::npos);
    const auto doc = nlohmann::json::parse(explain(matmul(a, a)).json());
    CHECK(doc.at("loops").at(0).at("runs") == "small_gemm");
}

namespace {
// `out = e` (a product of two tensors or views) as the flat product decides it
// (planning::is_flat_product) against the plan the planner makes for it: when the flat product
// takes it, the plan is small_gemm's with the same gemm_plan (flat_product set); when the plan
// is small_gemm without batch loops into a row-major destination apart from both factors, of
// at most flat_product_max_results elements, the flat product takes it. Either way the result
// has the bits of the general path's. Returns whether the flat product ran.
template <class E, class T>
bool check_flat_product(const E& e, tensor<T>& out, bool reads_out = false) {
    const destination_layout layout = detail::layout_of(out.view());
    const destination_ref d{
        layout.shape, layout.strides, layout.address, layout.dtype, layout.itemsize};
    gemm_plan g;
    const bool flat = planning::is_flat_product(e, d, g);
    const loop_plan p = make_plan(e, d);
    CHECK(p.flat_product == flat);
    if (flat) {
        CHECK(p.reduction == reduce_kernel::small_gemm);
        CHECK(p.gemm == g);
    } else if (!reads_out && p.reduction == reduce_kernel::small_gemm && p.gemm.batch.empty()
               && e.size() <= planning::flat_product_max_results) {
        FAIL("the planner's small_gemm, not taken by the flat product");
    }
    if (reads_out)
        return flat; // evaluating it changes what it reads
    trace::clear();
    out = e;
    if (flat)
        CHECK(trace::kernels == std::vector<std::string>{"small_gemm"});
    const tensor<T> fast = out;
    planning::flat_plans_enabled = false;
    out = e;
    planning::flat_plans_enabled = true;
    CHECK(same_bits(fast, out));
    return flat;
}

template <class T>
int sweep_flat_products() {
    int flat = 0;
    const std::vector<index_t> extents = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17};
    for (const index_t m : extents)
        for (const index_t k : extents)
            for (const index_t n : {index_t{1}, index_t{3}, index_t{4}, index_t{8}, index_t{17}}) {
                CAPTURE(m);
                CAPTURE(k);
                CAPTURE(n);
                const auto a = filled<T>({m, k}, 41), b = filled<T>({k, n}, 42);
                const auto at = eval(transpose(a)), bt = eval(transpose(b));
                const auto wide = filled<T>({k, 2 * n}, 43);
                const auto x = filled<T>({k}, 44), y = filled<T>({m}, 45);
                tensor<T> mn(shape_t{m, n}), vn(shape_t{n}), vm(shape_t{m}), vk(shape_t{k});
                flat += check_flat_product(matmul(a, b), mn);
                flat += check_flat_product(matmul(transpose(at), b), mn);
                flat += check_flat_product(matmul(a, transpose(bt)), mn);
                flat += check_flat_product(matmul(a, view(wide, all, slice(0, 2 * n, 2))), mn);
                flat += check_flat_product(matmul(x, b), vn);
                flat += check_flat_product(matmul(a, x), vm);
                flat += check_flat_product(dot(y, a), vk);
                // Into one of its own factors: the general path (NumPy's overlap rule).
                if (m == k && k == n) {
                    tensor<T> self = a;
                    CHECK_FALSE(check_flat_product(matmul(self, b), self, true));
                }
            }
    return flat;
}
} // namespace

TEST_CASE("a small product of two tensors runs straight into its destination, as the planner's "
          "small_gemm"
          * doctest::skip(skip_here)) {
    // Most of the sweep is flat (the rest: a run of 8 or more summed terms in registers, more
    // than 256 results, 4096 or more multiply-adds).
    CHECK(sweep_flat_products<float>() > 1000);
    CHECK(sweep_flat_products<double>() > 1000);
    // The test hooks turn it off.
    const auto a = filled<float>({4, 4}, 51);
    tensor<float> out(shape_t{4, 4});
    const auto d = detail::layout_of(out.view());
    planning::small_gemm_enabled = false;
    CHECK_FALSE(make_plan(matmul(a, a), d).flat_product);
    planning::small_gemm_enabled = true;
    planning::flat_plans_enabled = false;
    CHECK_FALSE(make_plan(matmul(a, a), d).flat_product);
    planning::flat_plans_enabled = true;
    CHECK(make_plan(matmul(a, a), d).flat_product);
    // A strided destination, or one of another shape, takes the general path.
    tensor<float> big(shape_t{4, 8});
    CHECK_FALSE(
        make_plan(matmul(a, a), detail::layout_of(view(big, all, slice(0, 8, 2)))).flat_product);
    // Explain says so, and the JSON carries it.
    CHECK(nlohmann::json::parse(explain(out, matmul(a, a)).json())
              .at("loops")
              .at(0)
              .at("flat_product")
          == true);
    CHECK_FALSE(explain(out, matmul(a, a)).cached);
}
