// The BLAS path of contractions (plan/gemm.hpp, exec/gemm.hpp): which products reach it, and
// that it gives the product fusor's own loop gives, whatever the layout (transposes, batch
// axes, broadcast batches, strided destinations, an aliased destination). Results are checked
// against a long double loop written here; the tolerance is the textbook bound for a dot
// product of k terms in precision eps, k * eps * sum |a_ik b_kj| (Higham, Accuracy and
// Stability, 3.1), with k + 2 to cover the final rounding to the result type.
#include <cmath>
#include <cstdint>
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"
#include "filled.hpp"
#include <nlohmann/json.hpp>

using namespace fusor;

namespace {
using contract_tests::filled;

// C[..., i, j] = sum_k A[..., i, k] B[..., k, j] for 3-d (batch, m, k) x (batch or 1, k, n)
// tensors given as any expressions, checked element by element against long double sums.
template <class R, class A, class B>
void check_product(const R& result, const A& a_in, const B& b_in) {
    using T = value_type_t<R>;
    const auto a = eval(a_in);
    const auto b = eval(b_in);
    REQUIRE(a.rank() == 3);
    REQUIRE(b.rank() == 3);
    const index_t batch = a.shape()[0], m = a.shape()[1], k = a.shape()[2], n = b.shape()[2];
    REQUIRE(result.shape() == shape_t{batch, m, n});
    const long double eps = std::numeric_limits<T>::epsilon();
    int bad = 0;
    for (index_t p = 0; p < batch; ++p)
        for (index_t i = 0; i < m; ++i)
            for (index_t j = 0; j < n; ++j) {
                long double exact = 0, magnitude = 0;
                const index_t q = b.shape()[0] == 1 ? 0 : p;
                for (index_t t = 0; t < k; ++t) {
                    const long double x =
                        static_cast<long double>(a(p, i, t)) * static_cast<long double>(b(q, t, j));
                    exact += x;
                    magnitude += std::fabs(x);
                }
                const long double tol = static_cast<long double>(k + 2) * eps * magnitude;
                if (std::fabs(static_cast<long double>(result(p, i, j)) - exact) > tol)
                    ++bad;
            }
    CHECK(bad == 0);
}

std::string kernel_of(const explanation& e) {
    const std::string t = explain_text::one_line(e.text());
    for (const char* routine : {"sgemm", "dgemm", "sgemv", "dgemv"})
        if (t.find(std::string("BLAS ") + routine) != std::string::npos)
            return routine;
    return "loop";
}

// y[p, i] = sum_k A[p, i, k] x[p, k], checked as check_product checks.
template <class R, class A, class X>
void check_matvec(const R& result, const A& a_in, const X& x_in) {
    using T = value_type_t<R>;
    const auto a = eval(a_in);
    const auto x = eval(x_in);
    const index_t batch = a.shape()[0], m = a.shape()[1], k = a.shape()[2];
    REQUIRE(result.shape() == shape_t{batch, m});
    const long double eps = std::numeric_limits<T>::epsilon();
    int bad = 0;
    for (index_t p = 0; p < batch; ++p)
        for (index_t i = 0; i < m; ++i) {
            long double exact = 0, magnitude = 0;
            for (index_t t = 0; t < k; ++t) {
                const long double v =
                    static_cast<long double>(a(p, i, t)) * static_cast<long double>(x(p, t));
                exact += v;
                magnitude += std::fabs(v);
            }
            const long double tol = static_cast<long double>(k + 2) * eps * magnitude;
            if (std::fabs(static_cast<long double>(result(p, i)) - exact) > tol)
                ++bad;
        }
    CHECK(bad == 0);
}
} // namespace

TEST_CASE("float products of GEMM layout reach the BLAS, others run fusor's loop"
          * doctest::skip(!FUSOR_BLAS_GEMM)) {
    const auto a = filled<float>({64, 48}, 1), b = filled<float>({48, 40}, 2);
    const auto ad = filled<double>({64, 48}, 3), bd = filled<double>({48, 40}, 4);
    CHECK(kernel_of(explain(matmul(a, b))) == "sgemm");
    CHECK(kernel_of(explain(matmul(ad, bd))) == "dgemm");
    CHECK(kernel_of(explain(matmul(transpose(b), transpose(a)))) == "sgemm");
    CHECK(kernel_of(explain(einsum("ik,kj->ij", a, b))) == "sgemm");
    CHECK(kernel_of(explain(einsum("ki,kj->ij", a, a))) == "sgemm"); // a^T a: A transposed
    CHECK(kernel_of(explain(tensordot(a, b, 1))) == "sgemm");
    CHECK(kernel_of(explain(dot(a, b))) == "sgemm");
    // An element-wise operand is computed into a temporary first, which the BLAS reads; a
    // tensor moved into the expression is read where it is.
    CHECK(kernel_of(explain(matmul(a * 2.0f, b))) == "sgemm");
    CHECK(kernel_of(explain(matmul(eval(a * 2.0f), b))) == "sgemm");
    CHECK(kernel_of(explain(matmul(a, eval(b * 2.0f)))) == "sgemm");
    // Not the BLAS: mixed types (a cast in the product), a strided (every second column)
    // operand, a matrix-vector product, a tiny product, integers.
    CHECK(kernel_of(explain(matmul(a, bd))) == "loop");
    CHECK(kernel_of(explain(matmul(view(a, all, slice(0, 48, 2)), view(b, slice(0, 48, 2), all))))
          == "loop");
    CHECK(kernel_of(explain(matmul(a, view(b, all, 0)))) == "loop");
    const auto s = filled<float>({4, 4}, 5);
    CHECK(kernel_of(explain(matmul(s, s))) == "loop");
    const tensor<int32_t> i = cast<int32_t>(a * 100.0f);
    CHECK(kernel_of(explain(matmul(i, transpose(i)))) == "loop");
    // Matrix-vector products large enough (m * k >= 16^3) are the BLAS's gemv, batched or not.
    const auto m = filled<float>({96, 128}, 6), v = filled<float>({128}, 7);
    const auto md = filled<double>({6, 96, 128}, 8), vd = filled<double>({6, 128}, 9);
    CHECK(kernel_of(explain(matmul(m, v))) == "sgemv");
    const auto mt = eval(transpose(m));
    CHECK(kernel_of(explain(matmul(transpose(mt), v))) == "sgemv"); // A read column-major
    CHECK(kernel_of(explain(einsum("ijk,ik->ij", md, vd))) == "dgemv");
    CHECK(explain_text::one_line(explain(einsum("ijk,ik->ij", md, vd)).text())
              .find("6 calls (batch loops)")
          != std::string::npos);
}

TEST_CASE("a float32 matrix-vector product over more than gemv_blas_max_bytes runs fusor's loop"
          * doctest::skip(!FUSOR_BLAS_GEMM)) {
    // 65 matrices of (256, 256) float32: 17 MiB, over the 16 MiB the BLAS's gemv keeps.
    const index_t batch = planning::gemv_blas_max_bytes / (256 * 256 * 4) + 1;
    const auto a = filled<float>({batch, 256, 256}, 10), x = filled<float>({batch, 256}, 11);
    const auto e = explain(einsum("ijk,ik->ij", a, x));
    CHECK(kernel_of(e) == "loop");
    CHECK(nlohmann::json::parse(e.json())["loops"].back()["runs"] == "float_lanes");
    check_matvec(eval(einsum("ijk,ik->ij", a, x)), a, x);
    // One matrix fewer (16 MiB, not over it) and float64 of any size stay the BLAS's.
    const auto under = view(a, slice(0, batch - 1));
    CHECK(kernel_of(explain(einsum("ijk,ik->ij", under, view(x, slice(0, batch - 1))))) == "sgemv");
    const auto ad = filled<double>({batch, 256, 256}, 12), xd = filled<double>({batch, 256}, 13);
    CHECK(kernel_of(explain(einsum("ijk,ik->ij", ad, xd))) == "dgemv");
}

TEST_CASE("float32 contraction runs of 64 terms or more take float_lanes, shorter ones pairwise") {
    const auto runs = [](const explanation& e) {
        return nlohmann::json::parse(e.json())["loops"].back()["runs"].get<std::string>();
    };
    for (const index_t k : {8, 63, 64, 65, 100, 511, 512, 800}) { // 5 * 800 < gemm_min_work
        CAPTURE(k);
        const auto a = filled<float>({1, 5, k}, 14), x = filled<float>({1, k}, 15);
        const auto e = explain(einsum("ijk,ik->ij", a, x)); // 5 dots of k terms: not a gemv
        CHECK(runs(e) == (k >= fusor::float_lane_min_run ? "float_lanes" : "pairwise"));
        if (k >= fusor::float_lane_min_run)
            CHECK(explain_text::one_line(e.text()).find(
                      "vectors: 32 float32 lanes of up to 16 terms, then 32 float64 "
                      "lanes (")
                  != std::string::npos);
        check_matvec(eval(einsum("ijk,ik->ij", a, x)), a, x);
    }
    // float64 keeps its compensated lanes.
    const auto d = filled<double>({3, 100}, 16);
    CHECK(runs(explain(einsum("ij,ij->i", d, d))) == "compensated");
}

TEST_CASE("the BLAS's gemv gives the matrix-vector product within the dot-product bound") {
    // (Without a BLAS these run fusor's loop: the checks hold there too.)
    const auto a = filled<float>({5, 72, 90}, 21), x = filled<float>({5, 90}, 22);
    const auto at = eval(transpose(a, {0, 2, 1})); // (5, 90, 72): A read column-major
    const auto ad = filled<double>({3, 64, 80}, 23), xd = filled<double>({3, 80}, 24);
    SUBCASE("batched, row-major A") {
        tensor<float> y = einsum("ijk,ik->ij", a, x);
        check_matvec(y, a, x);
    }
    SUBCASE("A transposed (a flag), x strided") {
        const auto x2 = filled<float>({5, 180}, 25);
        const auto xs = view(x2, all, slice(0, 180, 2));
        tensor<float> y = einsum("ikj,ik->ij", at, xs);
        check_matvec(y, a, xs);
    }
    SUBCASE("float64, into a strided view of a larger tensor") {
        tensor<double> big = zeros<double>({3, 128});
        view(big, all, slice(0, 128, 2)) = einsum("ijk,ik->ij", ad, xd);
        check_matvec(eval(view(big, all, slice(0, 128, 2))), ad, xd);
        CHECK(eval(sum(abs(view(big, all, slice(1, 128, 2))))).item() == 0.0);
    }
    SUBCASE("into a float64 destination (a buffer, then converted)") {
        tensor<double> y = einsum("ijk,ik->ij", a, x);
        check_matvec(eval(cast<float>(y)), a, x);
    }
    SUBCASE("matmul of a matrix and a vector") {
        const auto m = filled<float>({96, 128}, 26), v = filled<float>({128}, 27);
        tensor<float> y = matmul(m, v);
        check_matvec(eval(reshape(y, {1, 96})), reshape(m, {1, 96, 128}), reshape(v, {1, 128}));
    }
}

TEST_CASE("the BLAS path gives the product within the dot-product bound, in every layout") {
    // (Without a BLAS the same expressions run fusor's loop: the checks hold there too.)
    const auto a = filled<float>({3, 40, 56}, 11), b = filled<float>({3, 56, 24}, 12);
    const auto bt = eval(transpose(b, {0, 2, 1}));  // (3, 24, 56), read transposed
    const auto at = eval(transpose(a, {0, 2, 1}));  // (3, 56, 40)
    const auto b1 = filled<float>({1, 56, 24}, 13); // a broadcast batch
    const auto ad = filled<double>({2, 33, 65}, 14), bd = filled<double>({2, 65, 17}, 15);
    SUBCASE("batched, row-major") {
        tensor<float> c = matmul(a, b);
        check_product(c, a, b);
    }
    SUBCASE("batched, both operands transposed views") {
        tensor<float> c = matmul(transpose(at, {0, 2, 1}), transpose(bt, {0, 2, 1}));
        check_product(c, a, b);
    }
    SUBCASE("a broadcast batch (stride 0)") {
        tensor<float> c = matmul(a, b1);
        check_product(c, a, b1);
    }
    SUBCASE("einsum with batch letters") {
        tensor<float> c = einsum("bik,bkj->bij", a, b);
        check_product(c, a, b);
    }
    SUBCASE("float64") {
        tensor<double> c = matmul(ad, bd);
        check_product(c, ad, bd);
    }
    SUBCASE("into a float64 destination (a buffer, then converted)") {
        tensor<double> c = matmul(a, b);
        check_product(eval(cast<float>(c)), a, b);
    }
    SUBCASE("into a strided view of a larger tensor") {
        tensor<float> big = zeros<float>({3, 40, 48});
        view(big, all, all, slice(0, 48, 2)) = matmul(a, b);
        check_product(eval(view(big, all, all, slice(0, 48, 2))), a, b);
        CHECK(eval(sum(abs(view(big, all, all, slice(1, 48, 2))))).item() == 0.0f);
    }
    SUBCASE("inside an element-wise expression (a boundary, then the epilogue)") {
        const auto bias = filled<float>({24}, 16);
        tensor<float> c = maximum(matmul(a, b) + bias, 0.0f);
        tensor<float> plain = matmul(a, b);
        tensor<float> expected = maximum(plain + bias, 0.0f);
        CHECK(array_equal(c, expected));
    }
    SUBCASE("the destination is an operand (NumPy's overlap rule: as if evaluated first)") {
        tensor<double> x = filled<double>({1, 48, 48}, 17);
        const tensor<double> x0 = x;
        x = matmul(x, x);
        check_product(x, x0, x0);
    }
    SUBCASE("an empty summed axis gives zeros") {
        const auto e0 = zeros<float>({2, 30, 0}), e1 = zeros<float>({2, 0, 20});
        tensor<float> c = matmul(e0, e1);
        CHECK(c.shape() == shape_t{2, 30, 20});
        CHECK(eval(sum(abs(c))).item() == 0.0f);
    }
}

TEST_CASE("a contraction is lazy: it reads its operands' values when evaluated") {
    auto a = filled<float>({32, 32}, 21);
    const auto b = filled<float>({32, 32}, 22);
    auto e = matmul(a, b);
    a = a * 2.0f; // same size: the storage is kept, the expression sees the new values
    tensor<float> c = e;
    tensor<float> twice = matmul(a, b);
    CHECK(array_equal(c, twice));
}

TEST_CASE("three or more operands contract pairwise in a greedy order that explain prints") {
    const auto a = filled<double>({30, 40}, 31), b = filled<double>({40, 50}, 32),
               c = filled<double>({50, 20}, 33), v = filled<double>({20}, 34);
    // (b c) first: its (40, 20) intermediate is the smallest of the three pairs.
    const std::string text =
        explain_text::one_line(explain(einsum("ij,jk,kl->il", a, b, c)).text());
    CHECK(text.find("order ((1, 2), 0)") != std::string::npos);
    tensor<double> chain = einsum("ij,jk,kl->il", a, b, c);
    tensor<double> ab = matmul(a, b);
    tensor<double> pairwise = matmul(ab, c);
    CHECK(chain.shape() == shape_t{30, 20});
    CHECK(eval(max(abs(chain - pairwise))).item() < 1e-12);
    // The same operands as an expression cannot chain (one operand is not a tensor): one loop
    // over every index, the same values.
    tensor<double> naive = einsum("ij,jk,kl->il", a * 1.0, b, c);
    CHECK(eval(max(abs(naive - pairwise))).item() < 1e-12);
    CHECK(
        explain_text::one_line(explain(einsum("ij,jk,kl->il", a * 1.0, b, c)).text()).find("order")
        == std::string::npos);
    // Four operands, the last a vector; a diagonal in a chain.
    tensor<double> four = einsum("ij,jk,kl,l->i", a, b, c, v);
    tensor<double> abc = matmul(pairwise, v);
    CHECK(four.shape() == shape_t{30});
    CHECK(eval(max(abs(four - abc))).item() < 1e-12);
    const auto sq = filled<double>({40, 40}, 35);
    tensor<double> diag_chain = einsum("ii,ij,jk->k", sq, b, c);
    tensor<double> d = diagonal(sq);
    tensor<double> bc = matmul(b, c);
    tensor<double> expected = einsum("i,ik->k", d, bc);
    CHECK(eval(max(abs(diag_chain - expected))).item() < 1e-12);
    // Every extent is checked before an order is chosen.
    CHECK_THROWS_AS(einsum("ij,jk,kl->il", a, b, a), value_error);
}

TEST_CASE("explain's JSON holds the BLAS call" * doctest::skip(!FUSOR_BLAS_GEMM)) {
    const auto a = filled<float>({3, 64, 32}, 41), b = filled<float>({3, 48, 32}, 42);
    const std::string json = explain(einsum("bik,bjk->bij", a, b)).json();
    CHECK(json.find("\"runs\":\"gemm\"") != std::string::npos);
    CHECK(json.find("\"gemm\":{\"routine\":\"sgemm\",\"m\":64,\"n\":48,\"k\":32")
          != std::string::npos);
    CHECK(json.find("\"trans_a\":false,\"trans_b\":true,\"calls\":3,\"direct\":true")
          != std::string::npos);
}

TEST_CASE("a loop that reads a BLAS product stays on the calling thread"
          * doctest::skip(!FUSOR_BLAS_GEMM || !threads_enabled)) {
    // 256 x 256 results: past parallel_threshold, so the epilogue would be split otherwise.
    const auto a = filled<float>({256, 64}, 51), b = filled<float>({64, 256}, 52);
    const auto bias = filled<float>({256}, 53);
    const tensor<float> product = matmul(a, b);
    set_num_threads(2);
    const explanation fused = explain(maximum(matmul(a, b) + bias, 0.0f));
    REQUIRE(fused.plan.boundaries.size() == 1);
    CHECK(fused.plan.boundaries[0].plan->reduction == reduce_kernel::gemm);
    CHECK(fused.plan.threads == 1);
    CHECK(fused.plan.serial == loop_plan::serial_reason::blas_product);
    CHECK(explain_text::one_line(fused.text()).find("threads: 1 (next to a BLAS product")
          != std::string::npos);
    // The same loop over a tensor is split.
    const explanation plain = explain(maximum(product + bias, 0.0f));
    CHECK(plain.plan.threads == 2);
    CHECK(plain.plan.serial == loop_plan::serial_reason::none);
    tensor<float> c = maximum(matmul(a, b) + bias, 0.0f);
    CHECK(array_equal(c, eval(maximum(product + bias, 0.0f))));
}

TEST_CASE("an element-wise factor is computed first when the BLAS then takes the product"
          * doctest::skip(!FUSOR_BLAS_GEMM)) {
    const auto a = filled<float>({64, 48}, 61), b = filled<float>({48, 40}, 62);
    const auto sq = filled<double>({40, 40}, 63);
    // The same BLAS call on the same values: the same bits as computing the factor by hand
    // (each by-hand product below is of tensors, which the BLAS reads where they are).
    auto same_as_by_hand = [](const auto& fused, const auto& by_hand) {
        CHECK(fused.shape() == by_hand.shape());
        CHECK(array_equal(fused, by_hand));
    };
    SUBCASE("one factor, either side, float32 and float64") {
        tensor<float> c = matmul(a * 2.0f, b);
        same_as_by_hand(c, eval(matmul(eval(a * 2.0f), b)));
        c = matmul(a, exp(b * 0.01f));
        same_as_by_hand(c, eval(matmul(a, eval(exp(b * 0.01f)))));
        tensor<double> d = matmul(sq - 1.0, sq);
        same_as_by_hand(d, eval(matmul(eval(sq - 1.0), sq)));
    }
    SUBCASE("both factors, one computed once when they are equal") {
        tensor<double> d = matmul(sq * 0.5, sq * 0.5);
        const explanation e = explain(matmul(sq * 0.5, sq * 0.5));
        REQUIRE(e.plan.boundaries.size() == 2);
        CHECK(e.plan.boundaries[0].why == boundary_plan::reason::product_factor);
        CHECK(e.plan.boundaries[1].reused);
        const tensor<double> half = sq * 0.5;
        same_as_by_hand(d, eval(matmul(half, half)));
    }
    SUBCASE("a transposed factor is read column-major; a factor with a reduction in it") {
        tensor<float> c = matmul(transpose(b * 3.0f), transpose(a));
        same_as_by_hand(c, eval(matmul(transpose(eval(b * 3.0f)), transpose(a))));
        tensor<float> centred = matmul(a - mean(a, 0), b);
        same_as_by_hand(centred, eval(matmul(eval(a - mean(a, 0)), b)));
    }
    SUBCASE("the destination is read by the factor") {
        tensor<double> x = sq;
        x = matmul(x * 2.0, x);
        same_as_by_hand(x, eval(matmul(eval(sq * 2.0), sq)));
    }
    SUBCASE("explain shows the factor's loop, named, before the product") {
        const explanation e = explain(matmul(a * 2.0f, b));
        REQUIRE(e.plan.boundaries.size() == 1);
        CHECK(e.plan.boundaries[0].why == boundary_plan::reason::product_factor);
        CHECK(e.plan.reduction == reduce_kernel::gemm);
        const std::string t = explain_text::one_line(e.text());
        CHECK(t.find("tmp0 = multiply") != std::string::npos);
        CHECK(t.find("-> tmp0: float32 (64, 48), 12288 bytes, factor of a BLAS product")
              != std::string::npos);
        CHECK(t.find("BLAS sgemm 64 x 40 x 48 (m x n x k): tmp0 row-major") != std::string::npos);
    }
    SUBCASE("products the BLAS does not take keep the factor inside fusor's loop") {
        // Row dot products (no GEMM layout) and a product under gemm_min_work.
        const explanation rows = explain(einsum("ij,ij->i", a * 2.0f, a));
        CHECK(rows.plan.boundaries.empty());
        CHECK(kernel_of(rows) == "loop");
        const auto s = filled<float>({8, 8}, 64);
        const explanation tiny = explain(matmul(s * 2.0f, s));
        CHECK(tiny.plan.boundaries.empty());
        CHECK(kernel_of(tiny) == "loop");
        tensor<float> c = matmul(s * 2.0f, s);
        CHECK(c.shape() == shape_t{8, 8});
    }
}

TEST_CASE("a factor's loop feeding the BLAS stays on the calling thread"
          * doctest::skip(!FUSOR_BLAS_GEMM || !threads_enabled)) {
    const auto a = filled<float>({512, 256}, 65), b = filled<float>({256, 64}, 66);
    set_num_threads(2);
    const explanation e = explain(matmul(a * 2.0f, b));
    REQUIRE(e.plan.boundaries.size() == 1);
    const loop_plan& factor = *e.plan.boundaries[0].plan;
    CHECK(factor.threads == 1);
    CHECK(factor.serial == loop_plan::serial_reason::blas_product);
    // The same loop alone is split.
    CHECK(explain(a * 2.0f).plan.threads == 2);
}
