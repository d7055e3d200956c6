#pragma once
// A PNG of what OpenGL just drew (the back buffer, before the swap). Needs a current
// OpenGL context; only the eosim-gui executable links it.

#include <string>

#include "src/status/status.h"

namespace ui {

// An error when the pixels cannot be read or the file cannot be written. The file is
// written as every output file is (src/files/output_file.h): complete or not at all, an
// existing one replaced only with `force`.
eosim::Status write_screenshot(const std::string& path, int width, int height, bool force);

}  // namespace ui
