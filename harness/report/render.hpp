// Reports rendered from the one record of a run (results.jsonl): summary.json, JUnit XML,
// Markdown for a CI job summary, and a single-file HTML report with a heatmap.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/report/results.hpp"

namespace twinproof {

inline constexpr int kReportSchemaVersion = 1;

// Writes the four reports into `dir`. `notes` are lines shown at the top of each (calibration
// loosenings, merged shards, an interrupted record). `environment` describes the host
// (environment_fingerprint); each report adds to it the twins twinproof did not write that the
// records name (`outside_twins`: program or plugin, version, SHA-256, the features it ran).
// `end` says how the run ended (a signal, --allow-empty), so that every report states the exit code
// the process returns.
void render_reports(const std::filesystem::path& dir, const std::vector<CellResult>& results, const nlohmann::json& environment,
                    const std::vector<std::string>& notes = {}, const RunEnd& end = {});

// The command that reruns a cell under repro, and its first difference in one line (frame,
// metric, both values in decimal and %a, ULP), or its detail when it has none.
std::string repro_command(const CellResult& r);
std::string first_difference(const CellResult& r);
// Every failing or erroring cell (at most `limit`), each with its first difference and its repro
// command: what the console shows at the end of a run. Empty when none fails.
std::string failure_recap(const std::vector<CellResult>& results, std::size_t limit = 50);

// By exit_code_for: FAIL when a judged cell fails and none faulted (even if others have no
// verdict); otherwise INCOMPLETE when a selected cell has no verdict or a signal stopped the run;
// otherwise ERROR for a fault (an error or a timeout) or a run that judged no cell (unless
// end.allow_empty), else PASS.
std::string run_verdict(const std::vector<CellResult>& results, const RunEnd& end = {});
// The verdict with what qualifies it: "FAIL (incomplete: 40 cell(s) without a verdict)",
// "PASS, 12 cell(s) not supported here", "ERROR: no cell judged, ...". The headline of every report.
std::string verdict_line(const std::vector<CellResult>& results, const RunEnd& end = {});

// Counts per status ("pass": 12, ...), and the Markdown summary as text.
nlohmann::json status_counts(const std::vector<CellResult>& results);
std::string markdown_summary(const std::vector<CellResult>& results, const nlohmann::json& environment,
                             const std::vector<std::string>& notes, const RunEnd& end = {});

}  // namespace twinproof
