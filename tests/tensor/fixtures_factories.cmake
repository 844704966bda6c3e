# NumPy's answers for tensor.factories (arange and linspace): tests/tensor/factories_reference.py
# draws the calls, runs NumPy and writes them before the test reads them. Included by
# tests/CMakeLists.txt.
if(NOT TEST tensor.factories) # not built in this configuration (FUSOR_UNOPTIMISED_TESTS)
    return()
endif()
add_test(NAME tensor.factories_reference
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/tensor/factories_reference.py
                 ${CMAKE_CURRENT_BINARY_DIR}/tensor/factories_expected.txt)
set_tests_properties(tensor.factories_reference PROPERTIES FIXTURES_SETUP factories_data)
set_tests_properties(tensor.factories PROPERTIES FIXTURES_REQUIRED factories_data)
