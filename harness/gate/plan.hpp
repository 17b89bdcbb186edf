// Planning a gate run: which cells run, on which worker queue, which are judged without running
// (not supported here), and which of those a --require makes failures. Pure: it reads the
// registry and the options, starts nothing.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "extractors/registry.hpp"
#include "harness/gate/matrix.hpp"
#include "harness/report/results.hpp"

namespace twinproof {

// One run of a backend: the reference of a unit, or a twin for a cell.
struct GateTask {
  const Backend* backend = nullptr;
  const Cell* cell = nullptr;  // for a reference: the unit's first cell
  bool reference = false;
};

struct GatePlan {
  std::vector<CellResult> not_supported;  // verdicts known before anything runs
  std::deque<GateTask> cpu;               // the references first: they unblock judging
  std::deque<GateTask> gpu;
  std::vector<const Cell*> judged_after_reference;  // every cell that waits for its unit's reference
  std::size_t reference_runs = 0;
};

// Whether --require names this twin: by its name, or by its kind ("cuda": every GPU backend).
bool is_required(const std::vector<std::string>& require, const Cell& cell, const Backend* twin);

// Throws UsageError when a unit's reference backend is not registered.
GatePlan plan_gate(const std::vector<Cell>& cells, const std::vector<std::string>& require, bool with_mutants);

}  // namespace twinproof
