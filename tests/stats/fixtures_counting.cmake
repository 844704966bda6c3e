# NumPy's answers for stats.counting (histogram, bincount, digitize, searchsorted, isin, unique,
# average, ptp, cov, corrcoef): tests/stats/counting_reference.py draws the cases, runs NumPy and
# writes them before the test reads them. Included by tests/CMakeLists.txt.
if(NOT TEST stats.counting) # not built in this configuration (FUSOR_UNOPTIMISED_TESTS)
    return()
endif()
add_test(NAME stats.counting_reference
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/stats/counting_reference.py
                 ${CMAKE_CURRENT_BINARY_DIR}/stats/counting_expected.txt)
set_tests_properties(stats.counting_reference PROPERTIES FIXTURES_SETUP counting_data)
set_tests_properties(stats.counting PROPERTIES FIXTURES_REQUIRED counting_data)
