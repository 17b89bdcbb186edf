// Twins twinproof did not write: score files of other tools, the printed calibration mode, twins
// files, exec twins end to end (twinproof itself, ffmpeg) and every way an external program can fail.
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>
#include <boost/test/unit_test.hpp>

#include "extractors/feature.hpp"
#include "harness/calibration/table.hpp"
#include "harness/exec/twins_file.hpp"
#include "harness/gate/calibrate.hpp"
#include "harness/gate/gate.hpp"
#include "harness/gate/matrix.hpp"
#include "harness/io/score_files.hpp"
#include "harness/report/vmaf_output.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/paths.hpp"
#include "harness/support/process.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using twinproof::test::contains;
using twinproof::test::run_cli;
using twinproof::test::TempDir;
namespace fs = std::filesystem;

namespace {

// A table whose values need all 17 digits, a NaN and a value below 1e-6.
ScoreTable awkward_table() {
  ScoreTable t;
  t.set_frames(0, 3);
  t.put("motion", 0, 0.0);
  t.put("motion", 1, 28.920629501342773);
  t.put("motion", 2, 0.1 + 0.2);
  t.put("motion2", 0, 3.4e-7);
  t.put("motion2", 1, std::nextafter(1.0, 2.0));
  t.put("motion2", 2, std::numeric_limits<double>::quiet_NaN());
  return t;
}

std::string field_of_error(const std::string& text, ScoreFileFormat f) {
  try {
    parse_score_file(text, f, "out.file");
  } catch (const InputError& e) {
    return e.field();
  }
  return "(no error)";
}

fs::path write_twins(const TempDir& dir, const std::string& twins_json) {
  const fs::path p = dir / "twins.json";
  test::write_file(p, R"({"schema": 1, "twins": [)" + twins_json + "]}");
  return p;
}

// The field and value a twins file is refused by, or "(loaded)".
std::string twins_file_field(const TempDir& dir, const std::string& twins_json) {
  try {
    load_twins_file(write_twins(dir, twins_json));
  } catch (const InputError& e) {
    return e.field() + " " + e.value();
  }
  return "(loaded)";
}

// A float_motion twin run by sh: `script` gets the input as $0 and the output file as $1.
std::string sh_twin(const std::string& name, const std::string& script, const std::string& extra = "") {
  return fmt::format(R"({{"name": "{}", "features": ["float_motion"], "summary": "test", "executable": {{"program": "sh"}},
    "command": ["{{exe}}", "-c", {}, "{{input}}", "{{output}}"], "options": "none", "output": {{"format": "csv"}},
    "metrics": {{"motion": "motion"}}{}}})",
                     name, nlohmann::json(script).dump(), extra);
}

// A float_motion matrix of one twin over `vectors` at their native formats and default options.
fs::path write_one_twin_matrix(const TempDir& dir, const std::string& twin, const std::string& vectors) {
  const fs::path p = dir / "matrix.json";
  test::write_file(p, fmt::format(R"({{"schema": 2, "name": "{0}", "feature": "float_motion", "reference": "cpu",
    "option_sets": {{"default": {{}}}}, "axes": {{"twin": ["{0}"], "vector": [{1}], "bitdepth": ["native"],
    "chroma": ["native"], "options": ["default"]}}, "include": [], "exclude": []}})",
                                  twin, vectors));
  return p;
}

// Runs one exec twin of a twins file over a cell, as the gate does, without registering it.
Outcome run_exec(const ExecTwinSpec& spec, const Cell& cell) {
  const auto shared = std::make_shared<const ExecTwinSpec>(spec);
  Backend b{cell.feature,
            "test-exec",
            BackendKind::host,
            false,
            "test",
            [shared] { return exec_twin_availability(*shared); },
            [shared, f = cell.feature](const ExtractorContext& ctx) { return make_exec_twin(shared, f, ctx); }};
  return run_backend(b, cell, {}, 0);
}

// A psnr pair cell of the gate: pan576 against its noise4 distortion.
Cell psnr_pair_cell() {
  return filter_cells(load_matrix(data_root() / "ci" / "matrices" / "gate.json").cells, {"psnr/cpu/pan576~noise4/8b/420/default"})
      .at(0);
}

Cell flash_cell() {
  return filter_cells(load_matrix(data_root() / "ci" / "matrices" / "gate.json").cells,
                      {"float_motion/cpu/flash64/8b/420/default"})
      .at(0);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(score_files)

BOOST_AUTO_TEST_CASE(libvmaf_shapes_give_back_the_exact_doubles) {
  const ScoreTable t = awkward_table();
  VmafDocument doc;
  doc.table = &t;
  doc.columns = {{"motion", "float_motion"}, {"motion2", "float_motion2"}};
  doc.version = "test";
  for (const VmafFormat f : {VmafFormat::json, VmafFormat::xml, VmafFormat::csv}) {
    const std::string text = render_vmaf(doc, f, NumberStyle::exact);
    const ScoreFile back = parse_score_file(text,
                                            *parse_score_file_format(f == VmafFormat::json  ? "json"
                                                                     : f == VmafFormat::xml ? "xml"
                                                                                            : "csv"),
                                            "x");
    BOOST_TEST(back.frames == (std::vector<long long>{0, 1, 2}));
    for (unsigned i = 0; i < 3; ++i) {
      BOOST_TEST(std::bit_cast<std::uint64_t>(back.values.at("float_motion").at(i)) ==
                 std::bit_cast<std::uint64_t>(*t.get("motion", i)));
      const double m2 = back.values.at("float_motion2").at(i);
      if (i == 2) BOOST_TEST(std::isnan(m2));  // JSON null, "nan": a value that never passes
      else BOOST_TEST(std::bit_cast<std::uint64_t>(m2) == std::bit_cast<std::uint64_t>(*t.get("motion2", i)));
    }
  }
  // A hex float is read exactly; a %.6f value is read as what it says.
  const ScoreFile csv = parse_score_file("Frame,m,\n0,0x1.cebae6p+4,\n1,28.920630,\n", ScoreFileFormat::libvmaf_csv, "x");
  BOOST_TEST(csv.values.at("m").at(0) == 28.920629501342773);
  BOOST_TEST(csv.values.at("m").at(1) == 28.92063);
  const ScoreFile ff = parse_score_file("n:1 motion:0.00\nn:2 motion:28.92\n", ScoreFileFormat::ffmpeg_vmafmotion, "x");
  BOOST_TEST(ff.frames == (std::vector<long long>{1, 2}));
  BOOST_TEST(ff.values.at("motion").at(2) == 28.92);
}

BOOST_AUTO_TEST_CASE(malformed_files_name_the_field) {
  using F = ScoreFileFormat;
  BOOST_TEST(field_of_error("{\"frames\": 3}", F::libvmaf_json) == "frames");
  BOOST_TEST(field_of_error(R"({"frames": [{"frameNum": 0, "metrics": {"m": "x"}}]})", F::libvmaf_json) == "frames[0].metrics.m");
  BOOST_TEST(field_of_error(R"({"frames": [{"frameNum": 0, "metrics": {}}, {"frameNum": 0, "metrics": {}}]})", F::libvmaf_json) ==
             "frames[1].frameNum");
  BOOST_TEST(field_of_error("not json", F::libvmaf_json) == "document");
  BOOST_TEST(field_of_error("<VMAF><frames><frame frameNum=\"0\" m=\"1.5x\"/></frames></VMAF>", F::libvmaf_xml) ==
             "frames/frame[0]@m");
  BOOST_TEST(field_of_error("<VMAF></VMAF>", F::libvmaf_xml) == "VMAF/frames");
  BOOST_TEST(field_of_error("Frame,m,\n0,1,2,\n", F::libvmaf_csv) == "line 2");
  BOOST_TEST(field_of_error("Frame,m,\n-1,1,\n", F::libvmaf_csv) == "line 2 Frame");
  BOOST_TEST(field_of_error("n:1 motion=3\n", F::ffmpeg_vmafmotion) == "line 1");
  BOOST_TEST(field_of_error("n:1 motion:\n", F::ffmpeg_vmafmotion) == "line 1 motion");
}

BOOST_AUTO_TEST_CASE(printed_mode_proves_only_what_the_text_says) {
  const Tolerance vmaf = Tolerance::printed_as("vmaf");
  BOOST_TEST(vmaf.describe() == "printed(vmaf)");
  BOOST_TEST(compare_values(28.920629501342773, 28.92063, vmaf).pass);
  BOOST_TEST(!compare_values(28.920629501342773, 28.920631, vmaf).pass);
  BOOST_TEST(compare_values(28.920629501342773, 28.920631, vmaf).note == "the reference prints as 28.920630");
  BOOST_TEST(compare_values(3.4e-7, 0.0000003400000000, vmaf).pass);  // %.16f below 1e-6
  BOOST_TEST(!compare_values(std::nan(""), std::nan(""), vmaf).pass);
  BOOST_TEST(compare_values(28.92063, 28.92, Tolerance::printed_as("%.2f")).pass);
  BOOST_TEST(!compare_values(28.8877, 28.90, Tolerance::printed_as("%.2f")).pass);
  BOOST_CHECK_THROW(Tolerance::printed_as("%n"), std::invalid_argument);
  BOOST_CHECK_THROW(Tolerance::printed_as("%.6f%s"), std::invalid_argument);
  BOOST_TEST(Tolerance::printed_as("%.6f").looser_than(Tolerance::exact()));
  BOOST_TEST(Tolerance::at_places(4).looser_than(Tolerance::printed_as("vmaf")));
  // In the table: a printed row names its format; nothing else has one.
  const auto load_row = [](const std::string& row) {
    try {
      Calibration::from_json(nlohmann::json::parse(R"({"rows":[)" + row + "]}"), "t.json");
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("(loaded)");
  };
  const std::string key = R"("feature":"float_motion","reference":"cpu","twin":"vmaf","reason":"r","provenance":{"by":"t"},)";
  BOOST_TEST(load_row("{" + key + R"("mode":"printed","format":"vmaf"})") == "(loaded)");
  BOOST_TEST(load_row("{" + key + R"("mode":"printed"})") == "rows[0].format");
  BOOST_TEST(load_row("{" + key + R"("mode":"printed","format":"%s"})") == "rows[0].format");
  BOOST_TEST(load_row("{" + key + R"("mode":"exact","format":"vmaf"})") == "rows[0].format");
}

BOOST_AUTO_TEST_CASE(compare_judges_two_files_with_the_gates_rules) {
  TempDir dir;
  test::write_file(dir / "a.csv", "Frame,motion,\n0,0,\n1,28.920629501342773,\n");
  test::write_file(
      dir / "b.json",
      R"({"frames": [{"frameNum": 0, "metrics": {"motion": 0}}, {"frameNum": 1, "metrics": {"motion": 28.92063}}]})");
  test::write_file(dir / "c.txt", "n:0 motion:0.00\nn:1 motion:28.92\n");
  const std::string a = (dir / "a.csv").string(), b = (dir / "b.json").string(), c = (dir / "c.txt").string();
  const auto exact = run_cli({"compare", a, b});
  BOOST_TEST(exact.rc == 1);
  BOOST_TEST(contains(exact.out, "frame 1 motion: expected 28.920629501342773 (0x1.cebae6p+4), got 28.920629999999999"),
             exact.out);
  BOOST_TEST(contains(exact.out, "FAIL: 1 of 2 values differ"));
  BOOST_TEST(run_cli({"compare", a, b, "--tolerance", "printed=vmaf"}).rc == 0);
  BOOST_TEST(run_cli({"compare", a, b, "--tolerance", "places=6"}).rc == 0);
  BOOST_TEST(run_cli({"compare", a, c, "--tolerance", "places=2"}).rc == 2);  // .txt: the format is not known
  BOOST_TEST(run_cli({"compare", a, c, "--format", "vmafmotion"}).rc == 2);   // a.csv is not a vmafmotion file
  BOOST_TEST(run_cli({"compare", a, b, "--tolerance", "places=0"}).rc == 2);
  BOOST_TEST(run_cli({"compare", a, (dir / "none.json").string()}).rc == 2);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(exec_twins)

BOOST_AUTO_TEST_CASE(twins_files_are_checked_when_read) {
  TempDir dir;
  const auto field_of = [&](const std::string& twin) { return twins_file_field(dir, twin); };
  BOOST_TEST(field_of(sh_twin("ok", "true")) == "(loaded)");
  BOOST_TEST(field_of(sh_twin("Bad Name", "true")) == "twins[0].name Bad Name");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "timeout_s": -1)")) == "twins[0].timeout_s -1");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "bitdepths": [9])")) == "twins[0].bitdepths 9");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "colour": 1)")) == "twins[0].colour colour");
  BOOST_TEST(contains(field_of(R"({"name": "x", "features": ["float_motion"], "summary": "s", "executable": {"program": "sh"},
    "command": ["{exe}", "{inptu}", "{output}"], "output": {"format": "csv"}})"),
                      "twins[0].command[1] {inptu}"));
  BOOST_TEST(field_of(R"({"name": "x", "features": ["float_motion"], "summary": "s", "executable": {"program": "sh"},
    "command": ["{exe}", "{output}"], "output": {"format": "csv"}})") == "twins[0].command 2 words");
  BOOST_TEST(field_of(R"({"name": "x", "features": ["float_vif"], "summary": "s", "executable": {"program": "sh"},
    "command": ["{input}", "{output}"], "output": {"format": "csv"}})") == "twins[0].features[0] \"float_vif\"");
  const std::string bad_metric =
      field_of(R"({"name": "x", "features": ["float_motion"], "summary": "s", "executable": {"program": "sh"},
    "command": ["{exe}", "{input}", "{output}"], "output": {"format": "csv"}, "metrics": {"m": "motion9"}})");
  BOOST_TEST(bad_metric == "twins[0].metrics.m motion9");
  // Two keys of a program for one metric: which to judge would be a guess.
  BOOST_TEST(field_of(R"({"name": "x", "features": ["float_motion"], "summary": "s", "executable": {"program": "sh"},
    "command": ["{exe}", "{input}", "{output}"], "output": {"format": "csv"}, "metrics": {"a": "motion", "b": "motion"}})") ==
             "twins[0].metrics.b motion");
  // A key given twice in one object is refused, never read as whichever came last.
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "metrics": {"m": "motion"})")) == "twins[0].metrics (given twice)");
  BOOST_TEST(field_of(sh_twin("x", "true") + "," + sh_twin("x", "true")) == "twins[1].name x");
  // A feature's own metrics and ignored options name one of the twin's features.
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "metrics_by_feature": {"float_motion": "libvmaf-collector"})")) == "(loaded)");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "metrics_by_feature": {"vif": "libvmaf"})")) ==
             "twins[0].metrics_by_feature.vif vif");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "metrics_by_feature": {"float_motion": {"k": "vif_scale0"}})")) ==
             "twins[0].metrics_by_feature.float_motion.k vif_scale0");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "metrics_by_feature": {"float_motion": "libvmaf-keys"})")) ==
             "twins[0].metrics_by_feature.float_motion libvmaf-keys");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "ignores_options": {"float_motion": "motion_add_uv"})")) ==
             "twins[0].ignores_options.float_motion \"motion_add_uv\"");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "ignores_options": {"psnr": ["enable_mse"]})")) ==
             "twins[0].ignores_options.psnr psnr");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "unnamed_options": {"float_motion": [""]})")) ==
             "twins[0].unnamed_options.float_motion \"\"");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "unnamed_options": {"psnr": ["enable_mse"]})")) ==
             "twins[0].unnamed_options.psnr psnr");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "provides": {"float_motion": []})")) ==
             "twins[0].provides.float_motion an array of 0");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "provides": {"float_motion": ["motion9"]})")) ==
             "twins[0].provides.float_motion \"motion9\"");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "provides": {"vif": ["vif_scale0"]})")) == "twins[0].provides.vif vif");
  // A feature's own command names what the twin's does; a probe runs the program with literal words.
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "commands_by_feature": {"float_motion": ["{exe}", "{output}"]})")) ==
             "twins[0].commands_by_feature.float_motion 2 words");
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "probe": {"command": ["{exe}", "{width}"], "contains": "a", "reason": "r"})")) ==
             "twins[0].probe.command[1] {width}");
}

BOOST_AUTO_TEST_CASE(a_programs_settings_are_variants_each_a_twin_of_its_own) {
  TempDir dir;
  const std::string with_variant = R"(, "command": ["{exe}", "-c", "true", "{input}", "{output}", "{variant}"])";
  const auto twin = [&](const std::string& variants) {
    std::string t = sh_twin("base", "true", ", \"variants\": " + variants);
    // sh_twin's command without {variant}, replaced by one with it.
    const auto at = t.find("\"command\"");
    const auto end = t.find(']', at);
    return t.substr(0, at) + with_variant.substr(2) + t.substr(end + 1);
  };
  const auto field_of = [&](const std::string& t) { return twins_file_field(dir, t); };
  const auto specs = load_twins_file(write_twins(dir, twin(R"([{"name": "base-c", "summary": "C", "words": ["--mask", "-1"]},
      {"name": "base-t", "summary": "threads", "words": ["--threads", "{host_threads}"], "requires_cpu": ["sse2"]}])")));
  BOOST_TEST_REQUIRE(specs.size() == 3u);
  BOOST_TEST(specs[0].name == "base");
  BOOST_TEST(specs[0].variant_words.empty());
  BOOST_TEST(specs[1].name == "base-c");
  BOOST_TEST((specs[1].variant_words == std::vector<std::string>{"--mask", "-1"}));
  BOOST_TEST(specs[1].summary == "C");
  BOOST_TEST((specs[2].required_cpu == std::vector<std::string>{"sse2"}));
  BOOST_TEST((specs[2].command == specs[0].command));  // the rest is the declared twin's
  // A variant needs the command's {variant}, names the twin's features, known CPU features, a new name.
  BOOST_TEST(field_of(sh_twin("x", "true", R"(, "variants": [{"name": "x-c", "summary": "s", "words": ["a"]}])")) ==
             "twins[0].command 5 words");
  BOOST_TEST(field_of(twin(R"([{"name": "b", "summary": "s", "words": ["a"], "features": ["psnr"]}])")) ==
             "twins[0].variants[0].features \"psnr\"");
  BOOST_TEST(field_of(twin(R"([{"name": "b", "summary": "s", "words": ["a"], "requires_cpu": ["avx1024"]}])")) ==
             "twins[0].variants[0].requires_cpu \"avx1024\"");
  BOOST_TEST(field_of(twin(R"([{"name": "base", "summary": "s", "words": ["a"]}])")) == "twins[0].name base");
  BOOST_TEST(field_of(twin(R"([{"name": "b", "summary": "s", "words": ["{options}"]}])")) ==
             "twins[0].variants[0].words {options}");

  // The shipped libvmaf settings: the C path, AVX2, AVX-512 and the thread pool, each its own twin
  // with its calibration row; psnr (no SIMD path in libvmaf) has none of them.
  const auto shipped = load_twins_file(data_root() / "ci" / "twins" / "libvmaf.json");
  const Calibration table = Calibration::load(data_root() / "ci" / "calibration.json");
  for (const char* name : {"libvmaf-c", "libvmaf-avx2", "libvmaf-avx512", "libvmaf-threads"}) {
    const auto v = std::find_if(shipped.begin(), shipped.end(), [&](const ExecTwinSpec& t) { return t.name == name; });
    BOOST_TEST_REQUIRE((v != shipped.end()), name);
    BOOST_TEST((std::find(v->features.begin(), v->features.end(), "psnr") == v->features.end()), name);
    for (const std::string& f : v->features) BOOST_TEST(table.has_twin(f, "cpu", name), f << "/" << name);
  }
  // A variant the host's CPU cannot run is not supported here, by name; one it can is available.
  for (const ExecTwinSpec& v : shipped) {
    bool host_can = true;
    for (const std::string& c : v.required_cpu) host_can = host_can && host_has_cpu_feature(c);
    ExecTwinSpec found = v;
    found.locate = ExecTwinSpec::Locate::program;
    found.locate_value = "sh";  // the program is there: only the CPU decides
    const Availability a = exec_twin_availability(found);
    BOOST_TEST(a.available == host_can, v.name << ": " << a.reason);
    if (!host_can) BOOST_TEST(contains(a.reason, "needs a CPU with avx"), a.reason);
  }
  BOOST_TEST(host_has_cpu_feature("sse2"));  // every x86-64
  BOOST_TEST(!host_has_cpu_feature("no-such-feature"));
}

BOOST_AUTO_TEST_CASE(a_program_without_what_the_twin_needs_is_not_supported) {
  TempDir dir;
  const Cell cell = flash_cell();
  // The probe: a program whose output to a command lacks a text cannot run the twin.
  const auto probed = [&](const std::string& contains_text) {
    return load_twins_file(
               write_twins(
                   dir,
                   sh_twin("p", R"(printf 'Frame,motion,\n' > "$1"; for i in 0 1 2 3 4 5 6 7; do echo "$i,0," >> "$1"; done)",
                           R"(, "probe": {"command": ["{exe}", "-c", "echo filters: vmafmotion libvmaf"], "contains": )" +
                               nlohmann::json(contains_text).dump() + R"(, "reason": "no such filter"})")))
        .at(0);
  };
  const Availability has = exec_twin_availability(probed(" libvmaf"));
  BOOST_TEST(has.available, has.reason);
  const Availability lacks = exec_twin_availability(probed(" zscale"));
  BOOST_TEST(!lacks.available);
  BOOST_TEST(contains(lacks.reason, "p: no such filter ("), lacks.reason);
  BOOST_TEST(contains(lacks.reason, "sh -c 'echo filters: vmafmotion libvmaf' prints no ' zscale')"), lacks.reason);
  BOOST_CHECK_THROW(
      load_twins_file(
          write_twins(dir, sh_twin("q", "true", R"(, "probe": {"command": ["rm", "-f", "x"], "contains": "a", "reason": "r"})"))),
      InputError);  // a probe runs the twin's program alone
  const Outcome o = run_exec(probed(" zscale"), cell);
  BOOST_TEST((o.kind == Outcome::Kind::not_supported), o.message);
  // Debian's ffmpeg has no libvmaf filter: the shipped ffmpeg-libvmaf twin says so.
  const auto ffmpeg = load_twins_file(data_root() / "ci" / "twins" / "ffmpeg.json");
  const auto lavfi = std::find_if(ffmpeg.begin(), ffmpeg.end(), [](const ExecTwinSpec& t) { return t.name == "ffmpeg-libvmaf"; });
  BOOST_TEST_REQUIRE((lavfi != ffmpeg.end()));
  BOOST_TEST(lavfi->probe.has_value());
  if (!find_program("ffmpeg").empty()) {
    const Availability a = exec_twin_availability(*lavfi);
    if (!a.available) BOOST_TEST(contains(a.reason, "this ffmpeg has no libvmaf filter"), a.reason);
  }
  // A program that says it did something else (a CUDA build falling back to the CPU) is not supported, never judged.
  const auto said =
      load_twins_file(
          write_twins(
              dir,
              sh_twin(
                  "s",
                  R"(echo 'problem during vmaf_cuda_state_init, using CPU' >&2; printf 'Frame,motion,\n' > "$1"; for i in 0 1 2 3 4 5 6 7; do echo "$i,0," >> "$1"; done)",
                  R"(, "unsupported_if_said": "using CPU")")))
          .at(0);
  const Outcome fell_back = run_exec(said, cell);
  BOOST_TEST((fell_back.kind == Outcome::Kind::not_supported), fell_back.message);
  BOOST_TEST(contains(fell_back.message, "said 'problem during vmaf_cuda_state_init, using CPU'"), fell_back.message);
}

BOOST_AUTO_TEST_CASE(a_model_is_handed_to_libvmafs_tools_as_they_load_one) {
  TempDir dir;
  // {libvmaf_model} is the vmaf feature's model as the vmaf tool's --model and ffmpeg's model= take it.
  const FeatureDescriptor& vmaf = feature_or_throw("vmaf");
  BOOST_TEST_REQUIRE(vmaf.libvmaf_model != nullptr);
  BOOST_TEST(vmaf.libvmaf_model({}) == "version=vmaf_v0.6.1");
  BOOST_TEST(vmaf.libvmaf_model({{"model", "vmaf_v0.6.1neg"}, {"disable_clip", "true"}}) ==
             "version=vmaf_v0.6.1neg:disable_clip=true");
  BOOST_TEST(vmaf.libvmaf_model({{"model", "/m/x.json"}, {"vmaf_foo", "1"}}) ==
             "path=/m/x.json:vmaf_foo=1");  // as given: the tool answers
  BOOST_TEST(feature_or_throw("psnr").libvmaf_model == nullptr);
  // A command that loads a model for a feature that is not one is refused when read.
  try {
    load_twins_file(write_twins(
        dir,
        sh_twin("m", "true",
                R"(, "commands_by_feature": {"float_motion": ["{exe}", "--model", "{libvmaf_model}", "{input}", "{output}"]})")));
    BOOST_FAIL("loaded");
  } catch (const InputError& e) {
    BOOST_TEST(e.field() == "twins[0].commands_by_feature.float_motion");
    BOOST_TEST(contains(e.what(), "is not a model"));
  }
  // The shipped vmaf tool twin scores a model with --model, a feature with --feature.
  const auto tool = load_twins_file(data_root() / "ci" / "twins" / "vmaf.json");
  BOOST_TEST_REQUIRE(tool.size() == 3u);  // vmaf, vmaf-threads, vmaf-cuda
  const std::vector<std::string>& model_command = tool[0].command_of("vmaf");
  BOOST_TEST((std::find(model_command.begin(), model_command.end(), "{libvmaf_model}") != model_command.end()));
  BOOST_TEST((std::find(model_command.begin(), model_command.end(), "--no_prediction") == model_command.end()));
  BOOST_TEST((std::find(tool[0].command_of("psnr").begin(), tool[0].command_of("psnr").end(), "--no_prediction") !=
              tool[0].command_of("psnr").end()));
  BOOST_TEST(tool[2].name == "vmaf-cuda");
  BOOST_TEST(tool[2].unsupported_if_said == "using CPU");
  // The filter form escapes the model's ':' for an ffmpeg filtergraph: an sh twin prints its argument.
  const Cell cell = filter_cells(load_matrix(data_root() / "ci" / "matrices" / "libvmaf.json").cells,
                                 {"vmaf/libvmaf/pan576~noise4/8b/420/noclip_transform"})
                        .at(0);
  const ExecTwinSpec echo =
      load_twins_file(write_twins(dir, R"({"name": "e", "features": ["vmaf"], "summary": "s", "executable": {"program": "sh"},
      "command": ["{exe}", "-c", "printf '%s' \"$0\" >&2; exit 3", "model={libvmaf_model_filter}", "{reference}", "{distorted}"], "options": "libvmaf",
      "output": {"format": "json", "from": "stdout"}, "metrics": "libvmaf"})"))
          .at(0);
  const Outcome said = run_exec(echo, cell);
  BOOST_TEST(contains(said.message, R"(it said: model=version=vmaf_v0.6.1neg\\:disable_clip=true\\:enable_transform=true)"),
             said.message);
}

BOOST_AUTO_TEST_CASE(a_rerun_command_finds_an_outside_program_again) {
  // repro's rerun line and the gate's recap name the program a variable pointed at, with the
  // option that sets it: pasted elsewhere they find the same program.
  const auto tool = load_twins_file(data_root() / "ci" / "twins" / "vmaf.json");
  BOOST_TEST_REQUIRE(tool.size() == 3u);
  const char* before = std::getenv("TWINPROOF_VMAF");
  const std::string saved = before ? before : "";
  ::setenv("TWINPROOF_VMAF", "/opt/libvmaf it's/bin/vmaf", 1);
  BOOST_TEST(exec_twin_rerun_args(tool[0], true) == R"(--vmaf '/opt/libvmaf it'\''s/bin/vmaf')");
  BOOST_TEST(exec_twin_rerun_args(tool[1], true) ==
             R"(--vmaf '/opt/libvmaf it'\''s/bin/vmaf')");  // a variant finds its program the same way
  BOOST_TEST(exec_twin_rerun_args(tool[0], false) ==
             shell_words({"--twins", tool[0].file, "--vmaf", "/opt/libvmaf it's/bin/vmaf"}));  // a user's file: both
  BOOST_TEST((split_shell_words(exec_twin_rerun_args(tool[0], true)) ==
              std::vector<std::string>{"--vmaf", "/opt/libvmaf it's/bin/vmaf"}));
  ::unsetenv("TWINPROOF_VMAF");
  BOOST_TEST(exec_twin_rerun_args(tool[0], true).empty());  // nothing to find it with: nothing said
  BOOST_TEST(exec_twin_rerun_args(tool[2], true).empty());  // vmaf-cuda: TWINPROOF_VMAF_CUDA unset here
  if (before) ::setenv("TWINPROOF_VMAF", saved.c_str(), 1);
  BOOST_CHECK_THROW(split_shell_words("--twins 'open"), std::invalid_argument);
  TempDir dir;
  std::string flagged = sh_twin("f", "true");
  flagged.replace(flagged.find(R"({"program": "sh"})"), 17, R"({"program": "sh", "flag": "--sh"})");
  BOOST_TEST(twins_file_field(dir, flagged) == "twins[0].executable.flag \"--sh\"");  // only a variable's program has one
}

BOOST_AUTO_TEST_CASE(libvmafs_cuda_twin_names_each_features_keys_its_own_way) {
  // Upstream's motion_cuda lacks motion3 (a fixed map of its default keys); vif_cuda has vif's
  // collector keys but no vif_skip_scale0, whose suffix its keys therefore never carry; adm_cuda
  // emits neither aim nor adm3 and takes four of adm's twelve options; vmaf is the model's
  // features on those three, keyed by the model's options for them.
  const auto twins = load_twins_file(data_root() / "ci" / "twins" / "libvmaf.json");
  const auto cuda = std::find_if(twins.begin(), twins.end(), [](const ExecTwinSpec& t) { return t.name == "libvmaf-cuda"; });
  BOOST_TEST_REQUIRE((cuda != twins.end()));
  BOOST_TEST((cuda->features == std::vector<std::string>{"motion", "vif", "adm", "vmaf"}));
  BOOST_TEST((cuda->keys_of("vmaf").keys == ExecTwinSpec::Keys::libvmaf_collector));  // the model's features, by libvmaf
  BOOST_TEST((cuda->keys_of("motion").keys == ExecTwinSpec::Keys::map));
  BOOST_TEST(cuda->keys_of("motion").key_map.size() == 2u);
  BOOST_TEST((cuda->keys_of("vif").keys == ExecTwinSpec::Keys::libvmaf_collector));
  BOOST_TEST((cuda->ignored_options.at("vif") == std::vector<std::string>{"vif_skip_scale0", "ssclz"}));
  BOOST_TEST((cuda->keys_of("adm").keys == ExecTwinSpec::Keys::libvmaf_collector));
  BOOST_TEST(cuda->ignored_options.at("adm").size() == 15u);
  BOOST_TEST(cuda->provides("adm", "adm2"));
  BOOST_TEST(cuda->provides("adm", "adm_den_scale3"));
  BOOST_TEST(!cuda->provides("adm", "aim"));
  BOOST_TEST(!cuda->provides("adm", "adm3"));
  BOOST_TEST(cuda->provides("vif", "vif_scale0"));  // no entry: every metric
  const auto cpu = std::find_if(twins.begin(), twins.end(), [](const ExecTwinSpec& t) { return t.name == "libvmaf"; });
  BOOST_TEST_REQUIRE((cpu != twins.end()));
  BOOST_TEST((cpu->keys_of("vif").keys == ExecTwinSpec::Keys::libvmaf_collector));
  BOOST_TEST(cpu->ignored_options.empty());
  BOOST_TEST(cpu->provided_metrics.empty());
}

BOOST_AUTO_TEST_CASE(a_program_is_asked_for_keys_named_by_the_options_it_names_scores_by) {
  // A libvmaf-keyed motion twin that writes down the words it was run with. motion_max_val names
  // libvmaf's keys; listed in "unnamed_options", the program is asked for the keys without it and
  // is still handed the option (adm_cuda applies its view distance without naming scores by it).
  TempDir dir;
  const fs::path words = dir / "words.txt";
  auto twin = [&](const std::string& extra) {
    return fmt::format(R"({{"name": "keys", "features": ["motion"], "summary": "test", "executable": {{"program": "sh"}},
      "command": ["{{exe}}", "-c", {}, "{{input}}", "{{output}}", "{{options}}", "{{metrics}}"],
      "options": ["--option", "{{name}}={{value}}"], "output": {{"format": "csv"}}, "metrics": "libvmaf-collector"{}}})",
                       nlohmann::json("printf '%s\\n' \"$@\" > '" + words.string() + "'").dump(), extra);
  };
  Cell cell =
      filter_cells(load_matrix(data_root() / "ci" / "matrices" / "gate.json").cells, {"motion/cpu-simd/flash64/8b/420/default"})
          .at(0);
  cell.options = {{"motion_max_val", "20"}, {"motion_fps_weight", "2"}};
  const FeatureDescriptor& motion = feature_or_throw("motion");
  const std::string named = libvmaf_metric_name(motion, "motion2", cell.options, LibvmafKey::collector);
  const std::string unnamed = libvmaf_metric_name(motion, "motion2", {{"motion_fps_weight", "2"}}, LibvmafKey::collector);
  BOOST_TEST_REQUIRE(named != unnamed);
  for (const bool listed : {false, true}) {
    BOOST_TEST_CONTEXT("unnamed_options " << (listed ? "lists" : "does not list") << " motion_max_val") {
      const std::string extra = listed ? R"(, "unnamed_options": {"motion": ["motion_max_val", "mmxv"]})" : "";
      const ExecTwinSpec spec = load_twins_file(write_twins(dir, twin(extra))).at(0);
      const Outcome outcome = run_exec(spec, cell);
      BOOST_TEST((outcome.kind == Outcome::Kind::error));  // it printed nothing to judge
      const std::string said = test::read_file(words);
      BOOST_TEST(contains(said, "--option\nmotion_max_val=20\n--option\nmotion_fps_weight=2\n"));
      BOOST_TEST(contains(said, "--metric\n" + (listed ? unnamed : named) + "\n"));
      BOOST_TEST(!contains(said, "--metric\n" + (listed ? named : unnamed) + "\n"));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_pair_feature_needs_a_command_that_takes_both_clips) {
  TempDir dir;
  const Cell cell = psnr_pair_cell();
  const auto psnr_twin = [](const std::string& name, const std::string& words) {
    return fmt::format(R"({{"name": "{}", "features": ["psnr"], "summary": "test", "executable": {{"program": "sh"}},
      "command": ["{{exe}}", "-c", {}, {}, "{{output}}"], "options": "none", "output": {{"format": "csv"}},
      "metrics": {{"psnr_y": "psnr_y"}}}})",
                       name, nlohmann::json(R"(cmp -s "$1" "$2" && exit 5; printf 'Frame,psnr_y,\n' > "$3"; exit 4)").dump(),
                       words);
  };
  // One clip ({input}): the twin cannot be handed the pair, so the cell is not supported, not run.
  const ExecTwinSpec one = load_twins_file(write_twins(dir, psnr_twin("one", R"("{input}", "{input}")"))).at(0);
  BOOST_TEST(!one.takes_pair);
  const Outcome o = run_exec(one, cell);
  BOOST_TEST((o.kind == Outcome::Kind::not_supported), o.message);
  BOOST_TEST(contains(o.message, "its command names no {distorted}"), o.message);
  // Both clips: the program gets two files that differ (it exits 4 having seen them differ; 5 if
  // it had been handed one clip twice).
  const ExecTwinSpec two = load_twins_file(write_twins(dir, psnr_twin("two", R"("{reference}", "{distorted}")"))).at(0);
  BOOST_TEST(two.takes_pair);
  const Outcome p = run_exec(two, cell);
  BOOST_TEST((p.kind == Outcome::Kind::tool_failed), p.message);
  BOOST_TEST(contains(p.message, "exited with status 4"), p.message);
}

BOOST_AUTO_TEST_CASE(a_program_that_fails_is_never_a_pass) {
  TempDir dir;
  const Cell cell = flash_cell();  // 8 frames
  const Calibration table = Calibration::load(data_root() / "ci" / "calibration.json");
  const auto spec = [&](const std::string& script, const std::string& extra = "") {
    return load_twins_file(write_twins(dir, sh_twin("t", script, extra))).at(0);
  };
  const auto outcome = [&](const std::string& script, const std::string& extra = "") {
    return run_exec(spec(script, extra), cell);
  };

  // Scores every frame: 8 lines of motion 0 are a real (wrong) answer, compared value by value.
  const Outcome zeros = outcome(R"(printf 'Frame,motion,\n' > "$1"; for i in 0 1 2 3 4 5 6 7; do echo "$i,0," >> "$1"; done)");
  BOOST_REQUIRE(zeros.kind == Outcome::Kind::scores);
  BOOST_TEST(zeros.table.frames() == 8u);
  BOOST_TEST((zeros.judged_metrics == std::vector<std::string>{"motion"}));
  BOOST_TEST(contains(zeros.provenance.back().second + zeros.provenance[2].second, "sh -c"));

  const Outcome exit3 = outcome("echo broken >&2; exit 3");
  BOOST_TEST((exit3.kind == Outcome::Kind::tool_failed));
  BOOST_TEST(contains(exit3.message, "exited with status 3"));
  BOOST_TEST(contains(exit3.message, "it said: broken"));
  const Outcome short_run = outcome(R"(printf 'Frame,motion,\n0,0,\n' > "$1")");
  BOOST_TEST((short_run.kind == Outcome::Kind::error));
  BOOST_TEST(contains(short_run.message, "scored 1 frame(s) of the 8 it was given"));
  const Outcome other_key = outcome(R"(printf 'Frame,other,\n' > "$1"; for i in 0 1 2 3 4 5 6 7; do echo "$i,0," >> "$1"; done)");
  BOOST_TEST((other_key.kind == Outcome::Kind::error));
  BOOST_TEST(contains(other_key.message, "lacks motion"));
  const Outcome garbage =
      outcome(R"(printf 'Frame,motion,\n' > "$1"; for i in 0 1 2 3 4 5 6 7; do echo "$i,zero," >> "$1"; done)");
  BOOST_TEST((garbage.kind == Outcome::Kind::error));
  BOOST_TEST(contains(garbage.message, "not a number"));
  const Outcome slow = outcome("sleep 20", R"(, "timeout_s": 0.3)");
  BOOST_TEST((slow.kind == Outcome::Kind::timeout));
  BOOST_TEST(slow.seconds < 10);
  const Outcome narrow = outcome("true", R"(, "bitdepths": [10])");
  BOOST_TEST((narrow.kind == Outcome::Kind::not_supported));
  BOOST_TEST(contains(narrow.message, "does not take 8-bit input"));

  // Judged: a program's failure is an error where the reference scores...
  const Outcome ref = run_backend(*find_backend("float_motion", "cpu"), cell, {}, 0);
  Cell parity = cell;
  parity.kind = CellKind::parity;
  parity.twin = "vmaf";  // any twin with a row
  BOOST_TEST(judge_parity(parity, ref, exit3, table, "2026-12-03").status == CellStatus::error);
  BOOST_TEST(judge_parity(parity, ref, narrow, table, "2026-12-03").status == CellStatus::not_supported);
  const CellResult wrong = judge_parity(parity, ref, zeros, table, "2026-12-03");
  BOOST_TEST(wrong.status == CellStatus::fail);
  BOOST_TEST(contains(wrong.detail, "(the twin reports motion only)"));
  BOOST_TEST(wrong.twin_provenance.contains("sha256"));
  // ...and its refusal where the reference refuses.
  Outcome refused = ref;
  refused.kind = Outcome::Kind::refused;
  refused.message = "no";
  BOOST_TEST(judge_parity(parity, refused, exit3, table, "2026-12-03").status == CellStatus::pass);
  // A crash is never a refusal, not even where the reference refuses: a program killed by a
  // signal, or a shell reporting one as 128 + N (what a wrapper script of a crashed tool exits).
  const Outcome segv = outcome("kill -SEGV $$");
  BOOST_TEST((segv.kind == Outcome::Kind::error));
  BOOST_TEST(contains(segv.message, "was killed by signal 11 ("), segv.message);
  BOOST_TEST(contains(segv.message, "a crash and never a refusal"), segv.message);
  BOOST_TEST(judge_parity(parity, refused, segv, table, "2026-12-03").status == CellStatus::error);
  const Outcome shell_139 = outcome("exit 139", R"(, "refusal_exits": [3])");
  BOOST_TEST((shell_139.kind == Outcome::Kind::error));
  BOOST_TEST(contains(shell_139.message, "exited with status 139 (a shell's report of a crash"), shell_139.message);
  BOOST_TEST(judge_parity(parity, refused, shell_139, table, "2026-12-03").status == CellStatus::error);
  // A program's own status above 192 (exit(-1)) is a refusal only where the file lists it.
  const Outcome minus_one = outcome("exit 255");
  BOOST_TEST(judge_parity(parity, refused, minus_one, table, "2026-12-03").status == CellStatus::error, minus_one.message);
  const Outcome listed = outcome("exit 255", R"(, "refusal_exits": [1, 255])");
  BOOST_TEST(judge_parity(parity, refused, listed, table, "2026-12-03").status == CellStatus::pass, listed.message);
  BOOST_CHECK_THROW(spec("true", R"(, "refusal_exits": [139])"), InputError);  // a shell's signal report is never listed
}

BOOST_AUTO_TEST_CASE(a_program_stopped_with_the_run_leaves_its_cell_without_a_verdict) {
  // timeout(1) and CI runners signal the whole process group: the program dies of the same stop
  // as the gate, often before the gate notices it. Its cell has no verdict; it is not an error.
  TempDir dir;
  write_twins(dir, sh_twin("stopped", "kill -TERM $PPID; sleep 0.3; exit 143"));
  write_one_twin_matrix(dir, "stopped", R"("flash64")");
  test::write_table_with_exact_rows(dir / "table.json", {"stopped"});
  const auto r = run_cli({"gate", "--twins", (dir / "twins.json").string(), "--matrix", (dir / "matrix.json").string(),
                          "--calibration", (dir / "table.json").string(), "--quiet", "--report-dir", (dir / "r").string()});
  BOOST_TEST(r.rc == 143, r.out << r.err);
  const auto summary = nlohmann::json::parse(test::read_file(dir / "r" / "summary.json"));
  BOOST_TEST(summary["verdict"] == "INCOMPLETE");
  BOOST_TEST(summary["counts"]["error"] == 0, summary["counts"].dump());
  BOOST_TEST(summary["counts"]["no-verdict"] == 1, summary["counts"].dump());
}

// A log without a terminal hears from a run while a long cell runs, with the time left; every
// --help page states the exit codes.
BOOST_AUTO_TEST_CASE(a_long_cell_is_heard_from_in_a_log_and_help_states_the_exit_codes) {
  TempDir dir;
  write_twins(
      dir,
      sh_twin("slow", R"(sleep 2.5; printf 'Frame,motion,\n' > "$1"; for i in 0 1 2 3 4 5 6 7; do echo "$i,0," >> "$1"; done)"));
  write_one_twin_matrix(dir, "slow", R"("flash64")");
  test::write_table_with_exact_rows(dir / "table.json", {"slow"});
  const auto r =
      run_cli({"gate", "--twins", (dir / "twins.json").string(), "--matrix", (dir / "matrix.json").string(), "--calibration",
               (dir / "table.json").string(), "--heartbeat", "1", "--report-dir", (dir / "r").string()});
  BOOST_TEST(r.rc == 1, r.out << r.err);  // zeros are not the reference's motion
  BOOST_TEST(contains(r.out, "still running: float_motion/slow/flash64/8b/420/default for "), r.out);
  BOOST_TEST(contains(r.out, "(1 in flight)"), r.out);
  BOOST_TEST(contains(r.out, "s elapsed, "), r.out);
  // The same with a cell time limit, whose watchdog also beats.
  const auto limited =
      run_cli({"gate", "--twins", (dir / "twins.json").string(), "--matrix", (dir / "matrix.json").string(), "--calibration",
               (dir / "table.json").string(), "--heartbeat", "1", "--cell-timeout", "60", "--report-dir", (dir / "r2").string()});
  BOOST_TEST(contains(limited.out, "still running: float_motion/slow/flash64/8b/420/default for "), limited.out);
  for (const char* command : {"gate", "repro", "bench", "report"}) {
    const auto help = run_cli({command, "--help"});
    BOOST_TEST(help.rc == 0);
    BOOST_TEST(contains(help.out, "Exit status: 0 every judged cell passed"), command);
    BOOST_TEST(contains(help.out, "128+N stopped by signal N"), command);
  }
}

BOOST_AUTO_TEST_CASE(repeated_and_concurrent_runs_must_return_the_same_bits) {
  TempDir dir;
  const Cell cell = flash_cell();
  const Calibration table = Calibration::load(data_root() / "ci" / "calibration.json");
  const auto backend_of = [&](const std::string& script) {
    const auto shared = std::make_shared<const ExecTwinSpec>(load_twins_file(write_twins(dir, sh_twin("t", script))).at(0));
    return Backend{"float_motion",
                   "test-exec",
                   BackendKind::host,
                   false,
                   "test",
                   [shared] { return exec_twin_availability(*shared); },
                   [shared](const ExtractorContext& ctx) { return make_exec_twin(shared, "float_motion", ctx); }};
  };
  // The same answer every time: one outcome, no finding.
  const Backend steady =
      backend_of(R"(printf 'Frame,motion,\n' > "$1"; for i in 0 1 2 3 4 5 6 7; do echo "$i,0.5," >> "$1"; done)");
  const Outcome same = run_backend_repeated(steady, cell, {}, 0, 2, 3);
  BOOST_TEST(same.nondeterminism.empty());
  BOOST_TEST(same.table.frames() == 8u);
  // Frame 5 depends on which process ran (its pid): found, and the cell fails whatever run 1 said.
  const Backend racy = backend_of(R"(printf 'Frame,motion,\n' > "$1"; for i in 0 1 2 3 4; do echo "$i,0.5," >> "$1"; done; )"
                                  R"(echo "5,$$," >> "$1"; for i in 6 7; do echo "$i,0.5," >> "$1"; done)");
  const Outcome differs = run_backend_repeated(racy, cell, {}, 0, 1, 2);
  BOOST_TEST(contains(differs.nondeterminism, "run 2 (repetition 1 of 1, instance 2 of 2) differs from run 1: frame 5 motion"),
             differs.nondeterminism);
  Cell parity = cell;
  parity.kind = CellKind::parity;
  parity.twin = "vmaf";
  const Outcome ref = run_backend(*find_backend("float_motion", "cpu"), cell, {}, 0);
  const CellResult r = judge_parity(parity, ref, differs, table, "2026-12-03");
  BOOST_TEST(r.status == CellStatus::fail);
  BOOST_TEST(contains(r.detail, "not deterministic: run 2"));
  // Through the command line: exec-self repeated and concurrent stays exact.
  const auto cli = run_cli({"gate", "--matrix", (data_root() / "ci" / "matrices" / "exec.json").string(), "--filter",
                            "*/exec-self/pan576/*/default", "--repeat", "2", "--concurrent", "3", "--quiet"});
  BOOST_TEST(cli.rc == 0, cli.out << cli.err);
  BOOST_TEST(contains(cli.out, "2 passed, 0 failed"), cli.out);
}

BOOST_AUTO_TEST_CASE(twinproof_itself_as_an_exec_twin_is_exact_end_to_end) {
  TempDir dir;
  // The pair features' exec-self cells all take one path (a pair, options, libvmaf's JSON back):
  // psnr's pan576~noise4 (its option sets and refusals) and a 16-bit pair, and one vif pair stand
  // for the rest, which main.sh's gate runs, so that a sanitizer build of this suite stays inside
  // its time.
  const auto r = run_cli({"gate", "--matrix", (data_root() / "ci" / "matrices" / "exec.json").string(), "--filter",
                          "float_motion/exec-self/*", "--filter", "motion/exec-self/*", "--filter",
                          "psnr/exec-self/pan576~noise4/*", "--filter", "psnr/exec-self/noise67_16b_444~noise32/*", "--filter",
                          "vif/exec-self/odd175_420~noise4/*", "--quiet", "--report-dir", (dir / "r").string()});
  BOOST_TEST(r.rc == 0, r.out << r.err);
  const auto records = read_results(dir / "r" / "results.jsonl");
  std::size_t pass = 0, refusals = 0;
  for (const CellResult& c : records) {
    BOOST_TEST(c.status == CellStatus::pass, c.cell.id << ": " << c.detail);
    pass += c.status == CellStatus::pass;
    refusals += contains(c.detail, "both refuse");
    BOOST_TEST(c.twin_provenance.value("sha256", "").size() == 64u);
    BOOST_TEST(contains(c.twin_provenance.value("version", ""), "twinproof"));
  }
  BOOST_TEST(pass == 111u);  // the motion features' 92, psnr's 16 (pairs: two clips to the program), vif's 3
  BOOST_TEST(refusals >= 14u);
  BOOST_TEST(contains(test::read_file(dir / "r" / "results.jsonl"), "\"per_metric\""));
  // The reports' environment names the program that was judged, once, beside the host.
  const auto summary = nlohmann::json::parse(test::read_file(dir / "r" / "summary.json"));
  const auto& outside = summary["environment"]["outside_twins"];
  BOOST_TEST_REQUIRE(outside.size() == 1u, outside.dump());
  BOOST_TEST(outside[0]["twin"] == "exec-self");
  BOOST_TEST(outside[0]["features"] == nlohmann::json::array({"float_motion", "motion", "psnr", "vif"}), outside.dump());
  BOOST_TEST(outside[0]["sha256"] == records.front().twin_provenance["sha256"]);
  BOOST_TEST(contains(outside[0].value("version", ""), "twinproof"));
  BOOST_TEST(!outside[0].contains("command"));  // a cell's command line stays in its record
  const std::string sha = outside[0]["sha256"];
  BOOST_TEST(
      contains(test::read_file(dir / "r" / "summary.md"), "twin exec-self (float_motion, motion, psnr, vif) · executable "));
  BOOST_TEST(contains(test::read_file(dir / "r" / "summary.md"), "sha256 " + sha));
  BOOST_TEST(contains(test::read_file(dir / "r" / "report.html"), "sha256 " + sha));
  BOOST_TEST(contains(test::read_file(dir / "r" / "junit.xml"), "<property name=\"sha256\" value=\"" + sha + "\""));
}

BOOST_AUTO_TEST_CASE(an_outside_program_is_named_once_by_the_first_line_of_its_version) {
  TempDir dir;
  // A version of two lines, and a twin that takes 8-bit input only: its 16-bit cell is refused
  // before the program is looked for, and must not list the program a second time, unnamed.
  const std::string script =
      R"("$TWINPROOF_SELF" score "$0" --feature float_motion --csv --output - | awk -F, 'NR==1{print "Frame,motion,"} NR>1{printf "%d,%.2f,\n", $1, $2}' > "$1")";
  write_twins(dir,
              sh_twin("rounded", script,
                      R"(, "version_command": ["sh", "-c", "echo 'rounder 1.2'; echo 'built on a Tuesday'"], "bitdepths": [8])"));
  write_one_twin_matrix(dir, "rounded", R"("pan576", "flash40_16b")");
  test::write_table_with_exact_rows(dir / "table.json", {"rounded"});
  const char* bin = std::getenv("TWINPROOF_BIN");
  const std::string self = bin != nullptr && *bin != '\0' ? bin : TWINPROOF_BIN;
  const std::string env = "TWINPROOF_SELF=" + self;
  ::putenv(const_cast<char*>(env.c_str()));
  const auto gate = run_cli({"gate", "--twins", (dir / "twins.json").string(), "--matrix", (dir / "matrix.json").string(),
                             "--calibration", (dir / "table.json").string(), "--quiet", "--report-dir", (dir / "r").string()});
  BOOST_TEST(gate.rc == 1, gate.out << gate.err);  // two decimals are not the double
  const auto records = read_results(dir / "r" / "results.jsonl");
  BOOST_TEST_REQUIRE(records.size() == 2u);
  for (const CellResult& c : records) {
    if (c.cell.bitdepth == 16) BOOST_TEST(c.status == CellStatus::not_supported, c.cell.id << ": " << c.detail);
    else BOOST_TEST(c.twin_provenance.value("version", "") == "rounder 1.2", c.twin_provenance.dump());
  }
  const auto summary = nlohmann::json::parse(test::read_file(dir / "r" / "summary.json"));
  const auto& outside = summary["environment"]["outside_twins"];
  BOOST_TEST_REQUIRE(outside.size() == 1u, outside.dump());
  BOOST_TEST(outside[0]["twin"] == "rounded");
  BOOST_TEST(outside[0]["version"] == "rounder 1.2");
  BOOST_TEST(outside[0].value("executable", "") != "");
}

BOOST_AUTO_TEST_CASE(a_users_twins_file_gates_a_program_and_calibrate_proposes_its_row) {
  TempDir dir;
  // A twin that prints motion rounded to two decimals (what ffmpeg's vmafmotion does), built from
  // twinproof's own score: judged exact it fails; calibrate proposes the places that held.
  const std::string script =
      R"("$TWINPROOF_SELF" score "$0" --feature float_motion --csv --output - | awk -F, 'NR==1{print "Frame,motion,"} NR>1{printf "%d,%.2f,\n", $1, $2}' > "$1")";
  write_twins(dir, sh_twin("rounded", script));
  write_one_twin_matrix(dir, "rounded", R"("pan576", "flash64")");
  test::write_table_with_exact_rows(dir / "table.json", {"rounded"});
  const char* bin = std::getenv("TWINPROOF_BIN");  // as run_cli finds it (a GPU bundle sets it)
  const std::string self = bin != nullptr && *bin != '\0' ? bin : TWINPROOF_BIN;
  const std::string env = "TWINPROOF_SELF=" + self;
  ::putenv(const_cast<char*>(env.c_str()));
  const auto gate = run_cli({"gate", "--twins", (dir / "twins.json").string(), "--matrix", (dir / "matrix.json").string(),
                             "--calibration", (dir / "table.json").string(), "--quiet", "--report-dir", (dir / "r").string()});
  BOOST_TEST(gate.rc == 1, gate.out << gate.err);  // exact fails: two decimals are not the double
  const auto cal = run_cli({"calibrate", (dir / "r").string(), "--calibration", (dir / "table.json").string(), "--output",
                            (dir / "proposed.json").string()});
  BOOST_TEST(cal.rc == 0, cal.out << cal.err);
  BOOST_TEST(contains(cal.out, "LOOSER   float_motion rounded vs cpu: exact -> places=1"), cal.out);
  const Calibration proposed = Calibration::load(dir / "proposed.json");
  BOOST_TEST(proposed.find("float_motion", "cpu", "rounded", "motion", "")->tolerance.describe() == "places=1");
  BOOST_TEST(!contains(test::read_file(data_root() / "ci" / "calibration.json"), "rounded"));  // the shipped table is untouched
  const auto again =
      run_cli({"gate", "--twins", (dir / "twins.json").string(), "--matrix", (dir / "matrix.json").string(), "--calibration",
               (dir / "proposed.json").string(), "--quiet", "--report-dir", (dir / "r2").string()});
  BOOST_TEST(again.rc == 0, again.out << again.err);
  // Nothing compared, nothing proposed: calibrate says so and exits 2.
  test::write_file(dir / "empty" / "results.jsonl", "");
  BOOST_TEST(run_cli({"calibrate", (dir / "empty").string()}).rc == 2);
}

BOOST_AUTO_TEST_CASE(ffmpegs_vmafmotion_is_judged_by_its_calibrated_row) {
  if (find_backend("float_motion", "ffmpeg-vmafmotion") == nullptr) register_exec_twins(shipped_twins_files());
  const Availability a = find_backend("float_motion", "ffmpeg-vmafmotion")->availability();
  if (!a.available) {
    BOOST_TEST_MESSAGE("skipped: " << a.reason);
    return;
  }
  TempDir dir;
  const auto r = run_cli({"gate", "--matrix", (data_root() / "ci" / "matrices" / "exec.json").string(), "--filter",
                          "*/ffmpeg-vmafmotion/*", "--quiet", "--report-dir", (dir / "r").string()});
  BOOST_TEST(r.rc == 0, r.out << r.err);
  std::size_t pass = 0, waived = 0, unsupported = 0;
  for (const CellResult& c : read_results(dir / "r" / "results.jsonl")) {
    pass += c.status == CellStatus::pass;
    waived += c.status == CellStatus::waived;
    unsupported += c.status == CellStatus::not_supported;
    if (c.status == CellStatus::pass) BOOST_TEST(c.tolerance == "places=1");
  }
  BOOST_TEST(pass >= 6u);
  BOOST_TEST(waived == 1u);       // tiny3: narrower than the filter
  BOOST_TEST(unsupported >= 2u);  // 4:0:0, 12- and 16-bit clips
  // repro judges the twin on what it reports, as the gate does, and says it has no stages.
  const auto repro = run_cli({"repro", "float_motion/ffmpeg-vmafmotion/pan576/8b/420/default"});
  BOOST_TEST(repro.rc == 0, repro.err);
  BOOST_TEST(contains(repro.out, "places=1 (places=1) on motion only (what the twin reports): 48 values match"), repro.out);
  BOOST_TEST(contains(repro.out, "ffmpeg-vmafmotion exposes no stage the reference does"), repro.out);
}

BOOST_AUTO_TEST_CASE(a_libvmaf_build_through_the_driver_equals_the_reference_where_it_scores) {
  const char* driver = std::getenv("TWINPROOF_LIBVMAF_DRIVER");
  if (driver == nullptr || *driver == '\0') {
    BOOST_TEST_MESSAGE("skipped: TWINPROOF_LIBVMAF_DRIVER is not set (scripts/build-libvmaf.sh SRC OUT builds a driver)");
    return;
  }
  TempDir dir;
  const auto r = run_cli({"gate", "--matrix", (data_root() / "ci" / "matrices" / "exec.json").string(), "--filter", "*/libvmaf/*",
                          "--quiet", "--report-dir", (dir / "r").string()});
  // The run is complete (every selected cell has a verdict), whatever libvmaf's refusals made it.
  const auto records = read_results(dir / "r" / "results.jsonl");
  const std::string cells = test::read_file(dir / "r" / "cells.txt");
  BOOST_TEST(records.size() == static_cast<std::size_t>(std::count(cells.begin(), cells.end(), '\n')), r.err);
  std::size_t scored = 0;
  for (const CellResult& c : records) {
    // Where the reference refuses, libvmaf's answer is reported as it is (a finding, not this
    // test's question); where it scores, the driver must give the same doubles.
    if (contains(c.detail, "the reference refuses") || contains(c.detail, "reference:")) continue;
    if (c.status == CellStatus::error && contains(c.detail, "without a single score")) continue;
    ++scored;
    BOOST_TEST(c.status == CellStatus::pass, c.cell.id << ": " << c.detail);
    if (c.status == CellStatus::pass && !contains(c.detail, "both refuse")) BOOST_TEST(c.tolerance == "exact");
  }
  BOOST_TEST(scored >= 40u);
  // repro replays a refusal cell as the gate judged it, rather than stopping at the refusal.
  const auto mismatch = run_cli({"repro", "motion/libvmaf/tiny2/8b/444/default"});
  BOOST_TEST(mismatch.rc == 1, mismatch.err);
  BOOST_TEST(contains(mismatch.out, "refusal mismatch: the reference refuses (plane Y is 2x2"), mismatch.out);
  BOOST_TEST(contains(mismatch.out, "but libvmaf scores 4 frame(s)"), mismatch.out);
}

// repro agrees with the gate on a program that crashed (an error, exit 2), and prints the command
// the program ran with its work folder kept, so that pasting the command runs it again.
BOOST_AUTO_TEST_CASE(repro_of_a_crashed_program_shows_the_command_to_run_again) {
  TempDir dir;
  write_twins(dir, sh_twin("crashes", "test -s \"$0\" || exit 9; kill -SEGV $$"));
  write_one_twin_matrix(dir, "crashes", R"("flash64")");
  test::write_table_with_exact_rows(dir / "table.json", {"crashes"});
  const std::vector<std::string> common = {"--twins", (dir / "twins.json").string()};
  auto args = common;
  args.insert(args.end(), {"gate", "--matrix", (dir / "matrix.json").string(), "--calibration", (dir / "table.json").string(),
                           "--quiet", "--report-dir", (dir / "r").string()});
  const auto gate = run_cli(args);
  BOOST_TEST(gate.rc == 2, gate.out << gate.err);
  const auto records = read_results(dir / "r" / "results.jsonl");
  BOOST_TEST_REQUIRE(records.size() == 1u);
  BOOST_TEST(records[0].status == CellStatus::error);
  args = common;
  args.insert(args.end(), {"repro", records[0].cell.id, "--matrix", (dir / "matrix.json").string()});
  const auto repro = run_cli(args);
  BOOST_TEST(repro.rc == 2, repro.out << repro.err);
  BOOST_TEST(contains(repro.out, "error: tool error: crashes was killed by signal 11"), repro.out);
  const std::string marker = "crashes ran as:\n  ";
  const auto at = repro.out.find(marker);
  BOOST_TEST_REQUIRE(at != std::string::npos, repro.out);
  const std::string command = repro.out.substr(at + marker.size(), repro.out.find('\n', at + marker.size()) - at - marker.size());
  const std::string kept = "its input, output and messages are kept in ";
  const auto folder_at = repro.out.find(kept);
  BOOST_TEST_REQUIRE(folder_at != std::string::npos, repro.out);
  const fs::path folder =
      repro.out.substr(folder_at + kept.size(), repro.out.find(" (remove", folder_at) - folder_at - kept.size());
  BOOST_TEST((fs::exists(folder / "input.y4m") || fs::exists(folder / "input.yuv")), folder);
  // Pasted into a shell, the command crashes again (a shell reports SIGSEGV as 139), on the kept input.
  const int status = std::system(command.c_str());
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 139, command);
  fs::remove_all(folder);
}

BOOST_AUTO_TEST_CASE(repro_judges_a_refusal_cell_as_the_gate_does) {
  // Both refuse: the cell passes, and repro says what each side said.
  const auto both = run_cli({"repro", "float_motion/exec-self/pan576/8b/420/refuse_filter_size_10"});
  BOOST_TEST(both.rc == 0, both.err);
  BOOST_TEST(contains(both.out, "both refuse: reference: option motion_filter_size: value '10' is out of range"), both.out);
  BOOST_TEST(contains(both.out, "exec-self: exec-self exited with status"), both.out);
  BOOST_TEST(!contains(both.out, "frame  metric"), both.out);  // no score table for a refusal
}

BOOST_AUTO_TEST_SUITE_END()
