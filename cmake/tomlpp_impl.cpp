// toml++'s implementation, compiled once into eosim_tomlpp for the sanitizer and fuzz
// builds (see CMakeLists.txt): every other file includes <toml++/toml.h> with
// TOML_HEADER_ONLY=0 and links this.
#define TOML_IMPLEMENTATION 1
#include <toml++/toml.h>
