// The DevTools client over a pipe (see cdp.h).
#include "tests/browser/cdp.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

namespace cdp {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

}  // namespace

std::string base64_decode(const std::string& text) {
  std::string out;
  unsigned value = 0;
  int bits = 0;
  for (const char c : text) {
    int digit = -1;
    if (c >= 'A' && c <= 'Z') digit = c - 'A';
    if (c >= 'a' && c <= 'z') digit = c - 'a' + 26;
    if (c >= '0' && c <= '9') digit = c - '0' + 52;
    if (c == '+') digit = 62;
    if (c == '/') digit = 63;
    if (digit < 0) continue;  // '=' padding, line breaks
    value = (value << 6) | static_cast<unsigned>(digit);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((value >> bits) & 0xFF);
    }
  }
  return out;
}

Browser::~Browser() {
  if (pid_ > 0) {
    json close = {{"id", next_id_++}, {"method", "Browser.close"}};
    send(close);
    for (int i = 0; i < 50; ++i) {  // up to 5 s to close by itself, then it is killed
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      usleep(100000);
    }
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  if (to_browser_ >= 0) close(to_browser_);
  if (from_browser_ >= 0) close(from_browser_);
}

std::string Browser::start(const std::string& executable, const std::string& profile_dir) {
  int commands[2], answers[2];
  if (pipe(commands) != 0 || pipe(answers) != 0) return "pipe failed";
  const std::string profile = "--user-data-dir=" + profile_dir;
  pid_ = fork();
  if (pid_ < 0) return "fork failed";
  if (pid_ == 0) {
    // The child: the protocol on fds 3 (commands in) and 4 (answers out).
    dup2(commands[0], 3);
    dup2(answers[1], 4);
    for (int fd : {commands[0], commands[1], answers[0], answers[1]}) {
      if (fd > 4) close(fd);
    }
    const int null = ::open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    const char* args[] = {executable.c_str(), "--headless", "--no-sandbox", "--disable-gpu",
                          "--disable-quic", "--no-first-run", "--disable-background-networking",
                          "--disable-component-update", "--disable-sync",
                          // No --hide-scrollbars: a laptop's browser shows classic
                          // scrollbars, which take room a page must leave for them.
                          "--disable-extensions", "--mute-audio",
                          profile.c_str(), "--remote-debugging-pipe", "about:blank", nullptr};
    execvp(args[0], const_cast<char* const*>(args));
    _exit(127);
  }
  close(commands[0]);
  close(answers[1]);
  to_browser_ = commands[1];
  from_browser_ = answers[0];
  const json created = call("Target.createTarget", {{"url", "about:blank"}}, false);
  if (!created.contains("targetId")) return "no page: " + created.dump();
  const json attached = call("Target.attachToTarget",
                             {{"targetId", created["targetId"]}, {"flatten", true}}, false);
  if (!attached.contains("sessionId")) return "cannot attach: " + attached.dump();
  session_ = attached["sessionId"].get<std::string>();
  call("Page.enable");
  call("Runtime.enable");
  return "";
}

bool Browser::send(const json& message) {
  const std::string text = message.dump() + '\0';
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(to_browser_, text.data() + done, text.size() - done);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool Browser::receive(json& message, int timeout_ms) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    const std::size_t end = buffer_.find('\0');
    if (end != std::string::npos) {
      message = json::parse(buffer_.substr(0, end), nullptr, false);
      buffer_.erase(0, end + 1);
      return !message.is_discarded();
    }
    pollfd p{from_browser_, POLLIN, 0};
    if (poll(&p, 1, remaining_ms(deadline)) <= 0) return false;
    char chunk[65536];
    const ssize_t n = read(from_browser_, chunk, sizeof chunk);
    if (n <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

json Browser::call(const std::string& method, const json& params, bool page, int timeout_ms) {
  const int id = next_id_++;
  json message = {{"id", id}, {"method", method}, {"params", params}};
  if (page) message["sessionId"] = session_;
  if (!send(message)) return {{"error", "cannot write to the browser"}};
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  json answer;
  while (receive(answer, remaining_ms(deadline))) {
    if (answer.contains("id") && answer["id"] == id) {
      if (answer.contains("error")) return {{"error", answer["error"]}};
      return answer.value("result", json::object());
    }
    if (answer.contains("method")) events_.push_back(answer);
  }
  return {{"error", "no answer to " + method}};
}

bool Browser::wait_event(const std::string& method, int timeout_ms) {
  const Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    for (; events_seen_ < events_.size(); ++events_seen_) {
      if (events_[events_seen_].value("method", "") == method) {
        ++events_seen_;
        return true;
      }
    }
    json message;
    if (!receive(message, remaining_ms(deadline))) return false;
    if (message.contains("method")) events_.push_back(message);
  }
}

json Browser::evaluate(const std::string& expression) {
  const json result = call("Runtime.evaluate", {{"expression", expression},
                                                {"returnByValue", true},
                                                {"awaitPromise", true}});
  if (result.contains("exceptionDetails")) return {{"exception", result["exceptionDetails"]}};
  if (!result.contains("result")) return result;
  return result["result"].value("value", json());
}

void Browser::resize(int width, int height, bool mobile) {
  call("Emulation.setDeviceMetricsOverride", {{"width", width}, {"height", height},
                                              {"deviceScaleFactor", 1}, {"mobile", mobile}});
}

bool Browser::open(const std::string& url) {
  events_seen_ = events_.size();  // a load event from an earlier page does not count
  const json navigated = call("Page.navigate", {{"url", url}});
  if (navigated.contains("error") || navigated.contains("errorText")) return false;
  return wait_event("Page.loadEventFired");
}

void Browser::press(const std::string& key, int key_code) {
  for (const char* type : {"keyDown", "keyUp"}) {
    call("Input.dispatchKeyEvent", {{"type", type}, {"key", key}, {"code", key},
                                    {"windowsVirtualKeyCode", key_code}});
  }
}

void Browser::click(double x, double y) {
  for (const char* type : {"mousePressed", "mouseReleased"}) {
    call("Input.dispatchMouseEvent", {{"type", type}, {"x", x}, {"y", y}, {"button", "left"},
                                      {"clickCount", 1}});
  }
}

std::string Browser::screenshot_png() {
  const json shot = call("Page.captureScreenshot", {{"format", "png"}});
  return base64_decode(shot.value("data", ""));
}

}  // namespace cdp
