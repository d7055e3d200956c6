#pragma once
// The course as a static site (`eosim course --html DIR`): plain files a learner opens
// from disk or a team publishes on any static host.
//
//   index.html              every lesson by its question, in order
//   lesson-NN.html          the lesson: its question first (what the run does, the
//                           question, the options); the answer, the claim, the explanation
//                           and the run's page (run_page.h) stay folded until an option is
//                           chosen, which also gets one line of feedback; then "next
//                           lesson" and "try the fixed design" links
//   lesson-NN-runK.html     a lesson's further runs (K >= 2), each a run page
//   lesson-NN-fixed.html    the first run's fixed twin (its scenario's `fixed` file) on the
//                           same seed, when it has one
//
// and, when asked, the pictures: NN-runK.svg, the sequence diagram of lesson NN's run K
// as its page draws it (run_picture), which `eosim course --html DIR --pictures PDIR`
// writes to PDIR (docs/course/, shown by docs/course.md).
//
// Invariants:
//  (1) Every page is self-contained (run_page.h's policy and escaping) and links only to
//      pages of the same site, by relative name.
//  (2) A wrong option's feedback says what the run shows instead, from the run itself
//      (the same statements lab::shows_holds checks), so it cannot contradict the page.
//  (3) Same lessons, same bytes.

#include <string>
#include <vector>

#include "src/lesson/lesson.h"
#include "src/status/status.h"

namespace web {

struct SitePage {
  std::string name;  // "lesson-01.html", or a picture's "01-run1.svg"
  std::string html;  // the file's text (a picture's is SVG)
};

// Every page of the site, index first, and with `pictures` every lesson run's picture in
// lesson order. An error when a run's world cannot be built or a fixed twin cannot be
// loaded (naming the file).
eosim::Status course_site(const std::vector<lab::Lesson>& lessons, std::vector<SitePage>& out,
                          std::vector<SitePage>* pictures = nullptr);

// The name of lesson `lesson`'s run `run` (both from 1) picture: "01-run1.svg".
std::string picture_name(std::size_t lesson, std::size_t run);

// One line about answer `a` of a lesson whose runs ended as `runs`: for a wrong answer
// what the run shows instead, for the right one that the run shows it.
std::string answer_feedback(const lab::LessonAnswer& a, bool right,
                            const std::vector<lab::LessonRunResult>& runs);

}  // namespace web
