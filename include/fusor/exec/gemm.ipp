// fusor/exec/gemm.ipp: the definitions of gemm.hpp's non-template functions, included at its
// end (header-only, the default) or compiled once by fusor/src.hpp (FUSOR_SEPARATE_COMPILATION:
// docs/api.md, "Separate compilation").
#pragma once

#include <fusor/exec/gemm.hpp>

#if FUSOR_BLAS_GEMM && (defined(__GNUC__) || defined(__clang__)) && defined(__ELF__)
// OpenBLAS's own functions, declared weak: null unless the BLAS linked in is OpenBLAS.
extern "C" {
char* openblas_get_config(void) __attribute__((weak));
char* openblas_get_corename(void) __attribute__((weak));
}
#define FUSOR_BLAS_IDENTITY 1
#else
#define FUSOR_BLAS_IDENTITY 0
#endif

namespace fusor::exec {

FUSOR_DEF blas_identity query_blas_identity() {
    blas_identity id;
#if FUSOR_BLAS_IDENTITY
    if (!openblas_get_config || !openblas_get_corename)
        return id;
    const char* config = openblas_get_config();
    const char* core = openblas_get_corename();
    if (!config || !core)
        return id;
    id.config = config;
    id.core = core;
    // OpenBLAS's cores without AVX2 kernels: on a processor with AVX2, one of these is
    // OpenBLAS's fallback for a processor it does not know (its DYNAMIC_ARCH builds choose
    // Prescott then).
    static constexpr const char* pre_avx2[] = {"Prescott",
                                               "Core2",
                                               "Penryn",
                                               "Dunnington",
                                               "Nehalem",
                                               "Atom",
                                               "Sandybridge",
                                               "Barcelona",
                                               "Bobcat",
                                               "Bulldozer",
                                               "Piledriver",
                                               "Steamroller"};
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2"))
        for (const char* name : pre_avx2)
            if (id.core == name) {
                id.generic = true;
                id.suggested_core = __builtin_cpu_supports("avx512f") ? "SkylakeX" : "Haswell";
            }
#else
    (void)pre_avx2;
#endif
#endif
    return id;
}

} // namespace fusor::exec
