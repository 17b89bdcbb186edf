// One cell's verdict, as the gate appends it to results.jsonl the moment it is known, and as
// reports and `merge` read it back.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/support/cell.hpp"

namespace twinproof {

// no_verdict is never recorded: reports give it to a selected cell that the record lacks (the run
// was interrupted), so that an unfinished run reads INCOMPLETE, never PASS.
enum class CellStatus { pass, fail, not_supported, waived, error, timeout, no_verdict };
std::string_view to_string(CellStatus s);
CellStatus parse_cell_status(const std::string& s);  // throws std::invalid_argument

struct CellResult {
  Cell cell;  // what was judged: written by to_json(Cell), as a repro bundle writes it
  CellStatus status = CellStatus::error;
  std::string detail;
  std::string tolerance;  // how it was judged: "exact", "places=4", "golden (exact)"
  std::size_t values = 0, mismatches = 0;
  double max_abs_diff = 0;
  std::uint64_t max_ulp = 0;
  nlohmann::json first_mismatch;  // frame, metric, both values (decimal and %a), ULP distance
  double seconds = 0;
  std::string device;            // "host" or "cuda:0 NVIDIA H200 (9.0)"
  bool required = false;         // not-supported of a --require'd backend: a failure
  bool unexpected_pass = false;  // passed while a waiver covers it
  std::string waiver;
  // What ran as the twin when it is not twinproof's own code (an exec twin: its command line,
  // version and executable's SHA-256); null otherwise.
  nlohmann::json twin_provenance;
  // Per metric: values, mismatches, unpaired, max_abs_diff (null: NaN), max_ulp (null: NaN).
  nlohmann::json per_metric = nlohmann::json::object();

  bool failing() const;          // makes the run fail, exit 1: a fail, or a required twin not supported
  bool needs_attention() const;  // failing, an error or a timeout: what a recap lists
};

// The cell's own record (to_json(Cell)) and the verdict's fields, one JSON object.
nlohmann::json to_json(const CellResult& r);
// The result a report shows for a selected cell without a verdict; fields come from the id.
CellResult no_verdict(const std::string& cell_id, const std::string& why);
CellResult cell_result_from_json(const nlohmann::json& j);  // throws std::exception on a bad record

// The longest record line read back (a record is a few hundred bytes; first_mismatch is small).
inline constexpr std::size_t kMaxRecordBytes = 1u << 20;

// Reads a results.jsonl. Only a last line without its newline (a run interrupted while writing
// it) is skipped and counted; any other unreadable line is an InputError naming the line.

std::vector<CellResult> read_results(const std::filesystem::path& file, std::size_t* truncated_lines = nullptr);

// How a run ended beyond its verdicts: the signal that stopped it (0: none), and whether a run
// that judged no cell (every selected one not supported here) is accepted (gate --allow-empty).
struct RunEnd {
  int interrupted_by = 0;
  bool allow_empty = false;
  // Non-empty: why the cells the run selected cannot all be named (`report` on a folder whose list
  // of cells is absent or short); such a run is never complete.
  std::string selection_unknown;
};

// Whether the run judged no cell: none selected, or every one not supported here.
bool judged_nothing(const std::vector<CellResult>& results);

// The one exit code of a run, which every report repeats: 128 + N when signal N stopped it; else
// 2 when a cell errored or timed out; 1 when a cell failed; 2 when a selected cell has no verdict;
// 2 when no cell was judged (unless end.allow_empty); else 0.
int exit_code_for(const std::vector<CellResult>& results, const RunEnd& end = {});

// How a cell counts in every output, the same in each: by its status, except that a required twin
// that is not supported here counts on its own (it fails the run, yet nothing was tested).
enum class Tally { pass, fail, required_not_supported, not_supported, waived, error, timeout, no_verdict };
inline constexpr Tally kTallies[] = {Tally::pass,          Tally::fail,      Tally::required_not_supported,
                                     Tally::not_supported, Tally::waived,    Tally::error,
                                     Tally::timeout,       Tally::no_verdict};
std::string_view to_string(Tally t);
Tally tally_of(const CellResult& r);
// The JUnit element a cell of this kind gets: "" (passed), "failure" (a wrong score), "error" (the
// run could not stand on it: an error, a timeout, a required twin that cannot run, no verdict) or
// "skipped" (not tested here: not supported, waived).
std::string_view junit_element(Tally t);

// The counts, verdict and exit code of a run: computed here once, and what the console lines,
// summary.json, summary.md, JUnit and the HTML report all render.
struct RunTally {
  std::size_t count[std::size(kTallies)] = {};
  std::size_t total = 0;
  int exit_code = 0;
  std::string verdict;   // PASS, FAIL, ERROR or INCOMPLETE (see run_verdict)
  bool complete = true;  // every selected cell has a verdict and no signal stopped the run
  bool judged_nothing = false;

  std::size_t of(Tally t) const { return count[static_cast<std::size_t>(t)]; }
  std::size_t junit(std::string_view element) const;  // cells whose junit_element is `element`
  // Cells a recap lists: failing, erroring, timed out, required and not supported.
  std::size_t needing_attention() const;
  nlohmann::json counts_json() const;  // every kind, zeros too: {"pass": 2, ...}
  std::string counts_text() const;     // "3 cells: 2 pass, 1 required-not-supported" (zeros left out)
  std::string junit_text() const;      // "2 passed, 0 failed, 1 error(s), 0 skipped", as JUnit counts them
};
RunTally tally_run(const std::vector<CellResult>& results, const RunEnd& end = {});

}  // namespace twinproof
