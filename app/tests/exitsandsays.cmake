# Passes only when PROGRAM ARGS exits 0, its standard output contains EXPECT (a literal), and its standard error holds
# no sanitizer report. CTest's PASS_REGULAR_EXPRESSION alone ignores the exit code: a program that printed its help
# and then crashed, or exited 1, passed. Usage: cmake -DPROGRAM=... -DARGS=--help -DEXPECT=text -P exitsandsays.cmake
execute_process(COMMAND ${PROGRAM} ${ARGS} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
if(NOT status STREQUAL "0")
    message(FATAL_ERROR "${PROGRAM} ${ARGS} ended with ${status}\n--- stdout:\n${out}\n--- stderr:\n${err}")
endif()
string(FIND "${out}" "${EXPECT}" at)
if(at EQUAL -1)
    message(FATAL_ERROR "${PROGRAM} ${ARGS} did not say \"${EXPECT}\"\n--- stdout:\n${out}\n--- stderr:\n${err}")
endif()
# As tests/support/clirun.h's sanitizerReported: UBSan without halt_on_error reports and exits 0.
if(err MATCHES "ERROR: AddressSanitizer|ERROR: LeakSanitizer|WARNING: ThreadSanitizer|runtime error: |SUMMARY: UndefinedBehaviorSanitizer")
    message(FATAL_ERROR "${PROGRAM} ${ARGS}: a sanitizer reported an error\n--- stderr:\n${err}")
endif()
message(STATUS "${PROGRAM} ${ARGS}: exit 0, said \"${EXPECT}\"")
