// Output files (output_file.h). POSIX calls rather than std::filesystem where the
// distinction matters: lstat sees a link as a link, O_EXCL and link() refuse an existing
// file atomically, and errno gives the reason a user can act on.

#include "src/files/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace files {

namespace {

namespace fs = std::filesystem;

std::string reason(int error_number) { return std::strerror(error_number); }

std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}


bool write_all(int fd, std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = ENOSPC;  // a write that makes no progress
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// A new file in `folder` that nobody else can have: "<folder>/.eosim-XXXXXX".
int make_temporary(const std::string& folder, std::string& temp_path) {
  std::string name = (fs::path(folder) / ".eosim-XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd >= 0) temp_path = name;
  return fd;
}

// mkstemp makes files private (0600); an output file gets the usual 0666 & ~umask.
void give_usual_mode(int fd) {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  (void)::fchmod(fd, 0666 & ~mask);  // cosmetic: the content is what matters
}

// Whether `path` names one of `inputs` (the same file, however it is spelled or linked).
bool is_an_input(const std::string& path, const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (!input.empty() && fs::equivalent(path, input, ec)) return true;
  }
  return false;
}

}  // namespace

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

bool output_exists(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0;
}

eosim::Status check_output_file(const std::string& path, const std::vector<std::string>& inputs,
                                bool force) {
  if (path.empty()) return eosim::Status::success();
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0) {
    struct stat target {};
    if (S_ISLNK(link.st_mode) && ::stat(path.c_str(), &target) != 0) {
      return eosim::Status::error(path + ": a symbolic link to a missing file; eosim does not "
                                         "write through it (remove the link or pick another name)");
    }
    if (is_an_input(path, inputs)) {
      return eosim::Status::error(path + ": this is the input file; write the result to another file");
    }
    const mode_t mode = S_ISLNK(link.st_mode) ? target.st_mode : link.st_mode;
    if (!S_ISREG(mode)) {
      return eosim::Status::error(path + ": cannot write the output there: it is " + kind_of(mode));
    }
    if (!force) {
      return eosim::Status::error(path + ": the file already exists; add --force to replace it");
    }
  } else if (errno != ENOENT) {
    return eosim::Status::error(path + ": cannot write the output there: " + reason(errno));
  }
  // Try the folder now rather than after a long search.
  std::string probe;
  const int fd = make_temporary(folder_of(path), probe);
  if (fd < 0) {
    return eosim::Status::error(path + ": cannot create a file in " + folder_of(path) + ": " +
                                reason(errno));
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return eosim::Status::success();
}

eosim::Status write_output_file(const std::string& path, std::string_view bytes, bool force) {
  std::string temp;
  const int fd = make_temporary(folder_of(path), temp);
  if (fd < 0) {
    return eosim::Status::error(path + ": cannot create a file in " + folder_of(path) + ": " +
                                reason(errno));
  }
  give_usual_mode(fd);
  bool ok = write_all(fd, bytes);
  int saved = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  // Without --force, link() puts the file in place only if the name is still free (a
  // dangling symlink counts as taken).
  const bool placed =
      ok && (force ? ::rename(temp.c_str(), path.c_str()) : ::link(temp.c_str(), path.c_str())) == 0;
  if (ok && !placed) {
    ok = false;
    saved = errno;
  }
  if (!(placed && force)) ::unlink(temp.c_str());
  if (!ok) {
    return eosim::Status::error(
        path + ": cannot write the output: " +
        (saved == EEXIST ? std::string("the file appeared meanwhile; add --force to replace it")
                         : reason(saved)));
  }
  return eosim::Status::success();
}

}  // namespace files
