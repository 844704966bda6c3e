# Proves the checked-in NumPy expectations are what generate.py makes today (cmake -P): runs the
# generator (default options: the fixed seed and CI's random case count) on a copy of this folder
# whose generated headers were deleted first, then compares every header byte for byte, both
# ways: a checked-in header the generator no longer writes, or a new one that is not checked in,
# fails too.
cmake_minimum_required(VERSION 3.20) # IN_LIST below
file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${SOURCE_DIR}/" DESTINATION "${WORK_DIR}")
file(GLOB stale "${WORK_DIR}/numpy_cases*.hpp")
if(stale)
    file(REMOVE ${stale})
endif()
execute_process(COMMAND ${PYTHON} "${WORK_DIR}/generate.py" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "generate.py failed: ${err}")
endif()
# Where NumPy dispatched its math to other processor paths than on the machine that wrote the
# headers (numpy_host.txt), its last bits differ: then only the cases' structure (every test,
# shape, dtype, tolerance and the order of values, with each number masked) can be compared,
# and the test reports the byte-for-byte comparison skipped (ctest SKIP_REGULAR_EXPRESSION).
file(READ "${SOURCE_DIR}/numpy_host.txt" host_then)
file(READ "${WORK_DIR}/numpy_host.txt" host_now)
set(same_host TRUE)
if(NOT host_then STREQUAL host_now)
    set(same_host FALSE)
endif()
function(masked text out)
    string(REGEX REPLACE "[0-9]+\\.[0-9]+(e[-+]?[0-9]+)?|[0-9]+e[-+]?[0-9]+" "#" text "${text}")
    string(REGEX REPLACE "[ \t\r\n]+" "" text "${text}")
    set(${out} "${text}" PARENT_SCOPE)
endfunction()
file(GLOB generated RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/numpy_cases*.hpp")
file(GLOB fresh_files RELATIVE "${WORK_DIR}" "${WORK_DIR}/numpy_cases*.hpp")
foreach(f IN LISTS fresh_files)
    if(NOT f IN_LIST generated)
        message(FATAL_ERROR "${f} is generated but not checked in: run /usr/bin/python3 tests/oracle/generate.py")
    endif()
endforeach()
foreach(f IN LISTS generated)
    if(NOT EXISTS "${WORK_DIR}/${f}")
        message(FATAL_ERROR "${f} is checked in but generate.py no longer writes it: remove it")
    endif()
    file(READ "${SOURCE_DIR}/${f}" checked_in)
    file(READ "${WORK_DIR}/${f}" fresh)
    if(same_host)
        if(NOT checked_in STREQUAL fresh)
            message(FATAL_ERROR "${f} is stale: run /usr/bin/python3 tests/oracle/generate.py")
        endif()
    else()
        masked("${checked_in}" checked_in)
        masked("${fresh}" fresh)
        if(NOT checked_in STREQUAL fresh)
            message(FATAL_ERROR "${f} is stale (its cases differ, numbers aside): run /usr/bin/python3 tests/oracle/generate.py")
        endif()
    endif()
endforeach()
list(LENGTH generated n)
if(same_host)
    message(STATUS "NumPy expectations up to date (${n} headers)")
else()
    string(STRIP "${host_then}" host_then)
    string(STRIP "${host_now}" host_now)
    message(STATUS "SKIPPED: the ${n} headers' cases match what generate.py writes here, numbers "
                   "aside; their values cannot be compared bit for bit, because this NumPy "
                   "(${host_now}) takes other processor paths than the one that wrote them "
                   "(${host_then})")
endif()
