#pragma once
// A fresh directory for one test, with a name no other process has (mkdtemp), removed with
// everything in it when the test ends, passed or not. Tests write their files here rather
// than at a fixed path under /tmp, so two test runs on one machine (two worktrees running
// ctest at once) never read or delete each other's files.

#include <stdlib.h>

#include <cstdlib>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <system_error>

namespace test_support {

struct TempDir {
  std::filesystem::path path;

  // `tag` goes into the name (eosim-TAG-XXXXXX), to tell leftovers apart.
  explicit TempDir(const std::string& tag = "test") {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("eosim-" + tag + "-XXXXXX")).string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    // A test may have taken the write permission away to provoke an error.
    std::filesystem::permissions(path, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // The path of `name` inside the directory.
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

// Points TMPDIR at `dir` for its life (where store::TempDir makes a run's folder).
class TmpdirAt {
 public:
  explicit TmpdirAt(const std::string& dir) {
    const char* old = std::getenv("TMPDIR");
    if (old != nullptr) old_ = old;
    had_ = old != nullptr;
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  ~TmpdirAt() {
    if (had_) ::setenv("TMPDIR", old_.c_str(), 1); else ::unsetenv("TMPDIR");
  }

 private:
  std::string old_;
  bool had_ = false;
};

}  // namespace test_support
