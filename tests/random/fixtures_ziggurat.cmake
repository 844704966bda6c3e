# NumPy's ziggurat samplers (tests/random/test_ziggurat.cpp): ziggurat_reference.py records what
# numpy.random.Generator(PCG64) draws, before random.ziggurat replays it.
add_test(NAME random.ziggurat_reference
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/random/ziggurat_reference.py
                 ${CMAKE_CURRENT_BINARY_DIR}/random/ziggurat.bin)
set_tests_properties(random.ziggurat_reference PROPERTIES FIXTURES_SETUP ziggurat_data)
set_tests_properties(random.ziggurat PROPERTIES FIXTURES_REQUIRED ziggurat_data)
# include/fusor/random/ziggurat_tables.hpp is what ziggurat_tables.py writes today, and every one
# of its 3072 entries equals the one compiled into NumPy's libnpyrandom.a (skipped, exit code 77,
# where NumPy ships no such library).
add_test(NAME random.ziggurat_tables_up_to_date
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/random/ziggurat_tables.py --check)
add_test(NAME random.ziggurat_tables_match_numpy
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/random/ziggurat_tables.py
                 --compare-numpy)
set_tests_properties(random.ziggurat_tables_match_numpy PROPERTIES SKIP_RETURN_CODE 77)
