// `eosim course --html DIR`: the course as a static site (src/web/course_site.h), written
// into DIR. Every page is made before anything is written, and a file already in DIR that
// would change is replaced only with --force, so a failed run leaves DIR as it was and a
// user's own file is never lost.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "src/prose/printable.h"
#include "src/web/course_site.h"

namespace cli {
namespace {

namespace fs = std::filesystem;

// Whether `path` holds exactly `text`.
bool holds(const fs::path& path, const std::string& text) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream old;
  old << in.rdbuf();
  return in.good() || in.eof() ? old.str() == text : false;
}

}  // namespace

int course_site_command(const CourseSiteOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  if (const eosim::Status listed = lab::scenario_files_in(options.lessons, files); !listed.ok()) {
    err << "eosim: " << lab::printable(listed.message) << '\n';
    return kExitBadInput;
  }
  std::vector<lab::Lesson> lessons;
  for (const std::string& file : files) {
    eosim::Result<lab::Lesson> lesson = lab::load_lesson(file);
    if (!lesson.ok()) {
      err << lesson.message() << '\n';
      return kExitBadInput;
    }
    lessons.push_back(std::move(lesson.value()));
  }
  std::error_code ec;
  fs::create_directories(options.html, ec);
  if (ec || !fs::is_directory(options.html)) {
    err << "eosim: cannot make the folder " << options.html << ": " << ec.message() << '\n';
    return kExitBadInput;
  }
  std::vector<web::SitePage> pages;
  if (const eosim::Status made = web::course_site(lessons, pages); !made.ok()) {
    err << "eosim: internal error: " << lab::printable(made.message) << '\n';
    return kExitInternal;
  }
  std::vector<const web::SitePage*> changed;
  for (const web::SitePage& page : pages) {
    const fs::path path = fs::path(options.html) / page.name;
    if (fs::exists(path, ec) && holds(path, page.html)) continue;
    // A page that differs: the rules of every output file (src/files/output_file.h).
    if (const eosim::Status checked = check_output_file(path.string(), files, options.force);
        !checked.ok()) {
      err << "eosim: " << lab::printable(checked.message) << '\n';
      return kExitBadInput;
    }
    changed.push_back(&page);
  }
  for (const web::SitePage* page : changed) {
    const std::string path = (fs::path(options.html) / page->name).string();
    if (const eosim::Status written = write_output_file(path, page->html, options.force);
        !written.ok()) {
      err << "eosim: " << lab::printable(written.message) << '\n';
      return kExitBadInput;
    }
  }
  out << "wrote " << changed.size() << " of " << pages.size() << " pages of " << lessons.size()
      << " lessons in " << options.html << " (open " << (fs::path(options.html) / "index.html").string()
      << ")\n";
  return kExitOk;
}

}  // namespace cli
