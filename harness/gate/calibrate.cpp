#include "harness/gate/calibrate.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "harness/support/environment.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/json_file.hpp"

namespace twinproof {
using nlohmann::json;

namespace {

using Key = std::tuple<std::string, std::string, std::string, std::string, std::string>;  // feature, ref, twin, metric, cc

// "cuda:0 NVIDIA H200 (9.0)" -> "9.0"; host twins have none.
std::string compute_capability_in(const std::string& device) {
  static const std::regex cc("\\(([0-9]+\\.[0-9]+)\\)$");
  std::smatch m;
  return std::regex_search(device, m, cc) ? m[1].str() : std::string();
}

// An empty tally of one key (counts zero until add()).
Measured tally(const std::string& feature, const std::string& reference, const std::string& twin, const std::string& metric,
               const std::string& cc) {
  Measured m;
  m.feature = feature;
  m.reference = reference;
  m.twin = twin;
  m.metric = metric;
  m.compute_capability = cc;
  return m;
}

void add(Measured& into, const Measured& m) {
  into.cells += m.cells;
  into.values += m.values;
  into.unpaired += m.unpaired;
  into.mismatches += m.mismatches;
  if (std::isnan(m.max_abs_diff) || std::isnan(into.max_abs_diff)) into.max_abs_diff = std::numeric_limits<double>::quiet_NaN();
  else into.max_abs_diff = std::max(into.max_abs_diff, m.max_abs_diff);
  into.max_ulp = std::max(into.max_ulp, m.max_ulp);
  for (const std::string& t : m.tolerances_in_force)
    if (std::find(into.tolerances_in_force.begin(), into.tolerances_in_force.end(), t) == into.tolerances_in_force.end())
      into.tolerances_in_force.push_back(t);
}

const CalibrationRow* row_with_key(const Calibration& table, const Measured& m) {
  for (const CalibrationRow& r : table.rows())
    if (r.feature == m.feature && r.reference == m.reference && r.twin == m.twin && r.metric == m.metric &&
        r.compute_capability == m.compute_capability)
      return &r;
  return nullptr;
}

// The tolerance the evidence supports, or nullopt with the reason.
std::optional<Tolerance> supported(const Measured& m, const CalibrationRow* current, int margin, std::string& why, int& held) {
  if (m.unpaired > 0) {
    why = fmt::format("{} value(s) present on one side only: no tolerance covers a missing score", m.unpaired);
    return std::nullopt;
  }
  if (std::isnan(m.max_abs_diff) || m.max_ulp == std::numeric_limits<std::uint64_t>::max()) {
    why = "a NaN was seen: NaN never passes";
    return std::nullopt;
  }
  if (m.max_ulp == 0) {
    why = fmt::format("every one of {} values equal bit for bit", m.values);
    return Tolerance::exact();
  }
  if (current != nullptr && current->tolerance.mode == Tolerance::Mode::printed && m.mismatches == 0) {
    why = fmt::format("{} values equal as printed ({}); max |diff| {:.3g}, {} ULP", m.values, current->tolerance.format,
                      m.max_abs_diff, m.max_ulp);
    return current->tolerance;
  }
  held = 0;
  for (int n = 15; n >= 1; --n)
    if (m.max_abs_diff < Tolerance::at_places(n).bound()) {
      held = n;
      break;
    }
  if (held == 0) {
    why = fmt::format("max |diff| {:.6g} over {} values: not even places=1 holds", m.max_abs_diff, m.values);
    return std::nullopt;
  }
  if (held - margin < 1) {
    why = fmt::format(
        "max |diff| {:.6g} over {} values: places={} held, and the margin {} leaves none (--margin {} would propose "
        "places=1)",
        m.max_abs_diff, m.values, held, margin, held - 1);
    return std::nullopt;
  }
  why = fmt::format("max |diff| {:.6g} ({} ULP) over {} values: places={} held, less the margin {}", m.max_abs_diff, m.max_ulp,
                    m.values, held, margin);
  return Tolerance::at_places(held - margin);
}

json row_json(const ProposedRow& p, const std::vector<std::string>& sources) {
  const Measured& m = p.evidence;
  json row = {{"feature", m.feature}, {"reference", m.reference}, {"twin", m.twin}};
  if (!m.metric.empty()) row["metric"] = m.metric;
  if (!m.compute_capability.empty()) row["compute_capability"] = m.compute_capability;
  row["mode"] = p.tolerance->mode == Tolerance::Mode::exact    ? "exact"
                : p.tolerance->mode == Tolerance::Mode::places ? "places"
                                                               : "printed";
  if (p.tolerance->mode == Tolerance::Mode::places) row["places"] = p.tolerance->places;
  if (p.tolerance->mode == Tolerance::Mode::printed) row["format"] = p.tolerance->format;
  row["reason"] = p.current != nullptr
                      ? p.current->reason
                      : "proposed by twinproof calibrate from measurements; state why the twin differs before adopting it";
  row["provenance"] = {{"measured_by", "twinproof calibrate"},
                       {"runs", sources},
                       {"cells", m.cells},
                       {"values", m.values},
                       {"evidence", p.why},
                       {"date", today_utc()}};
  return row;
}

// What the records measured, per twin, metric and device.
struct Tallies {
  std::map<Key, Measured> by_key;
  // Distinct cells per twin and device (a cell judged in two runs counts twice: each run is evidence).
  std::map<std::tuple<std::string, std::string, std::string, std::string>, std::size_t> cells_of;
};

// Every parity cell that compared values, tallied; what was left out, and why, into out.left_out.
Tallies tally_records(const std::vector<CellResult>& records, const std::vector<std::string>& sources, CalibrationProposal& out) {
  Tallies tallies;
  auto& by_key = tallies.by_key;
  auto& cells_of = tallies.cells_of;
  std::map<std::string, std::size_t> faulted, unvalued;
  for (const CellResult& r : records) {
    if (r.cell.kind != CellKind::parity) continue;
    if (r.status == CellStatus::error || r.status == CellStatus::timeout) {
      ++faulted[r.cell.feature + " " + r.cell.twin];
      continue;
    }
    if (r.per_metric.empty()) {
      // Refused by both, or not supported: nothing measured. A failing or waived cell without a
      // value (one side refused) is evidence against any row, and is said to be left out.
      if (r.status == CellStatus::fail || r.status == CellStatus::waived) ++unvalued[r.cell.feature + " " + r.cell.twin];
      continue;
    }
    ++out.cells_used;
    const std::string cc = compute_capability_in(r.device);
    ++cells_of[{r.cell.feature, r.cell.reference, r.cell.twin, cc}];
    for (const auto& [metric, pm] : r.per_metric.items()) {
      Measured m = tally(r.cell.feature, r.cell.reference, r.cell.twin, metric, cc);
      m.cells = 1;
      m.values = pm.contains("values") ? json_integer<std::size_t>(pm["values"], "per_metric.values") : 0;
      m.unpaired = pm.contains("unpaired") ? json_integer<std::size_t>(pm["unpaired"], "per_metric.unpaired") : 0;
      m.mismatches = pm.contains("mismatches") ? json_integer<std::size_t>(pm["mismatches"], "per_metric.mismatches") : 0;
      m.max_abs_diff = pm["max_abs_diff"].is_null() ? std::numeric_limits<double>::quiet_NaN() : pm["max_abs_diff"].get<double>();
      m.max_ulp = pm["max_ulp"].is_null() ? std::numeric_limits<std::uint64_t>::max()
                                          : json_integer<std::uint64_t>(pm["max_ulp"], "per_metric.max_ulp");
      m.tolerances_in_force = {r.tolerance};
      auto [it, fresh] = by_key.try_emplace({m.feature, m.reference, m.twin, metric, cc}, m);
      if (!fresh) add(it->second, m);
    }
  }
  for (const auto& [twin, n] : faulted)
    out.left_out.push_back(fmt::format("{} cell(s) of {} ended in an error or timeout", n, twin));
  for (const auto& [twin, n] : unvalued)
    out.left_out.push_back(
        fmt::format("{} failing cell(s) of {} compared no value (one side refused what the other scored): no "
                    "tolerance covers them",
                    n, twin));
  if (out.cells_used == 0)
    throw InputError(sources.empty() ? "(records)" : sources.front(), "results.jsonl", fmt::format("{} records", records.size()),
                     "no twin cell compared any value: nothing to calibrate from");
  return tallies;
}

// Rows: per twin a general row (the loosest over its metrics and devices); a metric row, or a
// device row, where that metric or device supports a tighter one than the general row.
void propose_rows(Tallies& tallies, const Calibration& table, int margin, CalibrationProposal& out) {
  auto& cells_of = tallies.cells_of;
  std::map<std::tuple<std::string, std::string, std::string>, std::vector<Measured>> by_twin;
  for (const auto& [key, m] : tallies.by_key) by_twin[{m.feature, m.reference, m.twin}].push_back(m);
  for (const auto& [twin_key, measured] : by_twin) {
    const auto& [feature, reference, twin] = twin_key;
    Measured all = tally(feature, reference, twin, "", "");
    std::map<std::string, Measured> per_metric, per_cc;
    for (const Measured& m : measured) {
      add(all, m);
      per_metric.try_emplace(m.metric, tally(feature, reference, twin, m.metric, ""));
      add(per_metric.at(m.metric), m);
      per_cc.try_emplace(m.compute_capability, tally(feature, reference, twin, "", m.compute_capability));
      add(per_cc.at(m.compute_capability), m);
    }
    all.cells = 0;
    for (auto& [cc, m] : per_cc) {
      m.cells = cells_of[{feature, reference, twin, cc}];
      all.cells += m.cells;
    }
    const auto propose = [&](const Measured& m) {
      ProposedRow p;
      p.evidence = m;
      p.current = row_with_key(table, m);
      // A metric or device row is judged against the general row's tolerance when it has none.
      const CalibrationRow* judged_by =
          p.current ? p.current : table.find(m.feature, m.reference, m.twin, m.metric, m.compute_capability);
      p.tolerance = supported(m, judged_by, margin, p.why, p.held);
      return p;
    };
    const ProposedRow general = propose(all);
    out.rows.push_back(general);
    if (!general.tolerance) continue;
    const auto tighter = [&](const ProposedRow& p) { return p.tolerance && general.tolerance->looser_than(*p.tolerance); };
    if (per_metric.size() > 1)
      for (const auto& [metric, m] : per_metric)
        if (ProposedRow p = propose(m); tighter(p) || p.current) out.rows.push_back(p);
    if (per_cc.size() > 1)
      for (const auto& [cc, m] : per_cc)
        if (ProposedRow p = propose(m); !cc.empty() && (tighter(p) || p.current)) out.rows.push_back(p);
  }
  for (ProposedRow& p : out.rows) {
    if (!p.tolerance) p.change = ProposedRow::Change::none;
    else if (!p.current) p.change = ProposedRow::Change::added;
    else if (p.tolerance->looser_than(p.current->tolerance)) p.change = ProposedRow::Change::looser;
    else if (p.current->tolerance.looser_than(*p.tolerance)) p.change = ProposedRow::Change::tighter;
    else p.change = ProposedRow::Change::same;
  }
}

// The proposed table: every row of the table in force, each replaced by its proposal where
// there is one, then the new rows; the waivers unchanged.
json proposed_table(const Calibration& table, const CalibrationProposal& out, const std::vector<std::string>& sources) {
  json doc = read_json_file(table.file(), "the calibration table");
  json rows = json::array();
  std::set<const CalibrationRow*> replaced;
  for (const CalibrationRow& r : table.rows()) {
    const ProposedRow* p = nullptr;
    for (const ProposedRow& q : out.rows)
      if (q.current == &r && q.tolerance) p = &q;
    rows.push_back(p ? row_json(*p, sources) : doc["rows"][r.index]);
  }
  for (const ProposedRow& p : out.rows)
    if (p.tolerance && !p.current) rows.push_back(row_json(p, sources));
  doc["rows"] = rows;
  Calibration::from_json(doc, table.file().string() + " (proposed)");  // the proposal must load as a table
  return doc;
}

}  // namespace

CalibrationProposal propose_calibration(const std::vector<CellResult>& records, const Calibration& table, int margin,
                                        const std::vector<std::string>& sources) {
  CalibrationProposal out;
  out.cells_read = records.size();
  out.margin = margin;
  Tallies tallies = tally_records(records, sources, out);
  propose_rows(tallies, table, margin, out);
  out.table = proposed_table(table, out, sources);
  return out;
}

std::string describe_proposal(const CalibrationProposal& p) {
  std::string out = fmt::format(
      "calibrate: {} record(s) read, {} twin cell(s) with compared values; a places row is the tightest "
      "that held less --margin {} (--margin 0: the tightest)\n",
      p.cells_read, p.cells_used, p.margin);
  for (const std::string& l : p.left_out) out += "  left out: " + l + "\n";
  for (const ProposedRow& r : p.rows) {
    const Measured& m = r.evidence;
    std::string key = fmt::format("{} {} vs {}", m.feature, m.twin, m.reference);
    if (!m.metric.empty()) key += " metric " + m.metric;
    if (!m.compute_capability.empty()) key += " on sm " + m.compute_capability;
    const std::string now = r.current ? r.current->tolerance.describe() : "(no row)";
    const char* change = r.change == ProposedRow::Change::same      ? "same"
                         : r.change == ProposedRow::Change::tighter ? "TIGHTER"
                         : r.change == ProposedRow::Change::looser  ? "LOOSER"
                         : r.change == ProposedRow::Change::added   ? "NEW"
                                                                    : "NONE";
    // With no tolerance supported, the proposed table keeps the row in force as it is (or adds none).
    const std::string proposed = r.tolerance ? r.tolerance->describe()
                                 : r.current ? r.current->tolerance.describe() + " kept unchanged: the evidence supports no row"
                                             : std::string("no row added: the evidence supports none");
    std::string note;
    if (r.change == ProposedRow::Change::looser && r.current->tolerance.mode == Tolerance::Mode::places &&
        r.held >= r.current->tolerance.places)
      note = fmt::format("; places={} held, so --margin {} keeps the row in force", r.held, r.held - r.current->tolerance.places);
    out += fmt::format("  {:<8} {}: {} -> {} ({}; {} cell(s){})\n", change, key, now, proposed, r.why, m.cells, note);
  }
  return out;
}

}  // namespace twinproof
