# Runs a consumer project as a user would (cmake -P). MODE=find_package installs the build tree
# into a fresh prefix and configures tests/install/consumer against it; MODE=add_subdirectory
# configures tests/install/subdir_consumer, which vendors the source tree. Then builds and runs
# the app; any failing step fails the test. MODE=pkg_config installs into a fresh prefix and
# compiles tests/install/consumer/main.cpp with the compiler and `pkg-config --cflags --libs
# fusor` alone, as a user without CMake would, header-only and again under
# FUSOR_SEPARATE_COMPILATION.
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
elseif(MODE STREQUAL "pkg_config")
    set(prefix "${WORK_DIR}/prefix")
    step(${CMAKE_COMMAND} --install "${FUSOR_BUILD_DIR}" --prefix "${prefix}")
    set(ENV{PKG_CONFIG_PATH} "${prefix}/share/pkgconfig")
    execute_process(COMMAND pkg-config --cflags --libs fusor RESULT_VARIABLE rc
                    OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "pkg-config --cflags --libs fusor failed (${rc})")
    endif()
    message(STATUS "pkg-config --cflags --libs fusor: ${flags}")
    if(NOT flags MATCHES "-std=c\\+\\+20")
        message(FATAL_ERROR "pkg-config flags lack -std=c++20: ${flags}")
    endif()
    if(EXPECT_OPENMP AND NOT flags MATCHES "-fopenmp")
        message(FATAL_ERROR "the CMake target uses OpenMP but pkg-config does not say so: ${flags}")
    endif()
    separate_arguments(flag_list UNIX_COMMAND "${flags}")
    file(MAKE_DIRECTORY "${WORK_DIR}/build")
    step(${CXX} -O2 "${FUSOR_SOURCE_DIR}/tests/install/consumer/main.cpp" ${flag_list}
         -o "${WORK_DIR}/build/app")
    step("${WORK_DIR}/build/app")
    # The same program under FUSOR_SEPARATE_COMPILATION (docs/api.md, "Separate compilation"):
    # the installed fusor/src.hpp compiled once in a unit of its own, with the same flags.
    file(WRITE "${WORK_DIR}/build/fusor_src.cpp" "#include <fusor/src.hpp>\n")
    step(${CXX} -O2 -DFUSOR_SEPARATE_COMPILATION -c "${WORK_DIR}/build/fusor_src.cpp" ${flag_list}
         -o "${WORK_DIR}/build/fusor_src.o")
    step(${CXX} -O2 -DFUSOR_SEPARATE_COMPILATION "${FUSOR_SOURCE_DIR}/tests/install/consumer/main.cpp"
         "${WORK_DIR}/build/fusor_src.o" ${flag_list} -o "${WORK_DIR}/build/app_separate")
    step("${WORK_DIR}/build/app_separate")
    message(STATUS "consumer (${MODE}) built and ran, header-only and with separate compilation")
    return()
else()
    step(${CMAKE_COMMAND} -S "${FUSOR_SOURCE_DIR}/tests/install/subdir_consumer"
         -B "${WORK_DIR}/build" -DFUSOR_SOURCE_DIR=${FUSOR_SOURCE_DIR}
         -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=Release)
endif()
step(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
step("${WORK_DIR}/build/app")
message(STATUS "consumer (${MODE}) built and ran")
