# NumPy's answers for toolbox.shifting (pad, roll, tile, repeat and their segments):
# tests/toolbox/shifting_reference.py draws the cases, runs NumPy and writes them before the
# test reads them. Included by tests/CMakeLists.txt.
if(NOT TEST toolbox.shifting) # not built in this configuration (FUSOR_UNOPTIMISED_TESTS)
    return()
endif()
add_test(NAME toolbox.shifting_reference
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/toolbox/shifting_reference.py
                 ${CMAKE_CURRENT_BINARY_DIR}/toolbox/shifting_expected.txt)
set_tests_properties(toolbox.shifting_reference PROPERTIES FIXTURES_SETUP shifting_data)
set_tests_properties(toolbox.shifting PROPERTIES FIXTURES_REQUIRED shifting_data)
