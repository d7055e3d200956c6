# eosim_read_lines(<file> <out-var>): the file's lines as a CMake list, one element per
# line, for the tree checks that report findings by line number (check_determinism.cmake,
# check_kernel_words.cmake). The list separator and square brackets, which would join or
# split elements, become ',' '{' '}': none of what the checks look for.

function(eosim_read_lines file out_var)
  file(READ "${file}" text)
  string(REPLACE ";" "," text "${text}")
  string(REPLACE "[" "{" text "${text}")
  string(REPLACE "]" "}" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()
