# contract.blas_identity again with OpenBLAS's kernels chosen by the environment
# (OPENBLAS_CORETYPE, which OpenBLAS reads when it loads): Prescott, its generic kernels, which
# explain must call generic on a processor with AVX2, and Haswell's, which it must not.
# FUSOR_TEST_BLAS_CORE tells the test the core to expect. Each run reports a skip where it
# cannot exercise its subject (no BLAS, a BLAS other than OpenBLAS, Haswell without AVX2).
# Included by tests/CMakeLists.txt.
if(NOT TEST contract.blas_identity)
    return()
endif()
set_tests_properties(contract.blas_identity PROPERTIES
                     SKIP_REGULAR_EXPRESSION "${fusor_all_cases_skipped}")
foreach(core Prescott Haswell)
    string(TOLOWER ${core} lower)
    add_test(NAME contract.blas_identity_${lower} COMMAND test_contract_blas_identity
             WORKING_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}")
    set_tests_properties(contract.blas_identity_${lower} PROPERTIES
        ENVIRONMENT "OPENBLAS_CORETYPE=${core};FUSOR_TEST_BLAS_CORE=${core};OMP_NUM_THREADS=2"
        SKIP_REGULAR_EXPRESSION "${fusor_all_cases_skipped}")
endforeach()
