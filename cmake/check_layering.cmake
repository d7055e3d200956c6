# Fails when a file of an eosim library includes a header from a folder its library may not
# use. Run by the build (target eosim_layering) and by ctest:
#   cmake -DROOT=<source tree> -DRULES=<build>/layering_rules.cmake -P check_layering.cmake
# RULES comes from eosim_layering_check() in EosimLayers.cmake: each library's folder and
# the folders it may include (its direct USES: an include needs its own USES line). Only quoted includes with a folder ("src/store/db.h") are
# library includes; one whose folder is no library (say, a folder that was moved away) is
# reported too, since it can only be stale.

cmake_minimum_required(VERSION 3.22)  # IN_LIST, list(POP_FRONT)
if(NOT ROOT OR NOT RULES)
  message(FATAL_ERROR "usage: cmake -DROOT=<dir> -DRULES=<file> -P check_layering.cmake")
endif()
include(${RULES})

set(violations 0)
foreach(layer IN LISTS EOSIM_LAYERS)
  set(folder "${EOSIM_LAYER_${layer}_FOLDER}")
  if(NOT folder)
    continue()
  endif()
  set(allowed ${EOSIM_LAYER_${layer}_ALLOWED})
  file(GLOB files ${ROOT}/${folder}/*.h ${ROOT}/${folder}/*.cpp)
  list(SORT files)
  foreach(file IN LISTS files)
    file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]*/[^\"]*\"")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[^\"]*\"([^\"]*)\".*$" "\\1" header "${line}")
      get_filename_component(header_folder "${header}" DIRECTORY)
      file(RELATIVE_PATH shown ${ROOT} ${file})
      if(NOT header_folder IN_LIST EOSIM_LAYER_FOLDERS)
        message("layering: ${shown} includes \"${header}\": ${header_folder}/ is no library folder")
        math(EXPR violations "${violations} + 1")
      elseif(NOT header_folder IN_LIST allowed)
        string(REPLACE ";" " " allowed_text "${allowed}")
        message("layering: ${shown} includes \"${header}\", but ${folder}/ (${layer}) "
                "may use only: ${allowed_text}")
        math(EXPR violations "${violations} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "layering: ${violations} include(s) against the library direction; "
                      "see the USES lists in each folder's CMakeLists.txt")
endif()
