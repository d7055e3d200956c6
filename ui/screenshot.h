#pragma once
// A PNG of what OpenGL just drew (the back buffer, before the swap). Needs a current
// OpenGL context; only the eosim-gui executable links it.

#include <string>

namespace ui {

// False with `error` when the pixels cannot be read or the file cannot be written.
bool write_screenshot(const std::string& path, int width, int height, std::string& error);

}  // namespace ui
