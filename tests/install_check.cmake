# ctest install_tree: `cmake --install` into a fresh folder, then the installed programs
# run from there and report the project's version; the scenarios are installed beside.
#   cmake -DBUILD=<build dir> -DPREFIX=<empty dir> -DVERSION=<x.y.z> [-DGUI=ON] -P install_check.cmake
cmake_minimum_required(VERSION 3.22)
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX}
                RESULT_VARIABLE code OUTPUT_QUIET)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${code})")
endif()

set(programs eosim)
if(GUI)
  list(APPEND programs eosim-gui)
endif()
foreach(program IN LISTS programs)
  execute_process(COMMAND ${PREFIX}/bin/${program} --version
                  RESULT_VARIABLE code OUTPUT_VARIABLE out)
  if(NOT code EQUAL 0 OR NOT out STREQUAL "${program} ${VERSION}\n")
    message(FATAL_ERROR "installed ${program} --version: exit ${code}, printed '${out}', "
                        "expected '${program} ${VERSION}'")
  endif()
endforeach()

file(GLOB scenarios ${PREFIX}/share/eosim/scenarios/*.toml)
list(LENGTH scenarios count)
if(count LESS 10)
  message(FATAL_ERROR "only ${count} scenarios installed in ${PREFIX}/share/eosim/scenarios")
endif()
foreach(file include/eosim_failpoint.h share/eosim/helpers/eosim_failpoint.py
             share/eosim/examples/consumers/python/atomic.py)
  if(NOT EXISTS ${PREFIX}/${file})
    message(FATAL_ERROR "cmake --install did not install ${file}")
  endif()
endforeach()

# From a folder with no scenarios in it, the installed eosim finds its own under
# PREFIX/share/eosim (src/files/data_dir.h), and its replay line names the program as it
# was invoked and the scenario's path as read.
set(elsewhere ${PREFIX}-cwd)
file(REMOVE_RECURSE ${elsewhere})
file(MAKE_DIRECTORY ${elsewhere})
function(installed_eosim expected_code)
  execute_process(COMMAND ${PREFIX}/bin/eosim ${ARGN} WORKING_DIRECTORY ${elsewhere}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL expected_code)
    message(FATAL_ERROR "installed eosim ${ARGN}, run in ${elsewhere}: exit ${code} (expected "
                        "${expected_code}): ${out}${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
function(expect_text text)
  string(FIND "${out}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "installed eosim printed no '${text}':\n${out}")
  endif()
endfunction()

installed_eosim(0 list scenarios)
expect_text("${count} scenario files in ${PREFIX}/share/eosim/scenarios:")
installed_eosim(0 lesson)
expect_text(" 1  Two Generals")
expect_text("12  ")
installed_eosim(0 lesson 1 --answer 2)
expect_text("replay: ${PREFIX}/bin/eosim run ${PREFIX}/share/eosim/scenarios/04-ack-lost-on-the-wire.toml --seed")
# --dir chooses: a folder of the user's, named relative to where eosim runs.
file(MAKE_DIRECTORY ${elsewhere}/mine)
file(COPY ${PREFIX}/share/eosim/scenarios/01-happy-path.toml DESTINATION ${elsewhere}/mine)
installed_eosim(0 list scenarios --dir mine)
expect_text("1 scenario file in mine:")
installed_eosim(2 lesson 1 --dir mine)
file(REMOVE_RECURSE ${elsewhere})
message(STATUS "install_tree: ${programs} and ${count} scenarios installed and run, "
               "found from ${elsewhere}")
