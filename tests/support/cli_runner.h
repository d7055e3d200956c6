#pragma once
// Runs the built `eosim` binary the way a user does (through the shell) and captures what
// it prints and its exit code. Shared by every test that drives the command line.
// REQUIRES: the compile definition EOSIM_BINARY (the path of the built eosim).

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

namespace cli_runner {

struct Output {
  int exit_code = -1;
  std::string text;
};

// Single-quotes `text` for the shell.
inline std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs the shell command line `command` and captures its standard output.
inline Output run_shell(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  Output out;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.text.append(buffer, n);
  const int status = pclose(pipe);
  out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// Runs `PREFIX eosim ARGS STREAMS`; `streams` is the shell redirection of stderr ("2>&1":
// both streams, "2>/dev/null": stdout only, "": stderr to the terminal); `prefix` is shell
// text before the command (e.g. "(ulimit -v N; " with streams "2>&1)").
inline Output run(const std::string& args, const std::string& streams,
                  const std::string& prefix = "") {
  return run_shell(prefix + quoted(EOSIM_BINARY) + " " + args + " " + streams);
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// `eosim ARGS` with stderr folded into the text.
inline Output eosim(const std::string& args) { return run(args, "2>&1"); }

// The path of scenarios/NAME in the source tree, shell-quoted.
inline std::string scenario_arg(const std::string& name) {
  return quoted(std::string(EOSIM_SOURCE_DIR) + "/scenarios/" + name);
}

}  // namespace cli_runner
