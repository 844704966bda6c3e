# NumPy's draws for random.generator (random/generator_reference.py), written before it runs.
add_test(NAME random.generator_reference
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/random/generator_reference.py
                 ${CMAKE_CURRENT_BINARY_DIR}/random/generator.txt)
set_tests_properties(random.generator_reference PROPERTIES FIXTURES_SETUP random_generator_data)
set_tests_properties(random.generator PROPERTIES FIXTURES_REQUIRED random_generator_data)
