#pragma once
// A tiny Chrome DevTools Protocol client for the browser tests: it starts headless
// Chromium with --remote-debugging-pipe (the protocol as NUL-terminated JSON messages on
// the child's file descriptors 3 and 4: no port, no WebSocket, nothing on the network),
// opens one page and sends it commands. Enough to load a file, run a script in it, press
// keys, click and take a screenshot; not a general client.
//
// Invariants:
//  (1) One page (a target attached with flatten=true); every page command goes to it.
//  (2) call() returns the answer to its own command; events that arrive meanwhile are
//      kept in events() in arrival order.
//  (3) The browser is started with a fresh profile and the flags that keep it off the
//      network (no background networking, component updates, sync or QUIC), and is
//      stopped, by its pid, when the Browser goes.

#include <sys/types.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cdp {

class Browser {
 public:
  Browser() = default;
  Browser(const Browser&) = delete;
  Browser& operator=(const Browser&) = delete;
  ~Browser();

  // Starts `executable` with profile `profile_dir` and opens a blank page. "" on
  // success, else what went wrong.
  std::string start(const std::string& executable, const std::string& profile_dir);

  // Sends `method` to the page (or, with page=false, to the browser) and waits for its
  // answer, at most `timeout_ms`. The answer's "result", or {"error": ...}.
  nlohmann::json call(const std::string& method, const nlohmann::json& params = nlohmann::json::object(),
                      bool page = true, int timeout_ms = 20000);
  // Waits for an event named `method` from the page (one already received counts once).
  bool wait_event(const std::string& method, int timeout_ms = 20000);
  const std::vector<nlohmann::json>& events() const { return events_; }

  // Conveniences over call().
  nlohmann::json evaluate(const std::string& expression);  // the value, by value
  void resize(int width, int height, bool mobile);
  bool open(const std::string& url);  // navigates and waits for the load event
  void press(const std::string& key, int key_code);
  void click(double x, double y);
  std::string screenshot_png();  // the PNG's bytes

 private:
  bool send(const nlohmann::json& message);
  bool receive(nlohmann::json& message, int timeout_ms);

  pid_t pid_ = -1;
  int to_browser_ = -1, from_browser_ = -1;
  std::string buffer_, session_;
  int next_id_ = 1;
  std::vector<nlohmann::json> events_;
  std::size_t events_seen_ = 0;
};

std::string base64_decode(const std::string& text);

}  // namespace cdp
