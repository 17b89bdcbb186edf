#include <algorithm>

#include <fmt/format.h>

#include "harness/cli/commands.hpp"

#include "extractors/feature.hpp"

namespace twinproof::cli {

namespace {

// CLI11 reads "0x40" and " 64" as numbers and "nan" as a double; a flag of this tool takes plain
// decimal digits (and, for a real number, one decimal point), nothing else.
std::string plain_number(const std::string& text, bool real) {
  bool digits = false, point = false;
  for (const char ch : text) {
    if (ch >= '0' && ch <= '9') {
      digits = true;
    } else if (real && ch == '.' && !point) {
      point = true;
    } else {
      return fmt::format("'{}' is not a plain {} (digits{} only)", escape_control(text), real ? "number" : "whole number",
                         real ? " and one '.'" : "");
    }
  }
  if (!digits) return fmt::format("'{}' is not a number", escape_control(text));
  return {};
}

void harden(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    const std::string type = opt->get_type_name();
    // An empty value names nothing: `--report-dir ""` silently wrote no reports, `--matrix ""`
    // meant the default matrix and `-o ""` standard output.
    if (type == "TEXT" && opt->get_expected_max() > 0)
      opt->check(
          CLI::Validator([](std::string& v) { return v.empty() ? std::string("an empty value names nothing") : std::string(); },
                         "", "non-empty"));
    if (type == "UINT" || type == "INT" || type == "NONNEGATIVE")
      opt->check(CLI::Validator([](std::string& v) { return plain_number(v, false); }, "", "plain whole number"));
    else if (type == "FLOAT")
      opt->check(CLI::Validator([](std::string& v) { return plain_number(v, true); }, "", "plain number"));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) harden(*sub);
}

}  // namespace

void harden_numeric_options(CLI::App& app) { harden(app); }

void print_columns(const std::vector<std::vector<std::string>>& given, const std::vector<std::size_t>& right) {
  // Cells come from outside too (a twins file's summary, a cached file's path): control bytes are
  // shown as \xNN, never sent to the terminal.
  std::vector<std::vector<std::string>> rows = given;
  for (auto& row : rows)
    for (std::string& cell : row) cell = escape_control(cell);
  std::vector<std::size_t> width;
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (width.size() <= c) width.push_back(0);
      width[c] = std::max(width[c], row[c].size());
    }
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool last = c + 1 == row.size();
      if (std::find(right.begin(), right.end(), c) != right.end()) line += fmt::format("{:>{}}", row[c], width[c]);
      else line += last ? row[c] : fmt::format("{:<{}}", row[c], width[c]);
      if (!last) line += "  ";
    }
    fmt::print("{}\n", line);
  }
}

}  // namespace twinproof::cli
