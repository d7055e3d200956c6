# Fails when code names an enum's values by hand instead of through its name table. Every
# enum that becomes text is named one way (sim/named.h): one constexpr table of
# sim::Named<E> rows in the enum's order, looked up by sim::name_of and sim::value_named.
# A switch whose cases return string literals is the other way, and it is what this check
# finds:
#   case Kind::kBusy: return "busy";       (one line)
#   case Kind::kBusy:                      (the label alone,
#     return "busy";                        the literal on the next line)
# A case that builds text (`return "t=" + n;`), returns "" or anything else is not a name.
# Run by ctest:
#   cmake -DROOT=<source tree> -P check_enum_names.cmake
#
# KNOWN lists the switches that map an enum to text that is not its name, each as a file
# and why.

cmake_minimum_required(VERSION 3.22)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<dir> -P check_enum_names.cmake")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/read_lines.cmake)

set(KNOWN
  # The colour a diagram's tone is drawn in (SVG fill and stroke), not a name.
  "src/diagram/svg.cpp"
  # toml++'s node types (not ours to name), as the article and noun an error message says.
  "src/scenario/toml_reader.h"
  # The SQL statement that opens a transaction of each mode, not a name.
  "src/store/txn.cpp"
)

set(label "case[ \t]+[A-Za-z_][A-Za-z0-9_:]*::k[A-Za-z0-9_]*[ \t]*:")
# Semicolons are commas here: the file is read as a list of lines.
set(literal "return[ \t]+\"[^\"]+\"[ \t]*,")

set(violations 0)
file(GLOB_RECURSE files RELATIVE ${ROOT} ${ROOT}/src/*.h ${ROOT}/src/*.cpp ${ROOT}/sim/*.h
     ${ROOT}/sim/*.cpp ${ROOT}/ui/*.h ${ROOT}/ui/*.cpp)
list(SORT files)
foreach(file IN LISTS files)
  list(FIND KNOWN "${file}" known)
  if(NOT known EQUAL -1)
    continue()
  endif()
  file(READ ${ROOT}/${file} text)
  if(NOT text MATCHES "case[ \t]")
    continue()
  endif()
  eosim_text_lines("${text}" lines)
  set(number 0)
  set(bare_label FALSE)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(line MATCHES "${label}[ \t]*${literal}" OR
       (bare_label AND line MATCHES "^[ \t]*${literal}"))
      string(STRIP "${line}" shown)
      message("enum_names: ${file}:${number}: a switch names an enum by hand: ${shown}")
      math(EXPR violations "${violations} + 1")
    endif()
    if(line MATCHES "${label}[ \t]*(//.*)?$")
      set(bare_label TRUE)
    else()
      set(bare_label FALSE)
    endif()
  endforeach()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "enum_names: ${violations} case(s) name an enum's values by hand: give "
                      "the enum one sim::Named table (sim/named.h, docs/style.md) and call "
                      "sim::name_of")
endif()
message(STATUS "enum_names: every enum in ${ROOT} is named by its table")
