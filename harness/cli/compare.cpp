// `twinproof compare A B`: two score files (libvmaf's JSON, XML or CSV, twinproof's JSON, ffmpeg's
// vmafmotion stats) frame by frame under one tolerance, with the gate's rules and report lines.
#include <algorithm>

#include <fmt/format.h>

#include "harness/calibration/rules.hpp"
#include "harness/cli/commands.hpp"
#include "harness/io/score_files.hpp"
#include "harness/scoring/scores.hpp"
#include "harness/support/errors.hpp"

namespace twinproof::cli {
namespace {

struct CompareArgs {
  std::string a, b, tolerance = "exact", format;
  unsigned show = 10;
};

// "exact", "places=N" (1..15) or "printed=FORMAT".
Tolerance parse_tolerance(const std::string& text) {
  if (text == "exact") return Tolerance::exact();
  if (text.rfind("places=", 0) == 0) {
    const std::string n = text.substr(7);
    if (!n.empty() && n.size() <= 2 && std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        std::stoi(n) >= 1 && std::stoi(n) <= 15)
      return Tolerance::at_places(std::stoi(n));
  }
  if (text.rfind("printed=", 0) == 0) {
    try {
      return Tolerance::printed_as(text.substr(8));
    } catch (const std::invalid_argument& e) {
      throw UsageError("--tolerance", text, fmt::format("--tolerance '{}': {}", text, e.what()));
    }
  }
  throw UsageError("--tolerance", text, fmt::format("--tolerance '{}': exact, places=N (1-15) or printed=FORMAT", text));
}

ScoreTable table_of(const std::string& path, const std::string& format_flag) {
  const auto format = format_flag.empty() ? score_file_format_of(path) : parse_score_file_format(format_flag);
  if (!format)
    throw UsageError("--format", format_flag.empty() ? path : format_flag,
                     fmt::format("cannot tell the format of '{}': give --format json, xml, csv or vmafmotion",
                                 format_flag.empty() ? path : format_flag));
  const ScoreFile f = read_score_file(path, *format);
  ScoreTable t;
  if (f.frames.empty()) return t;
  const auto [lo, hi] = std::minmax_element(f.frames.begin(), f.frames.end());
  t.set_frames(static_cast<unsigned>(*lo), static_cast<unsigned>(*hi - *lo + 1));
  for (const auto& [key, column] : f.values)
    for (const auto& [frame, v] : column) t.put(key, static_cast<unsigned>(frame), v);
  return t;
}

int run_compare(const CompareArgs& a) {
  const Tolerance tolerance = parse_tolerance(a.tolerance);
  const ScoreTable expected = table_of(a.a, a.format), actual = table_of(a.b, a.format);
  if (expected.frames() == 0 && actual.frames() == 0)
    throw InputError(a.a, "frames", "0", "neither file has a frame: nothing was compared");
  const TableComparison cmp = compare_tables(expected, actual, tolerance);
  fmt::print("compare: {} vs {} ({}): {} frames in A, {} in B\n", a.a, a.b, tolerance.describe(), expected.frames(),
             actual.frames());
  if (expected.first_frame() != actual.first_frame() || expected.frames() != actual.frames())
    fmt::print("  the files cover different frames: A {}..{}, B {}..{}\n", expected.first_frame(),
               expected.first_frame() + expected.frames() - 1, actual.first_frame(), actual.first_frame() + actual.frames() - 1);
  for (const auto& [metric, m] : cmp.per_metric)
    fmt::print("  {:<28} {:>5} values, {:>5} differ{}, max |diff| {:.3g}, max {} ULP\n", metric, m.values, m.mismatches,
               m.unpaired ? fmt::format(" ({} in one file only)", m.unpaired) : std::string(), m.max_abs_diff, m.max_ulp);
  // Every mismatch, up to --show, in frame order: the gate's line for each.
  unsigned shown = 0;
  if (!cmp.pass)
    for (unsigned i = 0; i < std::max(expected.frames(), actual.frames()) && shown < a.show; ++i)
      for (const std::string& metric : expected.metrics()) {
        const unsigned f = expected.first_frame() + i;
        const auto e = expected.get(metric, f), v = actual.get(metric, f);
        if (!e && !v) continue;
        Mismatch m{metric, f, e, v, {}};
        if (e && v) m.cmp = compare_values(*e, *v, tolerance);
        if ((e && v && m.cmp.pass) || shown >= a.show) continue;
        fmt::print("  {}\n", describe(m));
        ++shown;
      }
  fmt::print("{}: {}\n", cmp.pass ? "PASS" : "FAIL", cmp.summary());
  return cmp.pass ? kExitPass : kExitFail;
}

}  // namespace

void add_compare(CLI::App& app, int& rc) {
  auto a = std::make_shared<CompareArgs>();
  CLI::App* sub =
      app.add_subcommand("compare", "Compare two score files frame by frame (libvmaf JSON/XML/CSV, twinproof JSON, vmafmotion)");
  sub->add_option("a", a->a, "The expected scores (the reference's)")->required();
  sub->add_option("b", a->b, "The scores to judge")->required();
  sub->add_option("--tolerance", a->tolerance, "exact, places=N or printed=FORMAT (vmaf, %.Nf, %.Ne, %.Ng)")
      ->capture_default_str();
  sub->add_option("--format", a->format, "Both files' format when their extensions do not say: json, xml, csv, vmafmotion");
  sub->add_option("--show", a->show, "Mismatches listed at most")->capture_default_str();
  sub->callback([a, &rc] { rc = run_compare(*a); });
}

}  // namespace twinproof::cli
