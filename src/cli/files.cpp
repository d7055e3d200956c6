// Safe output files for the commands (see files.h). POSIX calls rather than
// std::filesystem where the distinction matters: O_EXCL and link() refuse an existing file
// atomically, and errno gives the reason a user can act on.

#include "src/cli/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace cli {
namespace {

namespace fs = std::filesystem;

std::string reason(int error_number) { return std::strerror(error_number); }

std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

// What kind of thing sits at `path`, for "X is a folder" style messages.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Writes all of `text` to `fd`; false with errno set on failure.
bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
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

}  // namespace

eosim::Status check_output_file(const std::string& path, const std::string& input, bool force) {
  if (path.empty()) return eosim::Status::success();
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    std::error_code ec;
    if (!input.empty() && fs::equivalent(path, input, ec)) {
      return eosim::Status::error(path +
                                  ": this is the input file; write the result to another file");
    }
    if (!S_ISREG(st.st_mode)) {
      return eosim::Status::error(path + ": cannot write the output there: it is " +
                                  kind_of(st.st_mode));
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

eosim::Status write_output_file(const std::string& path, const std::string& text, bool force) {
  std::string temp;
  const int fd = make_temporary(folder_of(path), temp);
  if (fd < 0) {
    return eosim::Status::error(path + ": cannot create a file in " + folder_of(path) + ": " +
                                reason(errno));
  }
  give_usual_mode(fd);
  bool ok = write_all(fd, text);
  int saved = errno;
  if (::close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  // Without --force, link() puts the file in place only if the name is still free.
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

eosim::Status prepare_keep_db_dir(const std::string& dir, const std::vector<std::string>& names,
                                  bool force) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir, ec)) {
    return eosim::Status::error(dir + ": cannot use it as the --keep-db folder: " +
                                (ec ? ec.message() : std::string("it exists and is not a folder")));
  }
  std::vector<std::string> existing;
  for (const auto& name : names) {
    for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
      const std::string path = (fs::path(dir) / (name + suffix)).string();
      struct stat st {};
      if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) continue;
        return eosim::Status::error(path + ": cannot check it: " + reason(errno));
      }
      if (!S_ISREG(st.st_mode)) {
        return eosim::Status::error(
            path + ": is " + kind_of(st.st_mode) +
            " where the run's database file belongs; choose another --keep-db folder");
      }
      existing.push_back(path);
    }
  }
  if (!existing.empty() && !force) {
    std::string error = dir + ": holds files this run would replace:";
    for (const auto& path : existing) error += " " + fs::path(path).filename().string();
    error += "; add --force to replace them, or choose another --keep-db folder";
    return eosim::Status::error(std::move(error));
  }
  for (const auto& path : existing) {
    if (::unlink(path.c_str()) != 0) {
      return eosim::Status::error(path + ": cannot remove it: " + reason(errno));
    }
  }
  for (const auto& name : names) {
    const std::string path = (fs::path(dir) / name).string();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      return eosim::Status::error(path + ": cannot create the database file: " + reason(errno));
    }
    ::close(fd);
  }
  return eosim::Status::success();
}

}  // namespace cli
