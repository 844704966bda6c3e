# NumPy's answers for contract.numpy (einsum, matmul, dot, vdot, inner, outer, tensordot, trace):
# tests/contract/contract_reference.py draws the cases, runs NumPy and writes them before the
# test reads them. Included by tests/CMakeLists.txt.
if(NOT TEST contract.numpy) # not built in this configuration (FUSOR_UNOPTIMISED_TESTS)
    return()
endif()
add_test(NAME contract.numpy_reference
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/contract/contract_reference.py
                 ${CMAKE_CURRENT_BINARY_DIR}/contract/contract_expected.txt)
set_tests_properties(contract.numpy_reference PROPERTIES FIXTURES_SETUP contract_data)
set_tests_properties(contract.numpy PROPERTIES FIXTURES_REQUIRED contract_data)
