# The lines of a file as a CMake list, one element per line, for the tree checks that
# report findings by line number (check_determinism.cmake, check_kernel_words.cmake,
# check_enum_names.cmake). The list separator and square brackets, which would join or
# split elements, become ',' '{' '}': none of what the checks look for.
#   eosim_text_lines(<text> <out-var>)   text already read
#   eosim_read_lines(<file> <out-var>)

function(eosim_text_lines text out_var)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "[" "{" text "${text}")
  string(REPLACE "]" "}" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()

function(eosim_read_lines file out_var)
  file(READ "${file}" text)
  eosim_text_lines("${text}" lines)
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()
