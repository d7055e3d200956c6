#include "ui/screenshot.h"

#include <GLFW/glfw3.h>  // brings the system's OpenGL 1.x declarations
#include <stb_image_write.h>

#include <cstring>
#include <string>
#include <vector>

#include "src/files/output_file.h"

namespace ui {

eosim::Status write_screenshot(const std::string& path, int width, int height, bool force) {
  if (width <= 0 || height <= 0) {
    return eosim::Status::error("the window has no pixels to save");
  }
  const auto w = static_cast<std::size_t>(width), h = static_cast<std::size_t>(height);
  std::vector<unsigned char> pixels(w * h * 3);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  if (glGetError() != GL_NO_ERROR) {
    return eosim::Status::error("glReadPixels failed");
  }
  // OpenGL's rows go bottom-up; PNG's top-down.
  std::vector<unsigned char> row(w * 3);
  for (std::size_t y = 0; y < h / 2; ++y) {
    unsigned char* top = pixels.data() + y * w * 3;
    unsigned char* bottom = pixels.data() + (h - 1 - y) * w * 3;
    std::memcpy(row.data(), top, w * 3);
    std::memcpy(top, bottom, w * 3);
    std::memcpy(bottom, row.data(), w * 3);
  }
  // Encoded in memory, then written whole: stb's own file writing checked no write.
  std::string png;
  const auto append = [](void* out, void* data, int size) {
    static_cast<std::string*>(out)->append(static_cast<const char*>(data),
                                           static_cast<std::size_t>(size));
  };
  if (stbi_write_png_to_func(append, &png, width, height, 3, pixels.data(), width * 3) == 0) {
    return eosim::Status::error(path + ": cannot encode the PNG");
  }
  return files::write_output_file(path, png, force);
}

}  // namespace ui
