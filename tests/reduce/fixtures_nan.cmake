# NumPy's answers for reduce.nan (tests/reduce/test_nan.cpp reads them): nan_reference.py
# draws the random cases and writes NumPy 1.24's results before the test runs.
if(NOT TEST reduce.nan) # not built in this configuration (FUSOR_UNOPTIMISED_TESTS)
    return()
endif()
add_test(NAME reduce.nan_reference
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/reduce/nan_reference.py
                 ${CMAKE_CURRENT_BINARY_DIR}/reduce/nan_expected.txt)
set_tests_properties(reduce.nan_reference PROPERTIES FIXTURES_SETUP nan_data)
set_tests_properties(reduce.nan PROPERTIES FIXTURES_REQUIRED nan_data)
