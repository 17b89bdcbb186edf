// Repro: replays one cell and bisects a mismatch to the stage where the twin departs from the
// reference (converted planes, blur passes, downscale, row sums, totals, scores, outputs).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "harness/gate/matrix.hpp"
#include "harness/scoring/scores.hpp"
#include "harness/scoring/twin_check.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof {

// Finds a cell by id in the project's matrices (ci/matrices/*.json), or in `matrix` when given.
Cell find_cell(const std::string& id, const std::filesystem::path& matrix = {});

struct ReproTarget {
  Cell cell;
  // Opens the cell's clips from the start (a manifest vector or pair, or a bundle's frames.y4m
  // and, for a pair, distorted.y4m).
  std::function<ClipPair()> open;
  unsigned first_label = 0;  // label of the source's first frame (bundles keep the original ones)
  // A bundle is written only for a cell both sides score: a refusal while replaying one means the
  // bundle is not what repro wrote (an error, exit 2), not a refusal verdict.
  bool from_bundle = false;
};

struct ReproOptions {
  std::optional<FrameRange> frames;  // score only this sub-clip (labels are kept)
  unsigned repeat = 0;               // run the twin this many times; every run must match
  bool with_mutants = false;
  int device = 0;
  std::filesystem::path bundle;  // write a self-contained repro here
  std::string rerun;             // the command line that reruns this repro
};

struct ReproResult {
  bool regression = false;        // the reference against its golden (no twin, no stages)
  bool refusal = false;           // a refusal on either side decided the cell (no table, no stages)
  ScoreTable reference, twin;     // the outputs compared (twin: empty for a regression cell)
  std::string judged_by;          // the calibration row, its tolerance and what it says
  bool mismatch = false;          // any bit differs between reference and twin
  std::optional<Mismatch> first;  // the first differing output
  std::optional<unsigned> divergence_frame;
  std::vector<StageDiff> stages;  // of the divergence frame, pipeline order
  std::string verdict;            // "first divergence: row sums, plane Y, row 17"
  bool repeat_identical = true;
  unsigned repeats_run = 0;  // repeats done (they stop at the first that differs)
  std::string repeat_difference;
  std::string bundle_note;     // what the bundle written holds; empty: none
  std::string outside_run;     // an outside twin's command line and kept work folder; empty: none
  bool outside_fault = false;  // the outside twin's program failed: the verdict is an error (exit 2)
  std::string rerun;
  int exit_code = 0;  // 0 the cell passes its row (and repeats match), 1 not, 2 error
};

// Compares the outputs, bisects a mismatch to its stage, forms the verdict, checks repeats and
// writes the bundle; prints nothing.
ReproResult compute_repro(const ReproTarget& target, const ReproOptions& options);
// What a user reads: the per-frame table, the row's judgement, the stages, the verdict.
void print_repro(const ReproResult& result, const ReproTarget& target, std::ostream& out);
// Both.
ReproResult run_repro(const ReproTarget& target, const ReproOptions& options, std::ostream& out);

// The target of a cell of the project's matrices: its clips from the manifest.
ReproTarget cell_target(const Cell& cell);

// Replays a bundle written by run_repro (cell.json, frames.y4m, distorted.y4m for a pair,
// commands.txt, environment.json).
ReproTarget load_bundle(const std::filesystem::path& dir);

}  // namespace twinproof
