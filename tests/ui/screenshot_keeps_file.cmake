# eosim-gui --screenshot onto a file that exists, without --force: exit 2, a message that
# names --force, and the file as it was. Run by ctest as
#   cmake -DGUI=eosim-gui -DSCENARIO=FILE.toml -DOUT=PATH -P screenshot_keeps_file.cmake
file(WRITE "${OUT}" "a file of the user's")
execute_process(COMMAND "${GUI}" --screenshot "${OUT}" "${SCENARIO}"
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
file(READ "${OUT}" kept)
file(REMOVE "${OUT}")
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "expected exit 2, got ${rc}: ${err}")
endif()
if(NOT kept STREQUAL "a file of the user's")
  message(FATAL_ERROR "eosim-gui replaced ${OUT} without --force")
endif()
string(FIND "${err}" "--force" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the refusal does not name --force: ${err}")
endif()
message(STATUS "refused and kept: ${err}")
