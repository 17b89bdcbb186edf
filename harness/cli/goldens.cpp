// twinproof goldens check: every golden case and expected refusal, bit for bit.
#include <algorithm>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "extractors/feature.hpp"
#include "harness/cli/commands.hpp"
#include "harness/gate/matrix.hpp"
#include "harness/goldens/goldens.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/json_file.hpp"
#include "harness/support/parallel.hpp"
#include "harness/support/paths.hpp"

namespace twinproof::cli {
namespace {

struct CheckArgs {
  std::vector<std::string> features;  // default: every feature
  std::string backend;                // default: each feature's reference
  std::vector<std::string> filters;
  unsigned jobs = 0;
  bool skip_absent = false;
  int device = 0;
  int places = 0;  // 0: exact
  std::string json;
  std::string shard;  // "I/N": case k (counted over every selected feature, in order) runs in shard k mod N
};

struct Tally {
  unsigned passed = 0, failed = 0, absent = 0, errors = 0;
  std::size_t seen = 0;  // cases selected so far, across features: the shard index counts these
};

// One feature's goldens with one backend; case ids are filtered as "<feature>/<vector>/<set>" and
// as "<vector>/<set>".
void check_feature(const CheckArgs& a, const std::optional<Shard>& shard, const FeatureDescriptor& feature, const Backend& b,
                   nlohmann::json& record, Tally& total) {
  const Availability av = b.availability();
  if (!av.available)
    throw BackendUnavailable("--backend", std::string(b.name), fmt::format("backend '{}' is unavailable: {}", b.name, av.reason));
  // Describe every check first (cheap), then run them.
  struct Item {
    const GoldenCase* c = nullptr;
    const GoldenRefusal* r = nullptr;
  };
  const std::vector<GoldenFile> files = load_goldens(std::string(feature.name));
  const auto selected = [&](const std::string& id) {
    if (!matches_filters(a.filters, {id, std::string(feature.name) + "/" + id})) return false;
    const std::size_t k = total.seen++;
    return !shard || k % shard->count == shard->index;
  };
  std::vector<Item> items;
  for (const GoldenFile& f : files) {
    for (const GoldenCase& c : f.cases)
      if (selected(c.id)) items.push_back({&c, nullptr});
    for (const GoldenRefusal& r : f.refusals)
      if (selected(r.id)) items.push_back({nullptr, &r});
  }
  ExtractorContext ctx;
  ctx.device = a.device;
  const Tolerance tolerance = a.places > 0 ? Tolerance::at_places(a.places) : Tolerance::exact();
  unsigned passed = 0, failed = 0, absent = 0, errors = 0, cases_ok = 0, cases = 0, refusals_ok = 0, refusals = 0;
  // GPU backends share one device: run their cases one at a time.
  const unsigned jobs = b.gpu() ? 1 : (a.jobs ? a.jobs : default_jobs());
  run_ordered<GoldenResult>(
      items.size(), jobs,
      [&](std::size_t i) { return items[i].c ? check_case(b, *items[i].c, ctx, tolerance) : check_refusal(b, *items[i].r, ctx); },
      [&](std::size_t i, GoldenResult& r) {
        record.push_back({{"feature", feature.name},
                          {"backend", b.name},
                          {"id", r.id},
                          {"kind", items[i].c ? "scored" : "refusal"},
                          {"status", to_string(r.status)},
                          {"values", r.comparison.values},
                          {"mismatches", r.comparison.mismatches},
                          {"max_abs_diff", r.comparison.max_abs_diff},
                          {"max_ulp", r.comparison.max_ulp},
                          {"seconds", r.seconds},
                          {"detail", r.detail}});
        fmt::print("{:<6} {:<52} {:>6.2f}s  {}\n", to_string(r.status), std::string(feature.name) + "/" + r.id, r.seconds,
                   r.detail);
        std::fflush(stdout);
        const bool ok = r.status == GoldenStatus::pass;
        (items[i].c ? cases : refusals) += 1;
        (items[i].c ? cases_ok : refusals_ok) += ok ? 1 : 0;
        switch (r.status) {
          case GoldenStatus::pass: ++passed; break;
          case GoldenStatus::fail: ++failed; break;
          case GoldenStatus::absent: ++absent; break;
          case GoldenStatus::error: ++errors; break;
        }
      });
  fmt::print("feature {}, backend {}: scored cases {}/{} {}, expected refusals {}/{}", feature.name, b.name, cases_ok, cases,
             tolerance.describe(), refusals_ok, refusals);
  if (absent) fmt::print(", {} absent (vector not fetched)", absent);
  if (errors) fmt::print(", {} errors", errors);
  fmt::print("\n");
  total.passed += passed;
  total.failed += failed;
  total.absent += absent;
  total.errors += errors;
}

int check(const CheckArgs& a) {
  // Which features, and which backend of each: the named backend wherever a feature has it, else
  // each feature's reference.
  std::vector<std::pair<const FeatureDescriptor*, const Backend*>> plan;
  for (const FeatureDescriptor* f : features()) {
    if (!a.features.empty() && std::find(a.features.begin(), a.features.end(), f->name) == a.features.end()) continue;
    const std::string backend = a.backend.empty() ? std::string(f->reference) : a.backend;
    if (const Backend* b = find_backend(f->name, backend)) plan.emplace_back(f, b);
  }
  for (const std::string& name : a.features) feature_or_throw(name);
  if (plan.empty())
    throw UsageError("--backend", a.backend,
                     fmt::format("no selected feature has a backend '{}' (see `twinproof features`)", a.backend));
  const std::optional<Shard> shard = a.shard.empty() ? shard_from_environment() : std::optional<Shard>(parse_shard(a.shard));
  nlohmann::json record = nlohmann::json::array();
  Tally t;
  for (const auto& [f, b] : plan) check_feature(a, shard, *f, *b, record, t);
  if (t.passed + t.failed + t.absent + t.errors == 0)
    throw UsageError("--filter", fmt::format("{} filter(s)", a.filters.size()),
                     "no golden case is selected: nothing was checked (see the case ids in goldens/<feature>/*.json)");
  // Absent cases and errors are never passes: they count as failed unless absent ones are
  // explicitly skipped.
  const unsigned not_passed = t.failed + t.errors + (a.skip_absent ? 0 : t.absent);
  if (a.skip_absent && t.absent) fmt::print("{} passed, {} failed, {} skipped\n", t.passed, not_passed, t.absent);
  else fmt::print("{} passed, {} failed\n", t.passed, not_passed);
  if (!a.json.empty()) {
    const nlohmann::json doc = {{"backend", a.backend.empty() ? "reference" : a.backend},
                                {"tolerance", a.places > 0 ? Tolerance::at_places(a.places).describe() : "exact"},
                                {"cases", record}};
    write_file(a.json, json_text(doc, 1) + "\n", "the JSON report");
  }
  if (t.errors) return kExitError;
  return not_passed == 0 ? kExitPass : kExitFail;
}

}  // namespace

void add_goldens(CLI::App& app, int& rc) {
  CLI::App* sub = app.add_subcommand("goldens", "Goldens: expected scores with provenance");
  sub->require_subcommand(1);
  auto a = std::make_shared<CheckArgs>();
  CLI::App* ch = sub->add_subcommand("check", "Run every golden case and expected refusal; ends with 'N passed, M failed'");
  ch->add_option("--feature", a->features, "Feature (repeatable; default: every feature)");
  ch->add_option("--backend,-b", a->backend, "Backend (default: each feature's reference; else every feature that has it)");
  ch->add_option("--filter", a->filters, "Case id glob (repeatable; a leading - excludes)");
  ch->add_option("--shard", a->shard, "I/N: run case k of the selected cases in shard k mod N (as gate --shard)");
  ch->add_option("-j,--jobs", a->jobs, "Parallel cases (default: all cores; GPU backends run one at a time)");
  ch->add_flag("--skip-absent", a->skip_absent, "Report cases whose vector is not fetched as skipped instead of failed");
  ch->add_option("--device", a->device, "GPU ordinal")->capture_default_str();
  ch->add_option("--places", a->places, "Judge scored cases at places=N instead of exact (for non-exact twins)")
      ->check(CLI::Range(1, 15));
  ch->add_option("--json", a->json, "Also write every case's result (status, max |diff|, max ULP) as JSON");
  ch->callback([a, &rc] { rc = check(*a); });
}

}  // namespace twinproof::cli
