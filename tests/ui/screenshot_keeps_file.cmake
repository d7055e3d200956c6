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

# --screenshot onto the scenario it shows, even with --force: exit 2, the scenario kept
# (before, --force replaced it with the picture).
get_filename_component(dir "${OUT}" DIRECTORY)
set(copy "${dir}/screenshot-input.toml")
file(COPY_FILE "${SCENARIO}" "${copy}")
file(READ "${copy}" before)
execute_process(COMMAND "${GUI}" --screenshot "${copy}" --force "${copy}"
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
file(READ "${copy}" after)
file(REMOVE "${copy}")
if(NOT rc EQUAL 2 OR NOT after STREQUAL before)
  message(FATAL_ERROR "--screenshot onto its own scenario with --force: exit ${rc}: ${err}")
endif()
string(FIND "${err}" "input file" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the refusal does not say it is the input file: ${err}")
endif()

# A symbolic link to a missing file: refused, and nothing made where it points.
set(link "${dir}/screenshot-link.png")
set(target "${dir}/screenshot-nowhere.png")
file(REMOVE "${link}" "${target}")
file(CREATE_LINK "${target}" "${link}" SYMBOLIC)
execute_process(COMMAND "${GUI}" --screenshot "${link}" --force "${SCENARIO}"
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
file(REMOVE "${link}")
if(NOT rc EQUAL 2 OR EXISTS "${target}")
  message(FATAL_ERROR "--screenshot through a dangling link: exit ${rc}: ${err}")
endif()
message(STATUS "refused its own scenario and a dangling link: ${err}")
