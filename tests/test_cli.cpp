// The command line end to end: results, JSON that round-trips, and every bad input an exit 2
// with one line naming file, field and value, and no partial table.
#include <bit>
#include <sstream>

#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include "extractors/feature.hpp"
#include "extractors/registry.hpp"
#include "harness/calibration/rules.hpp"
#include "harness/goldens/goldens.hpp"
#include "harness/report/vmaf_output.hpp"
#include "harness/support/paths.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using twinproof::test::contains;
using twinproof::test::run_cli;
using twinproof::test::run_program;
using twinproof::test::TempDir;

namespace {

// The refusal line: exactly one line on stderr, nothing on stdout.
void expect_refusal(const test::CliResult& r, const std::vector<std::string>& parts) {
  BOOST_TEST(r.rc == 2);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  for (const std::string& p : parts) BOOST_TEST_CONTEXT(r.err) {
      BOOST_TEST(contains(r.err, p));
    }
}
}  // namespace

BOOST_AUTO_TEST_SUITE(cli)

BOOST_AUTO_TEST_CASE(score_json_round_trips_to_the_oracle_bits) {
  TempDir dir;
  const auto r =
      run_cli({"score", "vector:flash64", "--option", "mbf=0.5", "--option", "mbo=3", "--json", (dir / "s.json").string()});
  BOOST_TEST(r.rc == 0);
  BOOST_TEST(contains(r.out, "0x1.fep+7"));  // the table shows %a
  const auto j = nlohmann::json::parse(test::read_file(dir / "s.json"));
  const GoldenFile g = load_golden_file(data_root() / "goldens/float_motion/flash64.json");
  const GoldenCase* blend = nullptr;
  for (const GoldenCase& c : g.cases)
    if (c.id == "flash64/blend") blend = &c;
  BOOST_REQUIRE(blend != nullptr);
  BOOST_TEST(j["frames"].size() == 8u);
  for (unsigned f = 0; f < 8; ++f)
    for (const char* m : {"motion", "motion2", "motion3"}) {
      const double got = j["frames"][f]["metrics"][m].get<double>();
      BOOST_TEST(std::bit_cast<std::uint64_t>(got) == std::bit_cast<std::uint64_t>(*blend->expected.get(m, f)));
    }
  BOOST_TEST(j["frames"][3]["frameNum"] == 3);
}

BOOST_AUTO_TEST_CASE(libvmaf_names_follow_its_rules) {
  const FeatureDescriptor& motion = *find_feature("motion");
  const FeatureDescriptor& float_motion = *find_feature("float_motion");
  // Every option at its default (debug never counts): libvmaf's alias, or its feature name.
  BOOST_TEST(libvmaf_metric_name(motion, "motion2", {}) == "integer_motion2");
  BOOST_TEST(libvmaf_metric_name(motion, "motion_sad", {{"debug", "true"}}) == "VMAF_integer_feature_motion_sad_score");
  BOOST_TEST(libvmaf_metric_name(motion, "motion2", {{"mfw", "1.0"}, {"motion_max_val", "10000"}}) == "integer_motion2");
  BOOST_TEST(libvmaf_metric_name(float_motion, "motion3", {{"debug", "false"}}) == "motion3");
  // The example libvmaf itself wrote (extractors/motion/CONTRACT.md): suffixes in the order of
  // the options' names, whatever order they are given in; booleans by alias only; %g of numbers.
  const OptionList all = {{"motion_max_val", "224"}, {"mma", "true"},  {"debug", "true"}, {"mfw", "4.875"},
                          {"force_0", "true"},       {"mffw", "true"}, {"mbo", "7"},      {"mbf", "0.75"}};
  BOOST_TEST(libvmaf_metric_name(motion, "motion2", all) == "integer_motion2_mbf_0.75_mbo_7_mffw_force_0_mfw_4.875_mmxv_224_mma");
  BOOST_TEST(libvmaf_metric_name(motion, "motion_sad", {{"mffw", "true"}}) == "VMAF_integer_feature_motion_sad_score_mffw");
  BOOST_TEST(libvmaf_metric_name(float_motion, "motion", {{"motion_filter_size", "3"}, {"mau", "true"}, {"mdc", "true"}}) ==
             "motion_mdc_mau_mfs_3");
  BOOST_TEST(libvmaf_metric_name(float_motion, "motion2", {{"mfw", "0.1234567"}}) == "motion2_mfw_0.123457");
  BOOST_CHECK_THROW(libvmaf_metric_name(float_motion, "motion_sad", {}), ConfigError);
}

BOOST_AUTO_TEST_CASE(numbers_print_as_libvmaf_prints_them_or_exactly) {
  BOOST_TEST(format_number(0.5, NumberStyle::vmaf) == "0.500000");
  BOOST_TEST(format_number(0.000001, NumberStyle::vmaf) == "0.000001");        // six zeros: %.6f
  BOOST_TEST(format_number(1e-7, NumberStyle::vmaf) == "0.0000001000000000");  // seven: %.16f
  BOOST_TEST(format_number(12.5, NumberStyle::vmaf) == "12.500000");
  BOOST_TEST(format_number(0, NumberStyle::vmaf) == "0.000000");
  for (const double v : {0.1, 1e-7, 34.784095764160156, 5e-324, 1.7976931348623157e308})
    BOOST_TEST(std::bit_cast<std::uint64_t>(std::strtod(format_number(v, NumberStyle::exact).c_str(), nullptr)) ==
               std::bit_cast<std::uint64_t>(v));
}

BOOST_AUTO_TEST_CASE(score_speaks_the_vmaf_tools_language) {
  TempDir dir;
  const GoldenFile g = load_golden_file(data_root() / "goldens/motion/pan576.json");
  const GoldenCase* window = nullptr;
  for (const GoldenCase& c : g.cases)
    if (c.id == "pan576/five_frame") window = &c;
  BOOST_REQUIRE(window != nullptr);
  const auto expected = [&](const char* metric, unsigned frame) {
    return std::bit_cast<std::uint64_t>(*window->expected.get(metric, frame));
  };
  // --feature as vmaf writes it, -o FILE in XML (vmaf's default format), libvmaf's keys.
  const auto xml = run_cli({"score", "vector:pan576", "--feature", "motion=motion_five_frame_window=true:debug=true", "-o",
                            (dir / "s.xml").string(), "--vmaf-names"});
  BOOST_TEST_REQUIRE(xml.rc == 0, xml.err);
  pugi::xml_document doc;
  BOOST_REQUIRE(doc.load_file((dir / "s.xml").c_str()));
  const pugi::xml_node frames = doc.child("VMAF").child("frames");
  BOOST_TEST(doc.child("VMAF").child("params").attribute("qualityWidth").as_int() == 576);
  unsigned n = 0;
  for (const pugi::xml_node f : frames.children("frame")) {
    const unsigned frame = f.attribute("frameNum").as_uint();
    BOOST_TEST(std::bit_cast<std::uint64_t>(std::stod(f.attribute("integer_motion2_mffw").value())) ==
               expected("motion2", frame));
    BOOST_TEST(std::bit_cast<std::uint64_t>(std::stod(f.attribute("VMAF_integer_feature_motion_sad_score_mffw").value())) ==
               expected("motion_sad", frame));
    ++n;
  }
  BOOST_TEST(n == 48u);
  BOOST_TEST(doc.child("VMAF")
                 .child("pooled_metrics")
                 .find_child_by_attribute("metric", "name", "integer_motion3_mffw")
                 .attribute("harmonic_mean") != pugi::xml_attribute());
  // The same through --option, as CSV on stdout: the same values, the same keys.
  const auto csv = run_cli({"score", "vector:pan576", "--feature", "motion", "--option", "mffw=true", "--option", "debug=true",
                            "--csv", "--vmaf-names"});
  BOOST_TEST_REQUIRE(csv.rc == 0, csv.err);
  BOOST_TEST(contains(
      csv.out,
      "Frame,VMAF_integer_feature_motion_sad_score_mffw,integer_motion_mffw,integer_motion2_mffw,integer_motion3_mffw,\n0,"));
  BOOST_TEST(std::count(csv.out.begin(), csv.out.end(), '\n') == 49);
  // Bare --json is the format of --output; libvmaf's shape has nothing else with --vmaf-names.
  const auto json = run_cli({"score", "vector:pan576", "--feature", "motion=mffw=true", "--json", "-o", (dir / "s.json").string(),
                             "--vmaf-names", "--precision", "vmaf"});
  BOOST_TEST_REQUIRE(json.rc == 0, json.err);
  const auto j = nlohmann::json::parse(test::read_file(dir / "s.json"));
  BOOST_TEST(j.size() == 5u);  // version, fps, frames, pooled_metrics, aggregate_metrics
  BOOST_TEST(j["frames"][10]["metrics"].contains("integer_motion2_mffw"));
  BOOST_TEST(contains(test::read_file(dir / "s.json"), ": 0.000000"));  // %.6f
  // Refusals: two formats, two destinations, a malformed --feature.
  expect_refusal(run_cli({"score", "vector:tiny3", "--xml", "--csv"}), {"one output format"});
  expect_refusal(run_cli({"score", "vector:tiny3", "--json", (dir / "a").string(), "-o", (dir / "b").string()}),
                 {"both name the output"});
  expect_refusal(run_cli({"score", "vector:tiny3", "--feature", "motion=mfw"}), {"--feature", "'mfw' is not opt=val"});
  expect_refusal(run_cli({"score", "vector:tiny3", "--feature", "motion=mfw=2", "--option", "motion_fps_weight=3"}),
                 {"motion_fps_weight", "more than once"});
  expect_refusal(run_cli({"score", "vector:tiny3", "--precision", "6"}), {"--precision", "'6'"});
  expect_refusal(run_cli({"score", "vector:tiny3", "-o", "motion_add_uv=true"}),
                 {"names an option of float_motion", "--option motion_add_uv=true"});
  BOOST_TEST(!std::filesystem::exists("motion_add_uv=true"));
}

// The vmaf tool of a libvmaf build (TWINPROOF_VMAF=PATH), when there is one.
boost::test_tools::assertion_result have_vmaf_tool(boost::unit_test::test_unit_id) {
  const char* vmaf = std::getenv("TWINPROOF_VMAF");
  boost::test_tools::assertion_result r(vmaf != nullptr && ::access(vmaf, X_OK) == 0);
  r.message() << "skipped: set TWINPROOF_VMAF to the vmaf tool of a libvmaf build (built with -Denable_float=true) to diff "
                 "score's output against it";
  return r;
}

BOOST_AUTO_TEST_CASE(score_output_equals_the_vmaf_tools_but_version_and_fps, *boost::unit_test::precondition(have_vmaf_tool)) {
  TempDir dir;
  const std::string yuv = (dir / "pan576.yuv").string();
  BOOST_REQUIRE(run_cli({"vectors", "make", "pan576", "-O", yuv}).rc == 0);
  for (const std::string format : {"json", "xml", "csv"})
    for (const std::string feature : {"float_motion", "float_motion=motion_filter_size=3:motion_add_uv=true", "motion=debug=true",
                                      "motion=motion_fps_weight=2:motion_five_frame_window=true"})
      BOOST_TEST_CONTEXT(format << " " << feature) {
        const std::string theirs = (dir / ("vmaf." + format)).string(), ours = (dir / ("twinproof." + format)).string();
        const auto v = run_program(std::getenv("TWINPROOF_VMAF"),
                                   {"-r", yuv, "-d", yuv, "-w", "576", "-h", "324", "-p", "420", "-b", "8", "--no_prediction",
                                    "-q", "--feature", feature, "--" + format, "-o", theirs});
        BOOST_TEST_REQUIRE(v.rc == 0, v.err);
        const auto t = run_cli({"score", yuv, "--width", "576", "--height", "324", "--pixfmt", "420", "--bitdepth", "8",
                                "--feature", feature, "--" + format, "-o", ours, "--vmaf-names", "--precision", "vmaf"});
        BOOST_TEST_REQUIRE(t.rc == 0, t.err);
        BOOST_TEST(test::without_version_and_fps(test::read_file(ours)) ==
                   test::without_version_and_fps(test::read_file(theirs)));
      }
}

BOOST_AUTO_TEST_CASE(a_vmaf_command_line_for_a_pair_gives_the_vmaf_tools_document,
                     *boost::unit_test::precondition(have_vmaf_tool)) {
  // The vmaf tool's own command line with the program name replaced (plus the two flags that ask
  // for libvmaf's keys and its %.6f): a 10-bit 4:2:0 pair, psnr and motion in one run, every format.
  TempDir dir;
  const std::string ref = (dir / "ref.yuv").string(), dist = (dir / "dist.yuv").string();
  BOOST_REQUIRE(run_cli({"vectors", "make", "pan720_10b", "-O", ref}).rc == 0);
  BOOST_REQUIRE(run_cli({"vectors", "make", "pan720_10b~dct24", "-O", dist}).rc == 0);
  for (const std::string format : {"json", "xml", "csv", "sub"}) BOOST_TEST_CONTEXT(format) {
      const std::string theirs = (dir / ("vmaf." + format)).string(), ours = (dir / ("twinproof." + format)).string();
      const auto line = [&](const std::string& out) {
        return std::vector<std::string>{"-r",
                                        ref,
                                        "-d",
                                        dist,
                                        "-w",
                                        "1280",
                                        "-h",
                                        "720",
                                        "-p",
                                        "420",
                                        "-b",
                                        "10",
                                        "--no_prediction",
                                        "-q",
                                        "--feature",
                                        "psnr=enable_mse=true",
                                        "--feature",
                                        "motion",
                                        "--" + format,
                                        "-o",
                                        out};
      };
      const auto v = run_program(std::getenv("TWINPROOF_VMAF"), line(theirs));
      BOOST_TEST_REQUIRE(v.rc == 0, v.err);
      std::vector<std::string> args = line(ours);
      args.insert(args.begin(), "score");
      args.insert(args.end(), {"--vmaf-names", "--precision", "vmaf"});
      const auto t = run_cli(args);
      BOOST_TEST_REQUIRE(t.rc == 0, t.err);
      BOOST_TEST(test::without_version_and_fps(test::read_file(ours)) == test::without_version_and_fps(test::read_file(theirs)));
    }
}

BOOST_AUTO_TEST_CASE(the_vmaf_command_line_in_score) {
  TempDir dir;
  const std::string ref = (dir / "ref.yuv").string(), dist = (dir / "dist.yuv").string();
  BOOST_REQUIRE(run_cli({"vectors", "make", "pan64_f3", "-O", ref}).rc == 0);
  BOOST_REQUIRE(run_cli({"vectors", "make", "pan64_f3~noise32", "-O", dist}).rc == 0);
  const std::vector<std::string> geometry = {"-w", "64", "-h", "48", "-p", "420", "-b", "8"};
  const auto score = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"score", "-r", ref, "-d", dist};
    args.insert(args.end(), geometry.begin(), geometry.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  };
  // The same pair by vector name and by files.
  const auto files = score({"--feature", "psnr", "--json", "-"});
  const auto vector = run_cli({"score", "vector:pan64_f3~noise32", "--feature", "psnr", "--json", "-"});
  BOOST_TEST_REQUIRE(files.rc == 0, files.err);
  BOOST_TEST(nlohmann::json::parse(files.out)["frames"] == nlohmann::json::parse(vector.out)["frames"]);
  BOOST_TEST(nlohmann::json::parse(files.out)["frames"].size() == 3u);
  // --frame_cnt and --frame_skip_*: the clips as vmaf cuts them. Skipping the first frame of both
  // scores frames 1 and 2 of the pair as frames 0 and 1.
  const auto cut =
      score({"--feature", "psnr", "--frame_skip_ref", "1", "--frame_skip_dist", "1", "--frame_cnt", "2", "--json", "-"});
  BOOST_TEST_REQUIRE(cut.rc == 0, cut.err);
  const auto all = nlohmann::json::parse(files.out)["frames"], two = nlohmann::json::parse(cut.out)["frames"];
  BOOST_TEST_REQUIRE(two.size() == 2u);
  BOOST_TEST(two[0]["metrics"] == all[1]["metrics"]);
  BOOST_TEST(two[1]["metrics"] == all[2]["metrics"]);
  // Skipping one clip's frame alone pairs frame t + 1 with frame t: a different answer.
  const auto shifted = score({"--feature", "psnr", "--frame_skip_dist", "1", "--json", "-"});
  BOOST_TEST_REQUIRE(shifted.rc != 0);  // the distorted clip is then a frame shorter
  BOOST_TEST(contains(shifted.err, "holds 2 frames, and the reference clip"), shifted.err);
  // Subtitle lines, quiet, and what twinproof cannot honour.
  const auto sub = score({"--feature", "psnr", "--sub", "-q"});
  BOOST_TEST(sub.rc == 0);
  BOOST_TEST(sub.out.rfind("{0}{1}frame: 0|psnr_y: ", 0) == 0u, sub.out);
  const auto model = score({"-m", "version=vmaf_v0.6.1", "--no_prediction"});
  BOOST_TEST(model.rc == 2);
  BOOST_TEST(contains(model.err, "-m/--model and --no_prediction contradict each other"), model.err);
  const auto twice = score({"--feature", "psnr", "--feature", "psnr"});
  BOOST_TEST(twice.rc == 2);
  BOOST_TEST(contains(twice.err, "--feature psnr is given twice"), twice.err);
  const auto clash = score({"--feature", "motion", "--feature", "float_motion"});
  BOOST_TEST(clash.rc == 2);
  BOOST_TEST(contains(clash.err, "two features write 'motion2'"), clash.err);
  const auto named = score({"--feature", "motion", "--feature", "float_motion", "--vmaf-names", "--json", "-"});
  BOOST_TEST_REQUIRE(named.rc == 0, named.err);
  BOOST_TEST(nlohmann::json::parse(named.out)["frames"][1]["metrics"].contains("integer_motion2"));
  BOOST_TEST(
      nlohmann::json::parse(named.out)["frames"][1]["metrics"].contains("motion2"));  // float_motion's, as libvmaf prints it
  const auto none = run_cli({"score", "--feature", "psnr"});
  BOOST_TEST(none.rc == 2);
  BOOST_TEST(contains(none.err, "give the clip: INPUT, or -r/--reference FILE"), none.err);
}

BOOST_AUTO_TEST_CASE(the_registry_as_json_is_what_scripts_iterate) {
  // Every registered feature and backend, as the descriptors and the registry hold them.
  const auto f = run_cli({"features", "--json"});
  BOOST_TEST_REQUIRE(f.rc == 0, f.err);
  const auto features_json = nlohmann::json::parse(f.out);
  BOOST_TEST_REQUIRE(features_json.size() == features().size());
  for (std::size_t i = 0; i < features().size(); ++i) {
    BOOST_TEST(features_json[i]["name"] == features()[i]->name);
    BOOST_TEST(features_json[i]["reads_distorted"] == features()[i]->reads_distorted);
    BOOST_TEST(features_json[i]["metrics"].size() == features()[i]->metrics.size());
  }
  const auto b = run_cli({"backends", "--json"});
  BOOST_TEST_REQUIRE(b.rc == 0, b.err);
  const auto backends_json = nlohmann::json::parse(b.out);
  std::size_t built_in = 0, references = 0;
  for (const auto& x : backends_json) {
    built_in += x["built_in"].get<bool>();
    references += x["reference"].get<bool>();
    BOOST_TEST((x["kind"] == "host" || x["kind"] == "gpu"));
    if (!x["available"].get<bool>()) BOOST_TEST(!x["reason"].get<std::string>().empty());
  }
  std::size_t registered = 0;
  for (const Backend* x : backends()) registered += is_built_in(*x);
  BOOST_TEST(built_in == registered);
  BOOST_TEST(references == features().size());
}

BOOST_AUTO_TEST_CASE(not_emitted_metric_is_absent_from_json) {
  const auto r = run_cli({"score", "vector:tiny3", "--option", "debug=false", "--json", "-"});
  BOOST_TEST(r.rc == 0);
  const auto j = nlohmann::json::parse(r.out);
  BOOST_TEST(!j["frames"][1]["metrics"].contains("motion"));
  BOOST_TEST(j["frames"][1]["metrics"].contains("motion2"));
}

BOOST_AUTO_TEST_CASE(stdin_raw_and_frame_ranges) {
  TempDir dir;
  BOOST_TEST(run_cli({"vectors", "make", "tiny3", "--y4m", "-O", (dir / "t.y4m").string()}).rc == 0);
  BOOST_TEST(run_cli({"vectors", "make", "tiny3", "-O", (dir / "t.yuv").string()}).rc == 0);
  const auto a = run_cli({"score", "-", "--json", "-"}, (dir / "t.y4m").string());
  const auto b = run_cli(
      {"score", (dir / "t.yuv").string(), "--width", "3", "--height", "3", "--pixfmt", "444", "--bitdepth", "8", "--json", "-"});
  BOOST_TEST(a.rc == 0);
  BOOST_TEST(b.rc == 0);
  BOOST_TEST(nlohmann::json::parse(a.out)["frames"] == nlohmann::json::parse(b.out)["frames"]);
  const auto c = run_cli({"score", (dir / "t.y4m").string(), "--frames", "2:3", "--json", "-"});
  const auto jc = nlohmann::json::parse(c.out);
  BOOST_TEST(jc["frames"].size() == 2u);
  BOOST_TEST(jc["frames"][0]["frameNum"] == 2);
  BOOST_TEST(jc["frames"][0]["metrics"]["motion"] == 0.0);  // first frame of the range
}

BOOST_AUTO_TEST_CASE(bad_inputs_exit_2_with_one_line) {
  TempDir dir;
  const std::string missing = (dir / "nope.y4m").string();
  expect_refusal(run_cli({"score", missing}), {"nope.y4m", "file"});
  test::write_file(dir / "bad.y4m", "YUV4MPEG2 W8 H8 C411\nFRAME\n");
  expect_refusal(run_cli({"score", (dir / "bad.y4m").string()}), {"bad.y4m", "header field C", "'411'"});
  test::write_file(dir / "raw.yuv", std::string(100, '\0'));
  expect_refusal(run_cli({"score", (dir / "raw.yuv").string()}), {"raw.yuv", "--width"});
  expect_refusal(
      run_cli({"score", (dir / "raw.yuv").string(), "--width", "8", "--height", "8", "--pixfmt", "420", "--bitdepth", "8"}),
      {"raw.yuv", "size", "100 bytes", "truncated"});
  expect_refusal(
      run_cli({"score", (dir / "raw.yuv").string(), "--width", "10", "--height", "10", "--pixfmt", "411", "--bitdepth", "8"}),
      {"--pixfmt", "'411'"});
  expect_refusal(run_cli({"score", "vector:pan576", "--option", "motion_foo=1"}), {"pan576", "motion_foo", "'1'"});
  expect_refusal(run_cli({"score", "vector:pan576", "--option", "mfw=5.5"}), {"pan576", "motion_fps_weight", "'5.5'", "[0, 5]"});
  expect_refusal(run_cli({"score", "vector:pan576", "--option", "mfs=3.7"}), {"motion_filter_size", "'3.7'"});
  expect_refusal(run_cli({"score", "vector:mono160", "--option", "motion_add_uv=true"}), {"mono160", "motion_add_uv", "4:0:0"});
  expect_refusal(run_cli({"score", "vector:tiny2"}), {"tiny2", "plane Y", "'2x2'"});
  expect_refusal(run_cli({"score", "vector:tiny3", "--backend", "nosuch"}), {"--backend", "'nosuch'"});
  expect_refusal(run_cli({"score", "vector:tiny3", "--frames", "9:"}), {"--frames"});
  expect_refusal(run_cli({"score", "vector:tiny3", "--frames", "60"}), {"--frames", "'60'", "A:B"});
  expect_refusal(run_cli({"score", "vector:tiny3", "--frames", "5:2"}), {"--frames", "'5:2'", "before the first"});
  expect_refusal(run_cli({"score", "vector:nosuch"}), {"vector", "'nosuch'"});
}

BOOST_AUTO_TEST_CASE(truncated_stream_leaves_no_partial_table) {
  TempDir dir;
  BOOST_TEST(run_cli({"vectors", "make", "pan576", "--y4m", "-O", (dir / "p.y4m").string()}).rc == 0);
  std::string bytes = test::read_file(dir / "p.y4m");
  bytes.resize(bytes.size() - 1000);  // the last frame loses its tail
  test::write_file(dir / "cut.y4m", bytes);
  const auto r = run_cli({"score", (dir / "cut.y4m").string()});
  expect_refusal(r, {"cut.y4m", "frame 47", "truncated"});
  // A range that ends before the damage stops reading there (its look-ahead frame included),
  // and its scores are those of the whole clip.
  const auto early = run_cli({"score", (dir / "cut.y4m").string(), "--frames", "40:45", "--json", "-"});
  BOOST_TEST_REQUIRE(early.rc == 0, early.err);
  const auto whole = run_cli({"score", (dir / "p.y4m").string(), "--frames", "40:45", "--json", "-"});
  BOOST_TEST(nlohmann::json::parse(early.out)["frames"] == nlohmann::json::parse(whole.out)["frames"]);
  // One frame more reaches it: frame 46's motion2 looks at frame 47.
  expect_refusal(run_cli({"score", (dir / "cut.y4m").string(), "--frames", "40:46"}), {"cut.y4m", "frame 47", "truncated"});
}

BOOST_AUTO_TEST_CASE(goldens_check_ends_with_the_count_line) {
  // The count line of a run, "N passed, 0 failed"; -1 when it has none.
  const auto passed = [](const std::vector<std::string>& args) {
    const auto r = run_cli(args);
    BOOST_TEST(r.rc == 0, r.err);
    const auto end = r.out.rfind(" passed, 0 failed\n");
    if (end == std::string::npos) return -1;
    const auto begin = r.out.rfind('\n', end);
    return std::stoi(r.out.substr(begin == std::string::npos ? 0 : begin + 1, end));
  };
  const auto checked = [&](std::vector<std::string> filters, const char* feature = nullptr) {
    std::vector<std::string> args = {"goldens", "check"};
    if (feature != nullptr) args.insert(args.end(), {"--feature", feature});
    for (const std::string& f : filters) args.insert(args.end(), {"--filter", f});
    return passed(args);
  };
  // float_motion's 7 cases and refusals, integer motion's 5, psnr's 12 of its two tiny3 pairs
  // (tiny3~equal, tiny3~noise32: 6 option sets each) and vif's, adm's and vmaf's refusals of
  // tiny3~noise32 (too small for four scales).
  const std::vector<std::string> tiny = {"tiny*", "single/*"};
  BOOST_TEST(checked(tiny, "float_motion") == 7);
  BOOST_TEST(checked(tiny, "motion") == 5);
  BOOST_TEST(checked(tiny, "psnr") == 12);
  for (const char* f : {"vif", "adm", "vmaf"}) BOOST_TEST(checked(tiny, f) == 1, f);
  BOOST_TEST(checked({"motion/tiny*"}, "motion") == 3);
  // Every feature by default: the sum of each feature's count.
  int every = 0;
  for (const FeatureDescriptor* f : features()) every += checked(tiny, std::string(f->name).c_str());
  BOOST_TEST(checked(tiny) == every);
  // An exclude holds whichever name it uses: both motion features' tiny3 cases go, tiny2's stay
  // (3 + 1), and a pair is its own vector (psnr's tiny3~ pairs stay: 12, and vif's refusal).
  const std::vector<std::string> no_tiny3 = {"tiny*", "-tiny3/*"};
  BOOST_TEST(checked(no_tiny3, "float_motion") == 3);
  BOOST_TEST(checked(no_tiny3, "motion") == 1);
  BOOST_TEST(checked(no_tiny3, "psnr") == 12);
  BOOST_TEST(checked(no_tiny3, "vif") == 1);
  // Excluding the pairs leaves the motion features' tiny cases: float_motion's 6 and motion's 3.
  BOOST_TEST(checked({"tiny*", "-tiny3~*"}, "float_motion") == 6);
  BOOST_TEST(checked({"tiny*", "-tiny3~*"}, "motion") == 3);
  // A feature's own name excludes it: every feature but float_motion leaves float_motion's 6.
  std::vector<std::string> only_float_motion = {"tiny*"};
  for (const FeatureDescriptor* f : features())
    if (f->name != "float_motion") only_float_motion.push_back("-" + std::string(f->name) + "/*");
  BOOST_TEST(checked(only_float_motion) == 6);
  const auto unknown = run_cli({"goldens", "check", "--feature", "float_vif"});
  BOOST_TEST(unknown.rc == 2);
  BOOST_TEST(contains(unknown.err, "known: float_motion, motion, psnr, vif, adm"), unknown.err);
  const auto gpu = run_cli({"goldens", "check", "--backend", "nosuch"});
  BOOST_TEST(gpu.rc == 2);
}

BOOST_AUTO_TEST_CASE(backends_says_why_unavailable) {
  const auto r = run_cli({"backends"});
  BOOST_TEST(r.rc == 0);
  BOOST_TEST(contains(r.out, "cpu"));
#if !TWINPROOF_HAVE_CUDA
  BOOST_TEST(contains(r.out, "built without CUDA"));
#endif
  // Columns line up whatever a value's length (a CUDA error's text goes last).
  std::istringstream lines(r.out);
  std::string header, line;
  std::getline(lines, header);
  const std::size_t summary_at = header.find("what it is");
  BOOST_REQUIRE(summary_at != std::string::npos);
  unsigned rows = 0;
  while (std::getline(lines, line)) {
    BOOST_TEST_CONTEXT(line) {
      BOOST_TEST(line.size() > summary_at);
      BOOST_TEST(line[summary_at - 1] == ' ');
      BOOST_TEST(line[summary_at] != ' ');
    }
    ++rows;
  }
  BOOST_TEST(rows >= 5u);
  const auto v = run_cli({"vectors", "list"});
  std::istringstream vlines(v.out);
  std::getline(vlines, header);
  const std::size_t source_at = header.find("source");
  while (std::getline(vlines, line)) BOOST_TEST_CONTEXT(line) {
      BOOST_TEST(line.find_first_not_of(' ', source_at - 2) == source_at);
    }
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
  BOOST_TEST(run_cli({}).rc == 2);
  BOOST_TEST(run_cli({"score"}).rc == 2);
  BOOST_TEST(run_cli({"score", "vector:tiny3", "--nosuchflag"}).rc == 2);
  BOOST_TEST(run_cli({"--help"}).rc == 0);
}

BOOST_AUTO_TEST_SUITE_END()
