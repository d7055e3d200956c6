// lab::read_scenario_file: what is not a readable scenario file is refused with the reason,
// at once - never a hang on a FIFO, never memory growing on a device.

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "src/scenario/scenario.h"

namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("eosim-read-" + std::to_string(::getpid()));
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string refusal(const std::string& path) {
  std::string text;
  const eosim::Status refused = lab::read_scenario_file(path, text);
  CHECK_FALSE(refused.ok());
  return refused.message;
}

}  // namespace

TEST_CASE("scenario file: special files, loops and huge files are refused with the reason",
          "[scenario-file]") {
  TempDir tmp;
  CHECK(refusal("/dev/zero").find("not a regular file") != std::string::npos);
  const std::string fifo = (tmp.path / "fifo.toml").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(refusal(fifo).find("not a regular file") != std::string::npos);  // and no hang
  fs::create_symlink(tmp.path / "b", tmp.path / "a");
  fs::create_symlink(tmp.path / "a", tmp.path / "b");
  CHECK(refusal((tmp.path / "a").string()) ==
        "cannot open the file: Too many levels of symbolic links");
  CHECK(refusal((tmp.path / "missing.toml").string()) ==
        "cannot open the file: No such file or directory");
  CHECK(refusal(tmp.path.string()).find("is a folder") != std::string::npos);

  const std::string big = (tmp.path / "big.toml").string();
  std::ofstream(big) << std::string(static_cast<std::size_t>(lab::kMaxScenarioBytes) + 1, '#');
  CHECK(refusal(big).find("larger than 1 MiB") != std::string::npos);
  const std::string fits = (tmp.path / "fits.toml").string();
  std::ofstream(fits) << "name = \"x\"\n" << std::string(1000, '#');
  std::string text;
  CHECK(lab::read_scenario_file(fits, text).ok());
  CHECK(text.size() == 1011);
}
