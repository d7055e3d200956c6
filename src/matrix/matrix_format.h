#pragma once
// The design x fault matrix (matrix/matrix.h) as text for a terminal, Markdown for a README,
// JSON for tools and a self-contained HTML page with coloured cells.
//
// Invariants:
//  (1) Formatting only reads the Matrix: the same matrix always gives the same bytes.
//  (2) Every format names how to reproduce every cell: JSON and HTML carry each cell's
//      `eosim run` command; text lists the command of every cell that is not
//      exactly-once; Markdown heads each row with its `--fault` spec and each column with
//      its design, which together with the file make the command.

#include <string>

#include <nlohmann/json_fwd.hpp>  // the full header only where JSON is built or read

#include "src/matrix/matrix.h"

namespace lab {

std::string format_matrix_text(const Matrix& matrix);
std::string format_matrix_markdown(const Matrix& matrix);
nlohmann::ordered_json matrix_json(const Matrix& matrix);
std::string format_matrix_html(const Matrix& matrix);

// The `--fault` spec shared by every applicable cell of row `f`, or "" when the designs
// place the fault differently (then each cell's command says where).
std::string matrix_row_spec(const Matrix& matrix, std::size_t f);

}  // namespace lab
