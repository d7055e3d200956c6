#include "src/live/endpoint.h"

#include <cctype>

namespace live {

namespace {

std::string url_with(const Endpoint& e, const std::string& password) {
  const std::string v = e.vhost == "/" ? "%2f" : e.vhost;
  return "amqp://" + e.user + ":" + password + "@" + e.host + ":" + std::to_string(e.port) + "/" +
         v;
}

}  // namespace

std::string Endpoint::url() const { return url_with(*this, "***"); }

std::string Endpoint::login_url() const { return url_with(*this, password); }

namespace {

std::string percent_decode(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && std::isxdigit(text[i + 1]) &&
        std::isxdigit(text[i + 2])) {
      out.push_back(static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

}  // namespace

std::string redacted_url(const std::string& url) {
  const auto scheme = url.find("://");
  const std::size_t from = scheme == std::string::npos ? 0 : scheme + 3;
  const auto at = url.rfind('@');
  if (at == std::string::npos || at < from) return url;
  const auto colon = url.find(':', from);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

Status parse_amqp_url(const std::string& url, Endpoint& out) {
  const std::string scheme = "amqp://";
  const std::string shown = redacted_url(url);  // errors never echo a password
  if (url.rfind(scheme, 0) != 0) {
    return Status::error("AMQP URL `" + shown + "`: must start with amqp://");
  }
  Endpoint e;
  std::string rest = url.substr(scheme.size());
  if (const auto slash = rest.find('/'); slash != std::string::npos) {
    if (slash + 1 < rest.size()) e.vhost = percent_decode(rest.substr(slash + 1));
    rest = rest.substr(0, slash);
  }
  if (const auto at = rest.rfind('@'); at != std::string::npos) {
    const std::string credentials = rest.substr(0, at);
    rest = rest.substr(at + 1);
    const auto colon = credentials.find(':');
    e.user = percent_decode(credentials.substr(0, colon));
    if (colon != std::string::npos) e.password = percent_decode(credentials.substr(colon + 1));
  }
  if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
    const std::string port = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
    if (port.empty() || port.size() > 5 ||
        port.find_first_not_of("0123456789") != std::string::npos || std::stoi(port) == 0 ||
        std::stoi(port) > 65535) {
      return Status::error("AMQP URL `" + shown + "`: port `" + port + "` is not 1..65535");
    }
    e.port = std::stoi(port);
  }
  if (rest.empty()) return Status::error("AMQP URL `" + shown + "`: no host");
  e.host = rest;
  out = e;
  return Status::success();
}

}  // namespace live
