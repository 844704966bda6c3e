# NumPy's answers for toolbox.numpy (views and lazy shape helpers, masks, index arrays, interp,
# joining and splitting): tests/toolbox/toolbox_reference.py draws the cases, runs NumPy and
# writes them before the test reads them. Included by tests/CMakeLists.txt.
if(NOT TEST toolbox.numpy) # not built in this configuration (FUSOR_UNOPTIMISED_TESTS)
    return()
endif()
add_test(NAME toolbox.numpy_reference
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/toolbox/toolbox_reference.py
                 ${CMAKE_CURRENT_BINARY_DIR}/toolbox/toolbox_expected.txt)
set_tests_properties(toolbox.numpy_reference PROPERTIES FIXTURES_SETUP toolbox_data)
set_tests_properties(toolbox.numpy PROPERTIES FIXTURES_REQUIRED toolbox_data)
