// explain names the kernels the BLAS runs a matrix product with (OpenBLAS's core,
// exec::query_blas_identity) and says when they are OpenBLAS's generic fallback for a processor
// it does not recognise. ctest runs this suite as built (contract.blas_identity) and again with
// OPENBLAS_CORETYPE set before the program starts (tests/contract/fixtures_blas_identity.cmake):
// Prescott, OpenBLAS's generic kernels, which explain must call generic on a processor with
// AVX2, and Haswell, which it must not. FUSOR_TEST_BLAS_CORE names the core a run expects.
#include <cstdlib>
#include <string>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "../explain_text.hpp"

using namespace fusor;

namespace {

bool processor_has(const char* feature) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    const std::string f = feature;
    return f == "avx2"      ? __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
           : f == "avx512f" ? __builtin_cpu_supports("avx512f")
                            : false;
#else
    (void)feature;
    return false;
#endif
}

// The core this run was started with (OPENBLAS_CORETYPE through ctest), or empty.
std::string expected_core() {
    const char* core = std::getenv("FUSOR_TEST_BLAS_CORE");
    return core ? core : "";
}

// Whether this run can exercise the subject: a BLAS build, OpenBLAS linked, and a core this
// processor can run (Haswell's kernels need AVX2 and FMA; asking for them elsewhere would stop
// the program on an illegal instruction).
bool runnable() {
    if (!FUSOR_BLAS_GEMM)
        return false;
    if (expected_core() == "Haswell" && !processor_has("avx2"))
        return false;
    return !exec::query_blas_identity().core.empty();
}

} // namespace

TEST_CASE("explain names OpenBLAS's core and says when its kernels are the generic fallback"
          * doctest::skip(!runnable())) {
    tensor<float> a = ones<float>({64, 64}), b = ones<float>({64, 64}), c;
    c = matmul(a, b); // the BLAS runs it (64^3 multiply-adds: planning::gemm_min_work)
    CHECK(c(0, 0) == 64.0f);
    const std::string text = explain_text::one_line(explain(c, matmul(a, b)).text());
    REQUIRE(text.find("kernel:  BLAS sgemm 64 x 64 x 64") != std::string::npos);
    const exec::blas_identity id = exec::query_blas_identity();
    CHECK(id.config.find("OpenBLAS") == 0);
    const std::string want = expected_core();
    if (!want.empty())
        CHECK(id.core == want);
    CHECK(text.find("vectors: the BLAS's own kernels (OpenBLAS, core " + id.core + ")")
          != std::string::npos);
    if (want == "Prescott" && processor_has("avx2")) {
        const std::string suggested = processor_has("avx512f") ? "SkylakeX" : "Haswell";
        CHECK(id.generic);
        CHECK(id.suggested_core == suggested);
        CHECK(text.find("OpenBLAS's generic kernels: it does not recognise this processor, which "
                        "has "
                        + std::string(suggested == "SkylakeX" ? "AVX-512" : "AVX2")
                        + " (set OPENBLAS_CORETYPE=" + suggested
                        + " before the program starts for its kernels)")
              != std::string::npos);
    }
    if (want == "Haswell") {
        CHECK_FALSE(id.generic);
        CHECK(id.suggested_core.empty());
        CHECK(text.find("generic kernels") == std::string::npos);
    }
}

TEST_CASE("explain of a product fusor computes itself names no BLAS" * doctest::skip(!runnable())) {
    // 4 x 4 x 4: below the BLAS's minimum work, fusor's small_gemm kernel.
    tensor<float> a = ones<float>({4, 4}), b = ones<float>({4, 4}), c;
    c = matmul(a, b);
    const std::string text = explain_text::one_line(explain(c, matmul(a, b)).text());
    CHECK(text.find("kernel:  small_gemm: fusor's matrix product 4 x 4 x 4") != std::string::npos);
    CHECK(text.find("OpenBLAS") == std::string::npos);
    CHECK(text.find("the BLAS's own kernels") == std::string::npos);
}
