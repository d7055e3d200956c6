# The layout ratchet: every .h and .cpp of sim/, src/, ui/, bench/, tests/ and fuzz/ is
# laid out as .clang-format says, except the files listed in ALLOWLIST, written before the
# layout was checked and left as they are so that no branch in flight has to merge a
# reformatted tree. The list only shrinks: a listed file that is now laid out right fails
# until its line is removed (to take a file off: clang-format -i FILE, remove its line).
# tests/data and fuzz/corpus hold planted and generated input and are not read. Run by scripts/lint.sh --all (so by .ci/run):
#   cmake -DROOT=<source tree> -DALLOWLIST=<file> [-DCLANG_FORMAT=<program>] -P check_format.cmake
# ALLOWLIST: the files pending, one path per line, # comments.

cmake_minimum_required(VERSION 3.22)
if(NOT ROOT OR NOT ALLOWLIST)
  message(FATAL_ERROR "usage: cmake -DROOT=<dir> -DALLOWLIST=<file> -P check_format.cmake")
endif()
if(NOT CLANG_FORMAT)
  find_program(CLANG_FORMAT NAMES clang-format)
endif()
if(NOT CLANG_FORMAT)
  message(FATAL_ERROR "format: clang-format is missing (sudo bash scripts/setup.sh)")
endif()

set(globs "")
foreach(folder sim src ui bench tests fuzz)
  list(APPEND globs ${ROOT}/${folder}/*.h ${ROOT}/${folder}/*.cpp)
endforeach()
file(GLOB_RECURSE files RELATIVE ${ROOT} ${globs})
list(FILTER files EXCLUDE REGEX "^(tests/data|fuzz/corpus)/")
list(SORT files)

set(pending "")
file(STRINGS ${ALLOWLIST} entries)
foreach(entry IN LISTS entries)
  string(STRIP "${entry}" entry)
  if(entry STREQUAL "" OR entry MATCHES "^#")
    continue()
  endif()
  list(APPEND pending "${entry}")
endforeach()

# One clang-format for every file (one process per file took 69 CPU-s for 454 files, most
# of it starting processes; one for all takes about 3): it names each file that differs in
# its "FILE:LINE:COL: error:" lines.
execute_process(COMMAND ${CLANG_FORMAT} --dry-run -Werror ${files}
                WORKING_DIRECTORY ${ROOT} RESULT_VARIABLE status OUTPUT_QUIET
                ERROR_VARIABLE report)
string(REGEX MATCHALL "(^|\n)[^\n:]+:[0-9]+:[0-9]+: error:" findings "${report}")
set(differing "")
foreach(finding IN LISTS findings)
  string(REGEX REPLACE "^\n?([^\n:]+):[0-9]+:[0-9]+: error:$" "\\1" path "${finding}")
  list(APPEND differing "${path}")
endforeach()
list(REMOVE_DUPLICATES differing)
if(NOT status EQUAL 0 AND differing STREQUAL "")
  message(FATAL_ERROR "format: ${CLANG_FORMAT} failed and named no file:\n${report}")
endif()

set(violations 0)
foreach(file IN LISTS files)
  if(file IN_LIST differing)
    set(differs 1)
  else()
    set(differs 0)
  endif()
  if(file IN_LIST pending)
    if(differs EQUAL 0)
      message("format: ${file} is laid out as .clang-format says: remove it from ${ALLOWLIST}")
      math(EXPR violations "${violations} + 1")
    endif()
  elseif(NOT differs EQUAL 0)
    message("format: ${file} differs from .clang-format (clang-format -i ${file} lays it out)")
    math(EXPR violations "${violations} + 1")
  endif()
endforeach()
foreach(file IN LISTS pending)
  if(NOT file IN_LIST files)
    message("format: ${file} is listed in ${ALLOWLIST} but is gone: remove its line")
    math(EXPR violations "${violations} + 1")
  endif()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "format: ${violations} finding(s)")
endif()
list(LENGTH files checked)
list(LENGTH pending left)
message(STATUS "format: ${checked} files laid out as .clang-format says, but the ${left} pending")
