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
message(STATUS "install_tree: ${programs} and ${count} scenarios installed and run")
