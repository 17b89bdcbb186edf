#include "harness/gate/plan.hpp"

#include <algorithm>
#include <map>

#include "harness/support/errors.hpp"

namespace twinproof {

bool is_required(const std::vector<std::string>& require, const Cell& cell, const Backend* twin) {
  const auto named = [&](std::string_view name) { return std::find(require.begin(), require.end(), name) != require.end(); };
  return named(cell.twin) || (twin != nullptr && twin->gpu() && named("cuda"));
}

GatePlan plan_gate(const std::vector<Cell>& cells, const std::vector<std::string>& require, bool with_mutants) {
  GatePlan plan;
  std::map<std::string, const Cell*> first_of_unit;
  for (const Cell& c : cells) {
    if (c.kind == CellKind::parity) {
      const Backend* twin = find_backend(c.feature, c.twin, with_mutants);
      const Availability a = twin == nullptr ? Availability{false, "no such backend"} : twin->availability();
      if (!a.available) {
        CellResult r;
        r.cell = c;
        r.status = CellStatus::not_supported;
        r.detail = a.reason;
        r.required = is_required(require, c, twin);
        plan.not_supported.push_back(std::move(r));
        continue;
      }
      (twin->gpu() ? plan.gpu : plan.cpu).push_back({twin, &c, false});
    }
    plan.judged_after_reference.push_back(&c);
    first_of_unit.emplace(c.unit(), &c);
  }
  // Pushed to the front in reverse, so the references run first and in unit order.
  for (auto it = first_of_unit.rbegin(); it != first_of_unit.rend(); ++it) {
    const Cell& c = *it->second;
    const Backend* reference = find_backend(c.feature, c.reference);
    if (reference == nullptr) throw UsageError("reference", c.reference, "no such reference backend");
    plan.cpu.push_front({reference, &c, true});
  }
  plan.reference_runs = first_of_unit.size();
  return plan;
}

}  // namespace twinproof
