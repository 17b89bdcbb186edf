#include "harness/bench/saved_runs.hpp"

#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "harness/support/errors.hpp"
#include "harness/support/json_file.hpp"

namespace twinproof {
namespace {
using nlohmann::json;

double positive_time(const json& v, const std::string& file, const std::string& field, bool zero_allowed) {
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 || (!zero_allowed && v.get<double>() == 0))
    throw InputError(file, field, json_excerpt(v), zero_allowed ? "a finite number of at least 0" : "a finite number above 0");
  return v.get<double>();
}

const json& member(const json& object, const char* key, const std::string& file, const std::string& where) {
  const auto it = object.find(key);
  if (it == object.end()) throw InputError(file, where + key, "(missing)", "bench --json writes it");
  return *it;
}

}  // namespace

BenchRun bench_run_from_json(const json& j, const std::string& file) {
  if (!j.is_object()) throw InputError(file, "bench", json_excerpt(j), "a bench report is a JSON object");
  BenchRun run;
  run.file = file;
  const json& setup = member(j, "setup", file, "");
  if (!setup.is_object())
    throw InputError(file, "setup", json_excerpt(setup), "an object (a report from before bench --compare has none)");
  for (const char* key : kBenchSetupKeys) run.setup[key] = member(setup, key, file, "setup.");
  const json& env = j.value("environment", json::object());
  if (env.is_object()) {
    std::string where = env.value("cpu", std::string("?"));
    if (const auto d = env.find("devices"); d != env.end() && d->is_array() && !d->empty() && d->front().is_object())
      where = d->front().value("name", where);
    run.label = fmt::format("twinproof {}, {}, {}", env.value("git_commit", std::string("?")),
                            env.value("date", std::string("?")), where);
  }
  const json& sizes = member(j, "sizes", file, "");
  if (!sizes.is_array()) throw InputError(file, "sizes", json_excerpt(sizes), "an array");
  for (std::size_t s = 0; s < sizes.size(); ++s) {
    const json& size = sizes[s];
    const std::string at = fmt::format("sizes[{}].", s);
    if (!size.is_object()) throw InputError(file, "sizes[" + std::to_string(s) + "]", json_excerpt(size), "an object");
    const json& name = member(size, "size", file, at);
    if (!name.is_string()) throw InputError(file, at + "size", json_excerpt(name), "WxH as a string");
    const unsigned reps = json_integer<unsigned>(member(size, "reps", file, at), at + "reps");
    const json& list = member(size, "backends", file, at);
    if (!list.is_array()) throw InputError(file, at + "backends", json_excerpt(list), "an array");
    for (std::size_t b = 0; b < list.size(); ++b) {
      const json& e = list[b];
      const std::string where = fmt::format("{}backends[{}].", at, b);
      if (!e.is_object()) throw InputError(file, where, json_excerpt(e), "an object");
      const json& backend = member(e, "backend", file, where);
      if (!backend.is_string()) throw InputError(file, where + "backend", json_excerpt(backend), "a backend name");
      if (e.contains("refused")) continue;  // judged wrong or unable to run: no time to compare
      BenchTiming t;
      t.size = name.get<std::string>();
      t.backend = backend.get<std::string>();
      t.reps = reps;
      t.ms_per_frame = positive_time(member(e, "ms_per_frame", file, where), file, where + "ms_per_frame", false);
      t.spread = positive_time(member(e, "spread", file, where), file, where + "spread", true);
      if (const json& d = member(e, "device_ms_per_frame", file, where); !d.is_null())
        t.device_ms_per_frame = positive_time(d, file, where + "device_ms_per_frame", false);
      run.timings.push_back(std::move(t));
    }
  }
  return run;
}

BenchRun load_bench_run(const std::filesystem::path& file) {
  const json j = read_json_file(file, "the bench report");
  return walking_json_file(file.string(), [&] { return bench_run_from_json(j, file.string()); });
}

const char* bench_verdict_name(BenchVerdict v) {
  switch (v) {
    case BenchVerdict::slower: return "SLOWER";
    case BenchVerdict::faster: return "faster";
    case BenchVerdict::within_noise: return "within noise";
    case BenchVerdict::noise_unmeasured: return "noise unmeasured";
  }
  return "?";
}

bool BenchComparison::slower() const {
  for (const BenchChange& c : changes)
    if (c.verdict == BenchVerdict::slower) return true;
  return false;
}

BenchComparison compare_bench_runs(const BenchRun& old_run, const BenchRun& new_run) {
  for (const char* key : kBenchSetupKeys)
    if (old_run.setup.value(key, json()) != new_run.setup.value(key, json()))
      throw InputError(
          old_run.file, std::string("setup.") + key, old_run.setup.value(key, json()).dump(),
          fmt::format("this run has {}: times of different setups are not comparable", new_run.setup.value(key, json()).dump()));
  std::map<std::pair<std::string, std::string>, const BenchTiming*> old_by_key;
  for (const BenchTiming& t : old_run.timings) old_by_key[{t.size, t.backend}] = &t;
  BenchComparison out;
  for (const BenchTiming& n : new_run.timings) {
    const auto it = old_by_key.find({n.size, n.backend});
    if (it == old_by_key.end()) {
      out.unmatched.push_back(fmt::format("{} {}: only in this run", n.size, n.backend));
      continue;
    }
    const BenchTiming& o = *it->second;
    old_by_key.erase(it);
    BenchChange c;
    c.size = n.size;
    c.backend = n.backend;
    c.old_ms = o.ms_per_frame;
    c.new_ms = n.ms_per_frame;
    c.ratio = n.ms_per_frame / o.ms_per_frame;
    c.noise = std::max(o.spread, n.spread);
    c.old_device_ms = o.device_ms_per_frame;
    c.new_device_ms = n.device_ms_per_frame;
    if (o.reps < kBenchMinRepsForNoise || n.reps < kBenchMinRepsForNoise) c.verdict = BenchVerdict::noise_unmeasured;
    else if (c.ratio > 1 + c.noise) c.verdict = BenchVerdict::slower;
    else if (1 / c.ratio > 1 + c.noise) c.verdict = BenchVerdict::faster;
    else c.verdict = BenchVerdict::within_noise;
    out.changes.push_back(c);
  }
  for (const auto& [key, t] : old_by_key)
    out.unmatched.push_back(fmt::format("{} {}: only in {}", key.first, key.second, old_run.file));
  return out;
}

}  // namespace twinproof
