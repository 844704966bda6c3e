# Runs COMMAND (a list: program and arguments), requires exit code EXPECT_RC and every string in
# REQUIRE (a ;-list) in its combined output. Used by the example tests (cmake -P).
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(NOT rc EQUAL EXPECT_RC)
    message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_RC}\n${all}")
endif()
foreach(needle IN LISTS REQUIRE)
    string(FIND "${all}" "${needle}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "output lacks \"${needle}\":\n${all}")
    endif()
endforeach()
message(STATUS "ok:\n${all}")
