#include "src/store/remote.h"

#include <atomic>
#include <cctype>
#include <regex>

namespace store {

namespace {

std::atomic<RemoteOpener> g_opener{nullptr};

bool starts_with_word(std::string_view text, std::string_view word) {
  if (text.size() < word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(text[i])) != word[i]) return false;
  }
  return text.size() == word.size() || std::isspace(static_cast<unsigned char>(text[word.size()]));
}

// The rewrites of SQL outside quotes and comments. Each is whole words: a column name
// that contains INTEGER is not touched.
std::string rewrite_code(std::string code, bool& or_ignore) {
  static const std::regex kParam(R"(\?([0-9]+))");
  static const std::regex kOrIgnore(R"(\bINSERT\s+OR\s+IGNORE\s+INTO\b)", std::regex::icase);
  static const std::regex kSerial(R"(\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b)",
                                  std::regex::icase);
  static const std::regex kInteger(R"(\bINTEGER\b)", std::regex::icase);
  code = std::regex_replace(code, kParam, "$$$1");
  if (std::regex_search(code, kOrIgnore)) {
    or_ignore = true;
    code = std::regex_replace(code, kOrIgnore, "INSERT INTO");
  }
  code = std::regex_replace(code, kSerial, "BIGSERIAL PRIMARY KEY");
  return std::regex_replace(code, kInteger, "BIGINT");
}

}  // namespace

void set_remote_opener(RemoteOpener opener) { g_opener.store(opener); }
RemoteOpener remote_opener() { return g_opener.load(); }

bool is_remote_uri(std::string_view uri) {
  return uri.starts_with("postgres://") || uri.starts_with("postgresql://") ||
         uri.starts_with("redis://");
}

std::string RemoteConn::dialect(std::string_view sqlite_sql) const {
  return postgres_sql(sqlite_sql);
}

Status RemoteConn::stage_conflict(Conflict, const std::string&) {
  return Status::error(SQLITE_MISUSE, "this server stages no competing transaction");
}

std::string postgres_sql(std::string_view sqlite_sql) {
  std::string_view text = sqlite_sql;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  if (starts_with_word(text, "PRAGMA")) return "";
  // SQLite's lock modes; a PostgreSQL transaction locks rows as it writes them.
  for (const char* begin : {"BEGIN IMMEDIATE", "BEGIN DEFERRED", "BEGIN EXCLUSIVE"}) {
    if (starts_with_word(text, begin)) return "BEGIN";
  }
  // Quoted text ('...', "...") and comments (-- to the end of the line) pass unchanged.
  std::string out;
  std::string code;
  bool or_ignore = false;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    std::size_t end = i;
    if (c == '\'' || c == '"') {
      end = text.find(c, i + 1);
      end = end == std::string_view::npos ? text.size() : end + 1;
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '-') {
      end = text.find('\n', i);
      end = end == std::string_view::npos ? text.size() : end;
    } else {
      code += c;
      ++i;
      continue;
    }
    out += rewrite_code(std::move(code), or_ignore);
    code.clear();
    out.append(text.substr(i, end - i));
    i = end;
  }
  out += rewrite_code(std::move(code), or_ignore);
  if (or_ignore) {
    while (!out.empty() &&
           (std::isspace(static_cast<unsigned char>(out.back())) || out.back() == ';')) {
      out.pop_back();
    }
    out += " ON CONFLICT DO NOTHING";
  }
  return out;
}

}  // namespace store
