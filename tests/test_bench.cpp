// bench --json as a record of a run, and bench --compare: the verdicts against the noise both
// runs measured, the refusals of incomparable or malformed reports, and the command end to end.
#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "harness/bench/saved_runs.hpp"
#include "harness/io/frame.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/paths.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using nlohmann::json;
using twinproof::test::contains;
using twinproof::test::read_file;
using twinproof::test::run_cli;
using twinproof::test::TempDir;
using twinproof::test::write_file;

namespace {

json setup(int bitdepth = 8) {
  return {{"feature", "motion"},     {"bitdepth", bitdepth},      {"chroma", "420"}, {"frames", 32}, {"reps", 5},
          {"host_memory", "pinned"}, {"options", json::object()}, {"threads", 2},    {"device", 0}};
}

// A report of one size with backends (name, ms per frame, spread), each timed `reps` times.
json report(const std::vector<std::tuple<std::string, double, double>>& backends, unsigned reps = 5, int bitdepth = 8) {
  json list = json::array();
  for (const auto& [name, ms, spread] : backends)
    list.push_back({{"backend", name}, {"ms_per_frame", ms}, {"spread", spread}, {"device_ms_per_frame", nullptr}});
  return {{"setup", setup(bitdepth)}, {"sizes", {{{"size", "1920x1080"}, {"reps", reps}, {"backends", list}}}}};
}

// A raw file's bytes: `frames` frames with every sample set by fn(t, plane, x, y).
template <class Fn>
std::string raw_clip(const Format& fmt, unsigned frames, Fn fn) {
  std::string raw;
  for (unsigned t = 0; t < frames; ++t) {
    const Frame f = test::make_frame(fmt, [&](int p, int x, int y) { return fn(t, p, x, y); });
    raw += std::string(reinterpret_cast<const char*>(f.bytes()), f.size());
  }
  return raw;
}

const BenchChange& change_of(const BenchComparison& c, const std::string& backend) {
  for (const BenchChange& x : c.changes)
    if (x.backend == backend) return x;
  BOOST_FAIL("no change for " + backend);
  return c.changes.front();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bench)

BOOST_AUTO_TEST_CASE(a_change_is_judged_against_the_larger_spread_of_the_two_runs) {
  const BenchRun old_run =
      bench_run_from_json(report({{"cpu", 10.0, 0.05}, {"cpu-simd", 2.0, 0.01}, {"cuda", 0.2, 0.02}}), "old.json");
  const BenchRun new_run =
      bench_run_from_json(report({{"cpu", 10.4, 0.01}, {"cpu-simd", 2.1, 0.04}, {"cuda", 0.1, 0.01}}), "new");
  const BenchComparison c = compare_bench_runs(old_run, new_run);
  BOOST_REQUIRE_EQUAL(c.changes.size(), 3u);
  // 10.4 / 10 = 1.04 inside the old run's 5%; 2.1 / 2 = 1.05 beyond the new run's 4%;
  // 0.2 / 0.1 = 2 beyond 2% the other way.
  BOOST_TEST(change_of(c, "cpu").ratio == 1.04, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(change_of(c, "cpu").noise == 0.05);
  BOOST_TEST(bench_verdict_name(change_of(c, "cpu").verdict) == std::string("within noise"));
  BOOST_TEST(change_of(c, "cpu-simd").noise == 0.04);
  BOOST_TEST(bench_verdict_name(change_of(c, "cpu-simd").verdict) == std::string("SLOWER"));
  BOOST_TEST(bench_verdict_name(change_of(c, "cuda").verdict) == std::string("faster"));
  BOOST_TEST(c.slower());
  BOOST_TEST(c.unmatched.empty());
}

BOOST_AUTO_TEST_CASE(too_few_repetitions_measure_no_noise_and_fail_nothing) {
  const BenchRun old_run = bench_run_from_json(report({{"cpu", 10.0, 0.0}}, 1), "old.json");
  const BenchRun new_run = bench_run_from_json(report({{"cpu", 30.0, 0.0}}, 5), "new");
  const BenchComparison c = compare_bench_runs(old_run, new_run);
  BOOST_TEST(bench_verdict_name(change_of(c, "cpu").verdict) == std::string("noise unmeasured"));
  BOOST_TEST(change_of(c, "cpu").ratio == 3.0);
  BOOST_TEST(!c.slower());
}

BOOST_AUTO_TEST_CASE(backends_timed_in_one_run_only_are_listed_not_compared) {
  json old_json = report({{"cpu", 10.0, 0.0}, {"cuda", 0.2, 0.0}});
  old_json["sizes"][0]["backends"].push_back({{"backend", "cuda-block"}, {"refused", "no calibration row"}});
  const BenchRun old_run = bench_run_from_json(old_json, "old.json");
  BOOST_TEST(old_run.timings.size() == 2u);  // the refused backend carries no time
  const BenchRun new_run = bench_run_from_json(report({{"cpu", 10.0, 0.0}, {"cpu-simd", 2.0, 0.0}}), "new");
  const BenchComparison c = compare_bench_runs(old_run, new_run);
  BOOST_TEST(c.changes.size() == 1u);
  BOOST_REQUIRE_EQUAL(c.unmatched.size(), 2u);
  BOOST_TEST(c.unmatched[0] == "1920x1080 cpu-simd: only in this run");
  BOOST_TEST(c.unmatched[1] == "1920x1080 cuda: only in old.json");
}

BOOST_AUTO_TEST_CASE(runs_of_different_setups_are_refused_naming_the_field) {
  const BenchRun old_run = bench_run_from_json(report({{"cpu", 10.0, 0.0}}, 5, 8), "old.json");
  const BenchRun new_run = bench_run_from_json(report({{"cpu", 10.0, 0.0}}, 5, 10), "new");
  try {
    (void)compare_bench_runs(old_run, new_run);
    BOOST_FAIL("a comparison of 8-bit and 10-bit times was made");
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == "old.json");
    BOOST_TEST(e.field() == "setup.bitdepth");
    BOOST_TEST(e.value() == "8");
  }
}

BOOST_AUTO_TEST_CASE(a_malformed_report_is_refused_naming_the_field) {
  const auto refusal = [](const json& j) -> std::string {
    try {
      (void)bench_run_from_json(j, "r.json");
    } catch (const InputError& e) {
      return e.field();
    }
    return "(accepted)";
  };
  json no_setup = report({{"cpu", 1.0, 0.0}});
  no_setup.erase("setup");
  BOOST_TEST(refusal(no_setup) == "setup");
  json no_chroma = report({{"cpu", 1.0, 0.0}});
  no_chroma["setup"].erase("chroma");
  BOOST_TEST(refusal(no_chroma) == "setup.chroma");
  BOOST_TEST(refusal(report({{"cpu", -1.0, 0.0}})) == "sizes[0].backends[0].ms_per_frame");
  BOOST_TEST(refusal(report({{"cpu", 0.0, 0.0}})) == "sizes[0].backends[0].ms_per_frame");
  BOOST_TEST(refusal(report({{"cpu", 1.0, -0.5}})) == "sizes[0].backends[0].spread");
  json no_spread = report({{"cpu", 1.0, 0.0}});
  no_spread["sizes"][0]["backends"][0].erase("spread");
  BOOST_TEST(refusal(no_spread) == "sizes[0].backends[0].spread");
  BOOST_TEST(refusal(json::array()) == "bench");
  // An integer field of outside data is checked before it is converted.
  const TempDir dir;
  json huge_reps = report({{"cpu", 1.0, 0.0}});
  huge_reps["sizes"][0]["reps"] = 1e300;
  write_file(dir / "r.json", huge_reps.dump());
  try {
    (void)load_bench_run(dir / "r.json");
    BOOST_FAIL("reps 1e300 was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(e.field() == "sizes[0].reps");
    BOOST_TEST(contains(e.what(), "r.json"));
  }
}

BOOST_AUTO_TEST_CASE(bench_compare_end_to_end_flags_a_slowdown_and_refuses_another_setup) {
  const TempDir dir;
  const std::vector<std::string> bench = {"bench",    "--feature", "motion", "--backends", "cpu,cpu-simd", "--sizes", "64x48",
                                          "--frames", "3",         "--reps", "3"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = bench;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  };
  const auto first = with({"--json", (dir / "a.json").string()});
  BOOST_TEST_REQUIRE(first.rc == 0, first.out + first.err);
  const json a = json::parse(read_file(dir / "a.json"));
  BOOST_TEST(a["setup"]["feature"] == "motion");
  BOOST_TEST(a["sizes"][0]["backends"][0]["rep_ms_per_frame"].size() == 3u);
  BOOST_TEST(a["sizes"][0]["backends"][0]["spread"].get<double>() >= 0.0);

  // The old run made 1000 times slower: this run is faster, exit 0.
  json slow = a;
  for (json& b : slow["sizes"][0]["backends"]) b["ms_per_frame"] = b["ms_per_frame"].get<double>() * 1000;
  write_file(dir / "slow.json", slow.dump());
  const auto faster = with({"--compare", (dir / "slow.json").string()});
  BOOST_TEST(faster.rc == 0, faster.out + faster.err);
  BOOST_TEST(contains(faster.out, "faster"));
  BOOST_TEST(contains(faster.out, "compare: no backend slower"));

  // 1000 times faster: this run is slower beyond any noise, exit 1.
  json fast = a;
  for (json& b : fast["sizes"][0]["backends"]) b["ms_per_frame"] = b["ms_per_frame"].get<double>() / 1000;
  write_file(dir / "fast.json", fast.dump());
  const auto slower = with({"--compare", (dir / "fast.json").string()});
  BOOST_TEST(slower.rc == 1, slower.out + slower.err);
  BOOST_TEST(contains(slower.out, "SLOWER"));

  // Another bit depth: not comparable, exit 2 naming the file and the field, before any timing.
  json other = a;
  other["setup"]["bitdepth"] = 10;
  write_file(dir / "other.json", other.dump());
  const auto refused = with({"--compare", (dir / "other.json").string()});
  BOOST_TEST(refused.rc == 2, refused.out + refused.err);
  BOOST_TEST(contains(refused.err, "other.json: setup.bitdepth '10'"));
  BOOST_TEST(contains(refused.err, "not comparable"));
}

BOOST_AUTO_TEST_CASE(bench_from_file_times_whole_score_processes_against_the_read_bound) {
  // A raw 10-bit file of 6 frames: each backend is judged from its own process's scores, then
  // timed on the whole file and on its first two frames.
  const TempDir dir;
  write_file(dir / "clip.yuv", raw_clip({48, 32, 10, Chroma::c420}, 6, [](unsigned t, int p, int x, int y) {
               return (t * 37 + p * 100 + x * 9 + y * 5) % 1024;
             }));
  const auto ran = run_cli({"bench", "--from-file", (dir / "clip.yuv").string(), "--sizes", "48x32", "--bitdepth", "10",
                            "--chroma", "420", "--feature", "motion", "--backends", "cpu,cpu-simd", "--reps", "3", "--readers",
                            "2", "--json", (dir / "file.json").string()});
  BOOST_TEST_REQUIRE(ran.rc == 0, ran.out + ran.err);
  BOOST_TEST(contains(ran.out, "48x32 10-bit 4:2:0, 6 frames"));
  BOOST_TEST(contains(ran.out, "read bound:"));
  BOOST_TEST(contains(ran.out, "2 reader(s)"));
  const json j = json::parse(read_file(dir / "file.json"));
  BOOST_TEST(j["setup"]["host_memory"] == "from file, 2 reader(s), pinned");
  const json& size = j["sizes"][0];
  BOOST_TEST(size["frames"] == 6);
  BOOST_REQUIRE(size["read_bounds"].size() == 1u);  // both backends read with the 2 readers asked for
  BOOST_TEST(size["read_bounds"][0]["readers"] == 2);
  BOOST_TEST(size["read_bounds"][0]["read_ms"].get<double>() > 0.0);
  BOOST_TEST(size["read_bounds"][0]["rep_read_ms"].size() == 3u);
  BOOST_TEST(size["device_startup_ms"].is_null());  // no device backend was asked for
  BOOST_REQUIRE(size["backends"].size() == 2u);
  for (const json& b : size["backends"]) {
    BOOST_TEST(b["rep_whole_ms"].size() == 3u);
    BOOST_TEST(b["rep_prefix_ms"].size() == 3u);
    BOOST_TEST(b["whole_ms"].get<double>() > 0.0);
    BOOST_TEST(b["x_bound"].get<double>() == b["whole_ms"].get<double>() / b["bound_ms"].get<double>());
    BOOST_TEST(b["readers"] == 2);
    BOOST_TEST(b["bound_ms"] == size["read_bounds"][0]["read_ms"]);
    BOOST_TEST(contains(b["judged"].get<std::string>(), "exact"));
  }
  // The report compares with the in-memory bench's code: an old run 1000 times slower.
  json slow = j;
  for (json& b : slow["sizes"][0]["backends"]) b["ms_per_frame"] = b["ms_per_frame"].get<double>() * 1000;
  write_file(dir / "slow.json", slow.dump());
  const auto compared = run_cli({"bench", "--from-file", (dir / "clip.yuv").string(), "--sizes", "48x32", "--bitdepth", "10",
                                 "--chroma", "420", "--feature", "motion", "--backends", "cpu", "--reps", "3", "--readers", "2",
                                 "--compare", (dir / "slow.json").string()});
  BOOST_TEST(compared.rc == 0, compared.out + compared.err);
  BOOST_TEST(contains(compared.out, "faster"));
}

BOOST_AUTO_TEST_CASE(bench_from_file_gives_a_host_twin_one_reader_per_8_compute_threads_by_default) {
  // Without --readers, a host twin's threads are its compute: one reader per 8 of them (1 to 4),
  // and its read bound is measured with that many readers.
  const TempDir dir;
  write_file(dir / "clip.yuv", raw_clip({32, 16, 8, Chroma::c420}, 4, [](unsigned t, int p, int x, int y) {
               return (t * 31 + p * 70 + x * 5 + y * 11) % 256;
             }));
  for (const auto& [threads, readers] : {std::pair{"1", 1}, std::pair{"16", 2}, std::pair{"24", 3}, std::pair{"64", 4}}) {
    const auto ran =
        run_cli({"bench", "--from-file", (dir / "clip.yuv").string(), "--sizes", "32x16", "--bitdepth", "8", "--chroma", "420",
                 "--backends", "cpu", "--reps", "1", "--threads", threads, "--json", (dir / "file.json").string()});
    BOOST_TEST_REQUIRE(ran.rc == 0, ran.out + ran.err);
    BOOST_TEST(contains(ran.out, "each backend's readers"));
    const json j = json::parse(read_file(dir / "file.json"));
    const json& size = j["sizes"][0];
    BOOST_TEST(size["backends"][0]["readers"] == readers, threads << " threads");
    BOOST_REQUIRE(size["read_bounds"].size() == 1u);
    BOOST_TEST(size["read_bounds"][0]["readers"] == readers);
    BOOST_TEST(size["backends"][0]["bound_ms"] == size["read_bounds"][0]["read_ms"]);
  }
}

BOOST_AUTO_TEST_CASE(bench_from_file_times_an_exec_twins_program_alone_on_the_raw_file) {
  // An exec twin that reads raw frames (as libvmaf's vmaf tool does) is handed the file itself and
  // timed alone, beside cpu-simd's whole `score` processes; here the program is twinproof's own
  // reference, so its scores are exact. A twin whose program fails is refused, and the run fails.
  const TempDir dir;
  write_file(dir / "clip.yuv", raw_clip({40, 24, 8, Chroma::c420}, 5,
                                        [](unsigned t, int p, int x, int y) { return (t * 29 + p * 50 + x * 7 + y * 3) % 256; }));
  const auto twin = [](const std::string& name, const std::string& program) {
    return R"({"name": ")" + name + R"(", "features": ["float_motion"], "summary": "a raw-input twin", )" + program +
           R"(, "options": ["--option", "{name}={value}"], "input": "yuv", "output": {"format": "json", "from": "file"},
              "metrics": "twinproof", "timeout_s": 60})";
  };
  const std::string self = twin("raw-self", R"("executable": {"self": true}, "command": ["{exe}", "score", "{input}", "--width",
      "{width}", "--height", "{height}", "--pixfmt", "{chroma}", "--bitdepth", "{bitdepth}", "--feature", "{feature}", "--backend",
      "cpu", "{options}", "--json", "--output", "{output}"])");
  const std::string broken = twin(
      "raw-false",
      R"("executable": {"program": "sh"}, "command": ["{exe}", "-c", "echo no such luck >&2; exit 3", "{input}", "{output}"])");
  write_file(dir / "twins.json", R"({"schema": 1, "twins": [)" + self + ", " + broken + "]}");
  test::write_table_with_exact_rows(dir / "table.json", {"raw-self", "raw-false"});
  const auto bench = [&](const std::string& backends) {
    return run_cli({"--twins", (dir / "twins.json").string(), "bench", "--from-file", (dir / "clip.yuv").string(), "--sizes",
                    "40x24", "--feature", "float_motion", "--backends", backends, "--reps", "2", "--calibration",
                    (dir / "table.json").string(), "--json", (dir / "out.json").string()});
  };
  const auto ran = bench("cpu-simd,raw-self");
  BOOST_TEST_REQUIRE(ran.rc == 0, ran.out + ran.err);
  BOOST_TEST(contains(ran.out, "raw-self: its program alone, reading the file itself"));
  BOOST_TEST(contains(ran.out, "speed-up, whole run"));
  const json j = json::parse(read_file(dir / "out.json"));
  const json& rows = j["sizes"][0]["backends"];
  BOOST_REQUIRE(rows.size() == 2u);
  BOOST_TEST(rows[0]["timed"] == "whole twinproof score processes");
  BOOST_TEST(rows[1]["backend"] == "raw-self");
  BOOST_TEST(rows[1]["timed"] == "its program alone, on the file itself");
  BOOST_TEST(rows[1]["rep_whole_ms"].size() == 2u);
  BOOST_TEST(rows[1]["rep_prefix_ms"].size() == 2u);
  BOOST_TEST(rows[1]["whole_ms"].get<double>() > 0.0);
  BOOST_TEST(contains(rows[1]["judged"].get<std::string>(), "exact"));

  const auto failed = bench("cpu-simd,raw-false");
  BOOST_TEST(failed.rc == 1, failed.out + failed.err);
  BOOST_TEST(contains(failed.out, "REFUSED: raw-false exited with status 3"));
  BOOST_TEST(contains(failed.out, "no such luck"));
}

BOOST_AUTO_TEST_CASE(bench_from_file_scores_a_pair_of_files_and_reads_both_for_the_bound) {
  // psnr compares two clips: each `score` process is given the distorted file too, the read bound
  // reads both, and an exec twin's program is handed both files. twinproof's own reference through
  // the exec template makes the program here, so every twin is exact.
  const TempDir dir;
  const Format fmt{40, 24, 8, Chroma::c420};
  const auto sample = [](unsigned t, int p, int x, int y) { return (t * 29 + p * 50 + x * 7 + y * 3) % 256; };
  write_file(dir / "ref.yuv", raw_clip(fmt, 5, sample));
  write_file(dir / "dist.yuv",
             raw_clip(fmt, 5, [&](unsigned t, int p, int x, int y) { return (sample(t, p, x, y) + x % 3) % 256; }));
  write_file(dir / "short.yuv", raw_clip(fmt, 4, sample));
  write_file(dir / "twins.json",
             R"({"schema": 1, "twins": [{"name": "raw-pair", "features": ["psnr"], "summary": "a raw-input pair twin",
      "executable": {"self": true}, "command": ["{exe}", "score", "{reference}", "--distorted", "{distorted}", "--width", "{width}",
      "--height", "{height}", "--pixfmt", "{chroma}", "--bitdepth", "{bitdepth}", "--feature", "{feature}", "--backend", "cpu",
      "{options}", "--json", "--output", "{output}"], "options": ["--option", "{name}={value}"], "input": "yuv",
      "output": {"format": "json", "from": "file"}, "metrics": "twinproof", "timeout_s": 60}]})");
  test::write_table_with_exact_rows(dir / "table.json", {"raw-pair"}, "psnr");
  const auto bench = [&](const std::string& distorted) {
    return run_cli({"--twins",
                    (dir / "twins.json").string(),
                    "bench",
                    "--from-file",
                    (dir / "ref.yuv").string(),
                    "--distorted",
                    (dir / distorted).string(),
                    "--sizes",
                    "40x24",
                    "--feature",
                    "psnr",
                    "--backends",
                    "cpu-simd,raw-pair",
                    "--reps",
                    "2",
                    "--readers",
                    "1",
                    "--calibration",
                    (dir / "table.json").string(),
                    "--json",
                    (dir / "out.json").string()});
  };
  const auto ran = bench("dist.yuv");
  BOOST_TEST_REQUIRE(ran.rc == 0, ran.out + ran.err);
  BOOST_TEST(contains(ran.out, "against the distorted clip " + (dir / "dist.yuv").string()));
  BOOST_TEST(contains(ran.out, "to read both files"));
  const json j = json::parse(read_file(dir / "out.json"));
  BOOST_TEST(j["setup"]["distorted"] == (dir / "dist.yuv").string());
  const double clip_bytes = 5.0 * 40 * 24 * 3 / 2;
  BOOST_TEST(j["sizes"][0]["read_bytes"].get<double>() == 2 * clip_bytes);  // both clips, every plane psnr reads
  for (const json& b : j["sizes"][0]["backends"]) BOOST_TEST(contains(b["judged"].get<std::string>(), "exact"), b.dump());
  BOOST_TEST(j["sizes"][0]["backends"][1]["timed"] == "its program alone, on the file itself");
  // The pair's scores are not the equal pair's ceiling: the distorted file was read.
  const auto scored =
      run_cli({"score", (dir / "ref.yuv").string(), "--distorted", (dir / "dist.yuv").string(), "--width", "40", "--height", "24",
               "--pixfmt", "420", "--bitdepth", "8", "--feature", "psnr", "--json", "--output", (dir / "s.json").string()});
  BOOST_TEST_REQUIRE(scored.rc == 0, scored.out + scored.err);
  BOOST_TEST(json::parse(read_file(dir / "s.json"))["pooled_metrics"]["psnr_y"]["mean"].get<double>() < 60.0);
  // Clips of unequal length are refused before anything is timed, naming both files.
  const auto unequal = bench("short.yuv");
  BOOST_TEST(unequal.rc == 2, unequal.out + unequal.err);
  BOOST_TEST(contains(unequal.err, (dir / "short.yuv").string() + ": frames '4'"));
  BOOST_TEST(contains(unequal.err, (dir / "ref.yuv").string() + " holds more"));
  // The in-memory bench makes its own pair.
  const auto in_memory = run_cli({"bench", "--feature", "psnr", "--distorted", (dir / "dist.yuv").string()});
  BOOST_TEST(in_memory.rc == 2, in_memory.out + in_memory.err);
  BOOST_TEST(contains(in_memory.err, "--distorted names the second clip of --from-file"));
}

BOOST_AUTO_TEST_CASE(the_default_backends_are_the_built_in_ones) {
  // Outside twins (ffmpeg, the vmaf tool, exec-self, plugins) run only when named: a plain bench
  // times twinproof's own backends, wherever ffmpeg happens to be installed.
  const TempDir dir;
  const auto ran = run_cli({"bench", "--feature", "float_motion", "--sizes", "32x16", "--frames", "3", "--reps", "1", "--json",
                            (dir / "b.json").string()});
  BOOST_TEST_REQUIRE(ran.rc == 0, ran.out + ran.err);
  std::vector<std::string> names;
  const json report = json::parse(read_file(dir / "b.json"));
  for (const json& b : report["sizes"][0]["backends"]) names.push_back(b["backend"]);
  BOOST_TEST(names.size() >= 2u);
  for (const std::string& n : names) BOOST_TEST((n == "cpu" || n == "cpu-simd" || n.rfind("cuda", 0) == 0), n);
}

BOOST_AUTO_TEST_CASE(bench_from_file_refuses_what_it_cannot_judge) {
  const TempDir dir;
  const std::string raw = raw_clip({16, 8, 10, Chroma::c400}, 5,
                                   [](unsigned t, int, int x, int y) { return t == 3 && x == 2 && y == 1 ? 1024u : 500u + t; });
  write_file(dir / "bad.yuv", raw);
  // A sample above the 10-bit maximum: the reference refuses the file, and so does the bench.
  const auto bad = run_cli({"bench", "--from-file", (dir / "bad.yuv").string(), "--sizes", "16x8", "--bitdepth", "10", "--chroma",
                            "400", "--feature", "motion", "--backends", "cpu-simd", "--reps", "1"});
  BOOST_TEST(bad.rc == 2, bad.out + bad.err);
  BOOST_TEST(contains(bad.err, "frame 3 plane Y sample (2, 1)"));
  // Two frames are one pair: nothing is left once the two-frame prefix is taken away.
  write_file(dir / "short.yuv", raw.substr(0, 2 * 16 * 8 * 2));
  const auto short_clip = run_cli({"bench", "--from-file", (dir / "short.yuv").string(), "--sizes", "16x8", "--bitdepth", "10",
                                   "--chroma", "400", "--feature", "motion", "--reps", "1"});
  BOOST_TEST(short_clip.rc == 2, short_clip.out + short_clip.err);
  BOOST_TEST(contains(short_clip.err, "at least 3 frames"));
  // A raw file needs one size; a Y4M says its own.
  const auto two_sizes =
      run_cli({"bench", "--from-file", (dir / "bad.yuv").string(), "--sizes", "16x8,32x8", "--feature", "motion"});
  BOOST_TEST(two_sizes.rc == 2, two_sizes.out + two_sizes.err);
  BOOST_TEST(contains(two_sizes.err, "the raw file's one size WxH"));
}

BOOST_AUTO_TEST_SUITE_END()
