# NumPy's answers for stats.quantile (median, percentile, quantile, their nan- forms,
# partition, argpartition): quantile_reference.py writes the cases, test_quantile.cpp reads them.
if(NOT TEST stats.quantile) # not built in this configuration (FUSOR_UNOPTIMISED_TESTS)
    return()
endif()
add_test(NAME stats.quantile_reference
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/stats/quantile_reference.py
                 ${CMAKE_CURRENT_BINARY_DIR}/stats/quantile_cases.txt)
set_tests_properties(stats.quantile_reference PROPERTIES FIXTURES_SETUP quantile_data)
set_tests_properties(stats.quantile PROPERTIES FIXTURES_REQUIRED quantile_data)
