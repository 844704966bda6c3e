# Runs a consumer project as a user would (cmake -P). MODE=find_package installs the build tree
# into a fresh prefix and configures tests/install/consumer against it; MODE=add_subdirectory
# configures tests/install/subdir_consumer, which vendors the source tree. Then builds and runs
# the app; any failing step fails the test.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(step)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "step failed (${rc}): ${ARGN}\n${out}\n${err}")
    endif()
endfunction()

if(MODE STREQUAL "find_package")
    set(prefix "${WORK_DIR}/prefix")
    step(${CMAKE_COMMAND} --install "${FUSOR_BUILD_DIR}" --prefix "${prefix}")
    step(${CMAKE_COMMAND} -S "${FUSOR_SOURCE_DIR}/tests/install/consumer" -B "${WORK_DIR}/build"
         -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
else()
    step(${CMAKE_COMMAND} -S "${FUSOR_SOURCE_DIR}/tests/install/subdir_consumer"
         -B "${WORK_DIR}/build" -DFUSOR_SOURCE_DIR=${FUSOR_SOURCE_DIR}
         -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
endif()
step(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
step("${WORK_DIR}/build/app")
message(STATUS "consumer (${MODE}) built and ran")
