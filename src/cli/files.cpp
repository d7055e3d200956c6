// --keep-db folders (see files.h). POSIX calls rather than std::filesystem where the
// distinction matters: lstat sees a link as a link, O_EXCL refuses an existing file
// atomically, and errno gives the reason a user can act on.

#include "src/cli/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "src/files/data_dir.h"
#include "src/scenario/scenario.h"

namespace cli {
namespace {

namespace fs = std::filesystem;

std::string reason(int error_number) { return std::strerror(error_number); }

}  // namespace

std::string unique_folder_name(const std::string& stem, std::set<std::string>& used) {
  const std::string base = stem.empty() ? "run" : stem;
  std::string name = base;
  for (int n = 2; used.count(name) != 0; ++n) name = base + "-" + std::to_string(n);
  used.insert(name);
  return name;
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
            path + ": is " + files::kind_of(st.st_mode) +
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

eosim::Status data_files(const std::string& given, const std::string& sub, std::string& dir,
                         std::vector<std::string>& files) {
  eosim::Result<std::string> found = ::files::scenarios_dir_or_found(given, sub);
  if (!found.ok()) return found.status();
  dir = found.value();
  return lab::scenario_files_in(dir, files);
}

}  // namespace cli
