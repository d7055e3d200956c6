// read_input_file (input_file.h): open without blocking, fstat, then read at most the cap.

#include "src/files/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace files {

namespace {

std::string too_big(const InputLimit& limit) {
  return "is larger than " + std::to_string(limit.max_bytes >> 20) + " MiB; " + limit.why_enough;
}

// Why `st` is not a file to read, or "".
std::string refusal(const struct stat& st, const InputLimit& limit) {
  if (S_ISDIR(st.st_mode)) return std::string("is a folder, not a ") + limit.noun;
  if (!S_ISREG(st.st_mode)) {
    return std::string("is not a regular file (a FIFO, device or socket); eosim reads ") +
           limit.noun + "s";
  }
  if (st.st_size > limit.max_bytes) return too_big(limit);
  return "";
}

}  // namespace

eosim::Status read_input_file(const std::string& path, const InputLimit& limit, std::string& text) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    return eosim::Status::error(std::string("cannot open the file: ") + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int saved = errno;
    ::close(fd);
    return eosim::Status::error(std::string("cannot read the file: ") + std::strerror(saved));
  }
  if (const std::string refused = refusal(st, limit); !refused.empty()) {
    ::close(fd);
    return eosim::Status::error(refused);
  }
  // Read at most one byte past the cap, in case the file grew after fstat.
  const auto cap = static_cast<std::size_t>(limit.max_bytes) + 1;
  std::string buffer(std::min(cap, static_cast<std::size_t>(st.st_size) + 1), '\0');
  std::size_t size = 0;
  int read_errno = 0;
  while (size < cap) {
    if (size == buffer.size()) buffer.resize(std::min(cap, buffer.size() * 2));
    const ssize_t n = ::read(fd, buffer.data() + size, buffer.size() - size);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      if (n < 0) read_errno = errno;
      break;
    }
    size += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (read_errno != 0) {
    return eosim::Status::error(std::string("cannot read the file: ") + std::strerror(read_errno));
  }
  if (size > static_cast<std::size_t>(limit.max_bytes)) return eosim::Status::error(too_big(limit));
  buffer.resize(size);
  text = std::move(buffer);
  return eosim::Status::success();
}

}  // namespace files
