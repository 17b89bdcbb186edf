#include "harness/gate/judge.hpp"

#include <cmath>
#include <limits>

#include <fmt/ranges.h>

#include <fmt/format.h>

#include "harness/calibration/rules.hpp"
#include "harness/goldens/goldens.hpp"
#include "harness/support/paths.hpp"

namespace twinproof {
using nlohmann::json;

namespace {

CellResult base_result(const Cell& c) {
  CellResult r;
  r.cell = c;
  return r;
}

json mismatch_json(const Mismatch& m) {
  const auto value = [](const std::optional<double>& v) -> json {
    if (!v) return nullptr;
    return {{"decimal", fmt::format("{:.17g}", *v)}, {"hex", hex(*v)}};
  };
  json j = {{"frame", m.frame}, {"metric", m.metric}, {"expected", value(m.expected)}, {"actual", value(m.actual)}};
  if (m.expected && m.actual) {
    j["ulp"] = m.cmp.ulp == std::numeric_limits<std::uint64_t>::max() ? json(nullptr) : json(m.cmp.ulp);
    j["abs_diff"] = m.cmp.abs_diff;
    if (!m.cmp.note.empty()) j["note"] = m.cmp.note;
  }
  return j;
}

void fill_comparison(CellResult& r, const TableComparison& cmp) {
  for (const auto& [metric, m] : cmp.per_metric)
    r.per_metric[metric] = {
        {"values", m.values},
        {"mismatches", m.mismatches},
        {"unpaired", m.unpaired},
        {"max_abs_diff", std::isnan(m.max_abs_diff) ? json(nullptr) : json(m.max_abs_diff)},
        {"max_ulp", m.max_ulp == std::numeric_limits<std::uint64_t>::max() ? json(nullptr) : json(m.max_ulp)}};
  r.values = cmp.values;
  r.mismatches = cmp.mismatches;
  r.max_abs_diff = cmp.max_abs_diff;
  r.max_ulp = cmp.max_ulp;
  if (cmp.first) r.first_mismatch = mismatch_json(*cmp.first);
}

// A cell that ends before any comparison: the twin not supported or timed out, the reference
// faulted, the twin not repeating itself, or either side failing. True when `r` is settled.
bool ends_before_comparing(const Outcome& ref, const Outcome& twin, CellResult& r) {
  using K = Outcome::Kind;
  if (twin.kind == K::not_supported) {
    r.status = CellStatus::not_supported;
    r.detail = twin.message;
    return true;
  }
  if (twin.kind == K::timeout) {
    r.status = CellStatus::timeout;
    r.detail = twin.message;
    return true;
  }
  if (ref.kind != K::scores && ref.kind != K::refused) {
    r.status = ref.kind == K::timeout ? CellStatus::timeout : CellStatus::error;
    r.detail = "reference: " + ref.message;
    return true;
  }
  if (!twin.nondeterminism.empty()) {
    r.status = CellStatus::fail;  // a twin that does not repeat itself is wrong whatever run 1 said
    r.detail = "not deterministic: " + twin.nondeterminism;
    return true;
  }
  if (twin.kind == K::tool_failed && ref.kind == K::refused) {
    r.status = CellStatus::pass;  // the program's failure is its refusal
    r.detail = "both refuse: the reference: " + ref.message + "; " + twin.message;
    return true;
  }
  if (twin.kind == K::error || twin.kind == K::tool_failed) {
    r.status = CellStatus::error;
    r.detail = twin.message;
    return true;
  }
  return false;
}

// The refusal, or the comparison of the scores by each metric's row.
void compare_outcomes(const Outcome& ref, const Outcome& twin, const CellTolerance& tolerance_of, CellResult& r) {
  using K = Outcome::Kind;
  if (ref.kind == K::refused || twin.kind == K::refused) {
    const bool both = ref.kind == twin.kind;
    r.status = both ? CellStatus::pass : CellStatus::fail;
    r.detail = both ? "both refuse: " + twin.message
                    : (ref.kind == K::refused ? "the reference refuses (" + ref.message + ") but the twin scores"
                                              : "the twin refuses what the reference scores: " + twin.message);
  } else {
    // A twin that reports only some metrics is judged on those (its program was asked for no
    // more); the detail says so, so that a pass is never read as covering the rest.
    ScoreTable expected = ref.table;
    std::string scope;
    if (twin.judged_metrics) {
      expected = ref.table.only(*twin.judged_metrics);
      scope = fmt::format(" (the twin reports {} only)", fmt::join(*twin.judged_metrics, ", "));
    }
    const TableComparison cmp = compare_tables(expected, twin.table, tolerance_of);
    fill_comparison(r, cmp);
    r.status = cmp.pass ? CellStatus::pass : CellStatus::fail;
    r.detail = fmt::format("{} frames{}: {}", twin.table.frames(), scope, cmp.summary());
    for (const std::string& m : twin.table.metrics())
      if (tolerance_of(m).mode == Tolerance::Mode::printed) {
        r.detail +=
            fmt::format("; the twin's output is printed as {}: equal as printed, not proven bit for bit", tolerance_of(m).format);
        break;
      }
  }
}

// Waivers: a failing cell under a live waiver is waived; a passing one is an unexpected pass;
// an expired waiver fails the cell whatever it did.
void apply_waivers(const Cell& cell, const Calibration& table, const std::string& today, CellResult& r) {
  for (const Waiver* w : table.waivers_for(cell.id)) {
    r.waiver = fmt::format("waivers[{}] until {}: {} ({})", w->index, w->expires, w->reason, w->issue);
    if (w->expired(today)) {
      r.status = CellStatus::fail;
      r.detail = fmt::format("waiver expired on {} ({}); {}", w->expires, w->issue, r.detail);
    } else if (r.status == CellStatus::fail) {
      r.status = CellStatus::waived;
    } else if (r.status == CellStatus::pass) {
      r.unexpected_pass = true;
    }
    break;
  }
}

}  // namespace

CellResult judge_parity(const Cell& cell, const Outcome& ref, const Outcome& twin, const Calibration& table,
                        const std::string& today) {
  CellResult r = base_result(cell);
  r.seconds = twin.seconds;
  r.device = twin.device;
  // Each metric is judged by its most specific row for this twin and device (every twin has a
  // general row: run_gate checks that before anything runs).
  const CellTolerance tolerance_of(table, cell.feature, cell.reference, cell.twin, twin.compute_capability);
  r.tolerance = tolerance_of("").describe();  // the general row, for cells that end before comparing
  if (!twin.provenance.empty()) {
    r.twin_provenance = json::object();
    for (const auto& [key, value] : twin.provenance) r.twin_provenance[key] = value;
  }
  if (ends_before_comparing(ref, twin, r)) return r;
  compare_outcomes(ref, twin, tolerance_of, r);
  if (twin.kind == Outcome::Kind::scores) r.tolerance = tolerance_of.describe(twin.table.metrics());
  apply_waivers(cell, table, today, r);
  return r;
}

CellResult judge_regression(const Cell& cell, const Outcome& ref) {
  CellResult r = base_result(cell);
  r.seconds = ref.seconds;
  r.device = ref.device;
  r.tolerance = "golden (exact)";
  using K = Outcome::Kind;
  if (ref.kind != K::scores && ref.kind != K::refused) {
    r.status = ref.kind == K::timeout ? CellStatus::timeout : CellStatus::error;
    r.detail = ref.message;
    return r;
  }
  const std::shared_ptr<const GoldenFile> file = golden_file_of(cell);
  const GoldenFile& g = *file;
  for (const GoldenRefusal& refusal : g.refusals)
    if (refusal.id == cell.golden) {
      r.status = ref.kind == K::refused ? CellStatus::pass : CellStatus::fail;
      r.detail = ref.kind == K::refused ? "refused, as the golden says: " + ref.message
                                        : "scored a configuration the golden says must be refused";
      return r;
    }
  for (const GoldenCase& gc : g.cases)
    if (gc.id == cell.golden) {
      if (ref.kind == K::refused) {
        r.status = CellStatus::fail;
        r.detail = "refused a configuration the golden scores: " + ref.message;
        return r;
      }
      const TableComparison cmp = compare_tables(gc.expected, ref.table, Tolerance::exact());
      fill_comparison(r, cmp);
      r.status = cmp.pass ? CellStatus::pass : CellStatus::fail;
      r.detail = fmt::format("golden {} ({}): {}", gc.id, g.provenance.value("kind", "?"), cmp.summary());
      return r;
    }
  r.status = CellStatus::error;
  r.detail = "golden " + cell.golden + " not found";
  return r;
}

void UnitJudge::expect(const Cell& cell) {
  Unit& u = units_[cell.unit()];
  u.cells.push_back(&cell);
  ++u.pending;
}

void UnitJudge::judged(Unit& u, std::size_t n) {
  u.pending -= n;
  if (u.pending == 0) u.ref.reset();  // every cell of the unit is judged: its scores can go
}

std::vector<CellResult> UnitJudge::reference_done(const std::string& unit, Outcome ref) {
  std::vector<CellResult> ready;
  Unit& u = units_[unit];
  u.ref = std::move(ref);
  for (auto& [cell, twin] : u.waiting) ready.push_back(judge_parity(*cell, *u.ref, twin, table_, today_));
  u.waiting.clear();
  for (const Cell* c : u.cells)
    if (c->kind == CellKind::regression) ready.push_back(judge_regression(*c, *u.ref));
  judged(u, ready.size());
  return ready;
}

std::vector<CellResult> UnitJudge::twin_done(const Cell& cell, Outcome twin) {
  Unit& u = units_[cell.unit()];
  if (!u.ref) {
    u.waiting.emplace_back(&cell, std::move(twin));
    return {};
  }
  std::vector<CellResult> ready{judge_parity(cell, *u.ref, twin, table_, today_)};
  judged(u, 1);
  return ready;
}

std::size_t UnitJudge::pending() const {
  std::size_t n = 0;
  for (const auto& [unit, u] : units_) n += u.pending;
  return n;
}

}  // namespace twinproof
