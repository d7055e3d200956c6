# The function-length ratchet: no function of sim/, src/, ui/ or bench/ is longer than
# LIMIT (70) lines, from the line that names it to its closing brace, except those listed
# in ALLOWLIST, and those only as long as they are listed. The list can only shrink: a
# listed function that grew fails, and so does one that shrank or went without its entry
# being lowered or removed. Lambdas count as part of the function they are written in.
# Run by ctest (and so by .ci/run); needs Universal Ctags (scripts/setup.sh installs it):
#   cmake -DROOT=<source tree> -DALLOWLIST=<file> -P check_function_length.cmake
# ALLOWLIST: one "path function lines" per line, # comments; overloads of one name in one
# file share an entry (the longest counts).

cmake_minimum_required(VERSION 3.22)
if(NOT ROOT OR NOT ALLOWLIST)
  message(FATAL_ERROR "usage: cmake -DROOT=<dir> -DALLOWLIST=<file> -P check_function_length.cmake")
endif()
set(LIMIT 70)
find_program(CTAGS NAMES ctags-universal universal-ctags ctags)
if(NOT CTAGS)
  message(FATAL_ERROR "function-length: Universal Ctags is missing (sudo bash scripts/setup.sh)")
endif()

file(GLOB_RECURSE files RELATIVE ${ROOT} ${ROOT}/sim/*.h ${ROOT}/sim/*.cpp ${ROOT}/src/*.h
     ${ROOT}/src/*.cpp ${ROOT}/ui/*.h ${ROOT}/ui/*.cpp ${ROOT}/bench/*.h ${ROOT}/bench/*.cpp)
list(SORT files)
execute_process(COMMAND ${CTAGS} -x --_xformat=%{input}|%{line}|%{end}|%{name}
                        --kinds-C++=f --language-force=C++ -o - ${files}
                WORKING_DIRECTORY ${ROOT} RESULT_VARIABLE result OUTPUT_VARIABLE tags
                ERROR_VARIABLE tag_errors)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "function-length: ${CTAGS} failed: ${tag_errors}")
endif()
string(REPLACE ";" "," tags "${tags}")
string(REPLACE "\n" ";" tags "${tags}")

# The longest length per "path|name" (lambdas, named __anon... by ctags, are skipped).
set(keys "")
foreach(tag IN LISTS tags)
  if(NOT tag MATCHES "^([^|]+)\\|([0-9]+)\\|([0-9]+)\\|(.+)$")
    continue()
  endif()
  set(path "${CMAKE_MATCH_1}")
  set(start "${CMAKE_MATCH_2}")
  set(name "${CMAKE_MATCH_4}")
  math(EXPR lines "${CMAKE_MATCH_3} - ${CMAKE_MATCH_2} + 1")
  if(name MATCHES "^__anon")
    continue()
  endif()
  string(MAKE_C_IDENTIFIER "${path}|${name}" id)
  if(NOT DEFINED length_${id} OR lines GREATER length_${id})
    set(length_${id} ${lines})
    set(where_${id} "${path}:${start}")
  endif()
  list(APPEND keys "${path}|${name}")
endforeach()
list(REMOVE_DUPLICATES keys)

set(violations 0)
set(listed "")
file(STRINGS ${ALLOWLIST} entries)
foreach(entry IN LISTS entries)
  if(entry MATCHES "^[ \t]*(#|$)")
    continue()
  endif()
  if(NOT entry MATCHES "^([^ \t]+)[ \t]+([^ \t]+)[ \t]+([0-9]+)[ \t]*$")
    message("function-length: ${ALLOWLIST}: cannot read \"${entry}\" (path function lines)")
    math(EXPR violations "${violations} + 1")
    continue()
  endif()
  set(key "${CMAKE_MATCH_1}|${CMAKE_MATCH_2}")
  set(allowed ${CMAKE_MATCH_3})
  list(APPEND listed "${key}")
  string(MAKE_C_IDENTIFIER "${key}" id)
  if(NOT DEFINED length_${id} OR length_${id} LESS_EQUAL LIMIT)
    message("function-length: ${CMAKE_MATCH_1} ${CMAKE_MATCH_2} is listed but is no longer "
            "over ${LIMIT} lines: remove its line from the allowlist")
    math(EXPR violations "${violations} + 1")
  elseif(length_${id} GREATER allowed)
    message("function-length: ${where_${id}}: ${CMAKE_MATCH_2} grew to ${length_${id}} lines "
            "(allowed ${allowed}, and the list only shrinks): split it")
    math(EXPR violations "${violations} + 1")
  elseif(length_${id} LESS allowed)
    message("function-length: ${CMAKE_MATCH_1} ${CMAKE_MATCH_2} shrank to ${length_${id}} "
            "lines: lower its line in the allowlist to ${length_${id}}")
    math(EXPR violations "${violations} + 1")
  endif()
endforeach()

foreach(key IN LISTS keys)
  string(MAKE_C_IDENTIFIER "${key}" id)
  if(length_${id} GREATER LIMIT AND NOT key IN_LIST listed)
    string(REGEX REPLACE "^.*[|]" "" name "${key}")
    message("function-length: ${where_${id}}: ${name} has ${length_${id}} lines, over "
            "${LIMIT}: split it")
    math(EXPR violations "${violations} + 1")
  endif()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "function-length: ${violations} finding(s); the allowlist is ${ALLOWLIST}")
endif()
message(STATUS "function-length: every function is at most ${LIMIT} lines but the listed ones")
