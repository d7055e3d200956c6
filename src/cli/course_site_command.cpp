// `eosim course --html DIR [--pictures PDIR]`: the course as a static site
// (src/web/course_site.h), written into DIR, and each lesson run's picture into PDIR. Every
// page and picture is made before anything is written, and a file already in DIR that
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

// A file to write: where, and what.
struct Planned {
  fs::path path;
  const std::string* text;
};

// The files of `made` in `dir` that differ from what is there (all of them in a new
// folder); an error when one would be replaced without --force, naming it.
eosim::Status plan(const std::string& dir, const std::vector<web::SitePage>& made,
                   const std::vector<std::string>& inputs, bool force,
                   std::vector<Planned>& changed) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    return eosim::Status::error("cannot make the folder " + dir + ": " + ec.message());
  }
  for (const web::SitePage& file : made) {
    const fs::path path = fs::path(dir) / file.name;
    if (fs::exists(path, ec) && holds(path, file.html)) continue;
    // A file that differs: the rules of every output file (src/files/output_file.h).
    if (const eosim::Status checked = check_output_file(path.string(), inputs, force);
        !checked.ok()) {
      return checked;
    }
    changed.push_back({path, &file.html});
  }
  return eosim::Status::success();
}

}  // namespace

int course_site_command(const CourseSiteOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  std::string dir;
  if (const eosim::Status listed = data_files(options.lessons, "lessons", dir, files);
      !listed.ok()) {
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
  std::vector<web::SitePage> pages, pictures;
  if (const eosim::Status made = web::course_site(lessons, pages, &pictures); !made.ok()) {
    err << "eosim: internal error: " << lab::printable(made.message) << '\n';
    return kExitInternal;
  }
  // Everything is made and checked before anything is written.
  std::vector<Planned> changed;
  eosim::Status planned = plan(options.html, pages, files, options.force, changed);
  const std::size_t changed_pages = changed.size();
  if (planned.ok() && !options.pictures.empty()) {
    planned = plan(options.pictures, pictures, files, options.force, changed);
  }
  if (!planned.ok()) {
    err << "eosim: " << lab::printable(planned.message) << '\n';
    return kExitBadInput;
  }
  for (const Planned& file : changed) {
    if (const eosim::Status written = write_output_file(file.path.string(), *file.text, options.force);
        !written.ok()) {
      err << "eosim: " << lab::printable(written.message) << '\n';
      return kExitBadInput;
    }
  }
  out << "wrote " << changed_pages << " of " << pages.size() << " pages of " << lessons.size()
      << " lessons in " << options.html << " (open " << (fs::path(options.html) / "index.html").string()
      << ")\n";
  if (!options.pictures.empty()) {
    out << "wrote " << changed.size() - changed_pages << " of " << pictures.size()
        << " pictures in " << options.pictures << '\n';
  }
  return kExitOk;
}

}  // namespace cli
