// vmaf: the shipped models are upstream's bytes; a model file is read as libvmaf reads it and
// refused with its file, field and value where it cannot be; the prediction's order on models
// small enough to work out by hand; the model's options reach its features (libvmaf's keys);
// `score -m` as vmaf takes it; and repro leading from a departed score into the feature and the
// stage a mutant breaks.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "extractors/embedded_files.hpp"
#include "extractors/feature.hpp"
#include "extractors/vmaf/model.hpp"
#include "extractors/vmaf/predict.hpp"
#include "harness/gate/repro.hpp"
#include "harness/goldens/goldens.hpp"
#include "harness/support/paths.hpp"
#include "harness/support/sha256.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using twinproof::test::contains;
namespace vm = twinproof::vmaf;

namespace {

// A model over vif_scale0 and adm2 with the given libsvm text and model_dict extras.
std::string small_model(const std::string& svm, const std::string& extra = "") {
  return R"({"model_dict": {"model_type": "LIBSVMNUSVR", "norm_type": "linear_rescale",
    "feature_names": ["VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_adm2_score"],
    "slopes": [0.5, 1.0, 2.0], "intercepts": [0.75, 0.0, -1.0], "score_clip": [0.0, 15.0], )" +
         extra + R"( "model": ")" + svm + R"("}})";
}

// The refusal's message, or "" when the text parses.
std::string refusal(const std::string& text, vm::ModelFlags flags = {}) {
  try {
    vm::parse_model(text, "m.json", flags);
  } catch (const RefusedConfiguration& e) {
    return e.what();
  }
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(vmaf)

BOOST_AUTO_TEST_CASE(the_built_in_models_are_upstreams_files_byte_for_byte) {
  const auto dir = data_root() / "extractors" / "vmaf" / "models";
  const auto provenance = nlohmann::json::parse(test::read_file(dir / "PROVENANCE.json"));
  BOOST_TEST(provenance["commit"] == "f85a853692a8c730d0270cd733c8bb30b5b93b7c");
  const auto models = vm::built_in_models();
  BOOST_TEST_REQUIRE(models.size() == 4u);
  for (const vm::BuiltInModel& m : models) {
    const std::string file = std::string(m.version) + ".json";
    BOOST_TEST_CONTEXT(file) {
      BOOST_TEST_REQUIRE(provenance["files"].contains(file));
      BOOST_TEST(sha256_hex(m.json.data(), m.json.size()) == provenance["files"][file]["sha256"].get<std::string>());
      BOOST_TEST(m.json == test::read_file(dir / file));
    }
  }
  const vm::Model m = vm::load_model("vmaf_v0.6.1", {});
  BOOST_TEST(m.features.size() == 6u);
  BOOST_TEST(m.support_vectors.size() == 211u);
  BOOST_TEST(m.gamma == 0.04);
  BOOST_TEST(m.rho == -1.33133);
  BOOST_TEST(m.features[0].metric == "adm2");
  BOOST_TEST(m.features[1].metric == "motion2");
  BOOST_TEST(m.features[1].feature == "motion");
  BOOST_TEST(!m.transform.enabled);  // the file's polynomial is off unless asked for
  BOOST_TEST(m.transform.has_p2);
  BOOST_TEST(m.clip);
  // The neg model hands its gain limits to adm and vif, nothing to motion.
  const vm::Model neg = vm::load_model("vmaf_v0.6.1neg", {});
  BOOST_TEST((neg.features[0].options == OptionList{{"adm_enhn_gain_limit", "1.0"}}));
  BOOST_TEST(neg.features[1].options.empty());
  BOOST_TEST((neg.features[5].options == OptionList{{"vif_enhn_gain_limit", "1.0"}}));
}

BOOST_AUTO_TEST_CASE(the_prediction_follows_libvmafs_order) {
  // gamma 0: every kernel is 1, so the sum is 0.5 + 0.25 - rho (-1) = 1.75, and the score
  // (1.75 - 0.75) / 0.5 = 2.
  const vm::Model flat = vm::parse_model(small_model("svm_type nu_svr\\nkernel_type rbf\\ngamma 0\\nnr_class 2\\ntotal_sv "
                                                     "2\\nrho -1\\nSV\\n0.5 1:0.2 2:0.3 \\n0.25 2:0.1 \\n"),
                                         "m.json", {});
  const double values[] = {0.4, 0.9};
  BOOST_TEST(vm::predict(flat, values) == 2.0);
  // Knots map 2 to 20; the clip holds it at 15, unless disabled.
  const std::string knots = R"("score_transform": {"enabled": true, "knots": [[0, 0], [1, 10], [4, 40]]},)";
  const std::string svm0 =
      "svm_type nu_svr\\nkernel_type rbf\\ngamma 0\\nnr_class 2\\ntotal_sv 2\\nrho -1\\nSV\\n0.5 1:0.2\\n0.25 2:0.1\\n";
  BOOST_TEST(vm::predict(vm::parse_model(small_model(svm0, knots), "m.json", {}), values) == 15.0);
  BOOST_TEST(vm::predict(vm::parse_model(small_model(svm0, knots), "m.json", {.disable_clip = true}), values) == 20.0);
  // A transform the file leaves off applies only when asked for: p0 + p1 y + p2 y y = 1 + 2 + 4.
  const std::string poly = R"("score_transform": {"p0": 1, "p1": 1, "p2": 1, "out_lte_in": "true"},)";
  BOOST_TEST(vm::predict(vm::parse_model(small_model(svm0, poly), "m.json", {}), values) == 2.0);
  BOOST_TEST(vm::predict(vm::parse_model(small_model(svm0, poly), "m.json", {.enable_transform = true}), values) ==
             2.0);  // out_lte_in
  const std::string poly_up = R"("score_transform": {"p0": 1, "p1": 1, "p2": 1},)";
  BOOST_TEST(vm::predict(vm::parse_model(small_model(svm0, poly_up), "m.json", {.enable_transform = true}), values) == 7.0);
  // The rbf distance walks both sparse vectors in index order: x = (1 * 0.4 + 0, 2 * 0.9 - 1) =
  // (0.4, 0.8); the vector (2:0.5) adds x1 squared alone, then (x2 - 0.5) squared.
  const vm::Model sparse = vm::parse_model(
      small_model("svm_type nu_svr\\nkernel_type rbf\\ngamma 0.5\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV\\n1 2:0.5\\n",
                  R"("norm_type": "none",)"),
      "m.json", {.disable_clip = true});
  const double x1 = 0.4, x2 = 0.9;
  const double d = x1 * x1 + (x2 - 0.5) * (x2 - 0.5);
  BOOST_TEST(sparse.linear_rescale == false);
  BOOST_TEST(vm::predict(sparse, values) == std::exp(-0.5 * d));
  // Pooling as libvmaf pools: 1/(s+1) sums for the harmonic mean.
  Pooling p;
  for (double s : {0.0, 1.0, 3.0}) p.add(s);
  BOOST_TEST(p.mean() == 4.0 / 3.0);
  BOOST_TEST(p.harmonic_mean() == 3.0 / (1.0 + 0.5 + 0.25) - 1.0);
  BOOST_TEST(p.min() == 0.0);
  BOOST_TEST(p.max() == 3.0);
}

// A run reads a model file once, whatever asks for it (each extractor, each key, the traffic
// estimate, other flags): a file replaced while the run goes on gives no document of two models.
BOOST_AUTO_TEST_CASE(a_model_file_is_read_once_a_run) {
  test::TempDir dir;
  const std::string path = (dir / "once.json").string();
  std::ofstream(path) << test::read_file(data_root() / "extractors/vmaf/models/vmaf_v0.6.1.json");
  const vm::Model first = vm::load_model(path, {});
  BOOST_TEST(first.support_vectors.size() == 211u);
  std::ofstream(path, std::ios::trunc) << "{ not a model";
  const vm::Model again = vm::load_model(path, {});
  BOOST_TEST(again.gamma == first.gamma);
  BOOST_TEST(again.support_vectors.size() == first.support_vectors.size());
  const vm::Model unclipped = vm::load_model(path, {.disable_clip = true});  // other flags: the text read before
  BOOST_TEST(!unclipped.clip);
  BOOST_TEST(first.clip);
  BOOST_TEST(unclipped.support_vectors.size() == first.support_vectors.size());
}

// Values that are each finite but make no score: refused with the field, before any frame.
BOOST_AUTO_TEST_CASE(a_model_that_cannot_give_a_finite_score_is_refused) {
  const std::string svm = "svm_type nu_svr\\nkernel_type rbf\\ngamma -1000\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV\\n1 1:0.5\\n";
  BOOST_TEST(contains(refusal(small_model(svm)), "gamma = -1000: must not be negative"), refusal(small_model(svm)));
  const std::string ok = "svm_type nu_svr\\nkernel_type rbf\\ngamma 0\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV\\n1 1:0.5\\n";
  const std::string far = small_model(ok, R"("score_transform": {"enabled": true, "knots": [[-1e308, 0], [1e308, 100]]},)");
  BOOST_TEST(contains(refusal(far), "knots 0 and 1 lie further apart than a double holds"), refusal(far));
  const std::string twice =
      small_model(ok, R"("feature_names": ["VMAF_integer_feature_adm2_score", "VMAF_integer_feature_adm2_score"],)");
  BOOST_TEST(contains(refusal(twice), "VMAF_integer_feature_adm2_score: listed twice"), refusal(twice));
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  BOOST_TEST(contains(refusal(deep), "nested deeper than 64 levels"), refusal(deep).substr(0, 200));
}

BOOST_AUTO_TEST_CASE(a_model_file_is_refused_with_its_field_and_value) {
  const std::string svm = "svm_type nu_svr\\nkernel_type rbf\\ngamma 0\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV\\n1 1:0.5\\n";
  BOOST_TEST(refusal(small_model(svm)).empty());
  BOOST_TEST(contains(refusal("{"), "model m.json: (file)"));
  BOOST_TEST(contains(refusal(R"({"param_dict": {}})"), "model m.json: model_dict = (missing)"));
  const std::string bootstrap = small_model(svm);
  std::string b = bootstrap;
  b.replace(b.find("LIBSVMNUSVR"), 11, "BOOTSTRAP_LIBSVMNUSVR");
  BOOST_TEST(contains(refusal(b), "model_dict.model_type = \"BOOTSTRAP_LIBSVMNUSVR\""), refusal(b));
  std::string unknown = small_model(svm);
  unknown.replace(unknown.find("VMAF_integer_feature_adm2_score"), 31, "VMAF_feature_vif_scale0_score");
  BOOST_TEST(
      contains(refusal(unknown), "model_dict.feature_names = VMAF_feature_vif_scale0_score: twinproof computes no such feature"),
      refusal(unknown));
  BOOST_TEST(contains(refusal(small_model(svm, R"("slopes": [1, 2],)")), "model_dict.slopes"));
  BOOST_TEST(contains(refusal(small_model("svm_type c_svc\\nkernel_type rbf\\nSV\\n")), "svm_type = c_svc"));
  BOOST_TEST(contains(
      refusal(small_model("svm_type nu_svr\\nkernel_type rbf\\ngamma 0\\nnr_class 2\\ntotal_sv 2\\nrho 0\\nSV\\n1 1:0.5\\n")),
      "fewer support vectors than total_sv"));
  BOOST_TEST(contains(
      refusal(small_model("svm_type nu_svr\\nkernel_type rbf\\ngamma 0\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV\\n1 3:0.5\\n")),
      "SV 0 = 3:0.5: the model has 2 features"));
  BOOST_TEST(contains(
      refusal(small_model("svm_type nu_svr\\nkernel_type rbf\\ngamma x\\nnr_class 2\\ntotal_sv 1\\nrho 0\\nSV\\n1 1:0.5\\n")),
      "model_dict.model: gamma = x: is not a number"));
  BOOST_TEST(contains(refusal(small_model(svm, R"("chroma_correction_parameter": 0.5,)")), "speed_chroma"));
  BOOST_TEST(contains(refusal(small_model(svm, R"("feature_opts_dicts": [{"vif_enhn_gain_limit": [1]}],)")),
                      "feature_opts_dicts[0].vif_enhn_gain_limit"));
  // A model whose vif scales disagree on options cannot run one vif: refused when it starts.
  test::TempDir dir;
  std::string split = test::read_file(data_root() / "extractors/vmaf/models/vmaf_v0.6.1neg.json");
  const auto at = split.rfind("\"vif_enhn_gain_limit\": 1.0");
  BOOST_TEST_REQUIRE(at != std::string::npos);
  split.replace(at, 26, "\"vif_enhn_gain_limit\": 1.5");
  std::ofstream(dir / "split.json") << split;
  const auto r = test::run_cli(
      {"score", "vector:pan576~noise4", "--feature", "vmaf", "--option", "model=" + (dir / "split.json").string(), "-q"});
  BOOST_TEST(r.rc == 2);
  BOOST_TEST(contains(r.err, "asks feature vif for other options than the model's other vif features"), r.err);
  // A missing file names the value and the built-in versions.
  const auto missing = test::run_cli({"score", "vector:pan576~noise4", "-m", "path=/nonexistent/m.json", "-q"});
  BOOST_TEST(missing.rc == 2);
  BOOST_TEST(
      contains(
          missing.err,
          "'/nonexistent/m.json' is neither a built-in version (vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg, vmaf_v0.6.1, vmaf_v0.6.1neg)"),
      missing.err);
}

BOOST_AUTO_TEST_CASE(the_models_options_name_its_features_as_libvmaf_does) {
  const FeatureDescriptor& f = feature_or_throw("vmaf");
  BOOST_TEST(libvmaf_metric_name(f, "vmaf", {}) == "vmaf");
  BOOST_TEST(libvmaf_metric_name(f, "adm2", {}) == "integer_adm2");
  BOOST_TEST(libvmaf_metric_name(f, "adm2", {}, LibvmafKey::collector) == "VMAF_integer_feature_adm2_score");
  const OptionList neg{{"model", "vmaf_v0.6.1neg"}};
  BOOST_TEST(libvmaf_metric_name(f, "adm2", neg) == "integer_adm2_egl_1");
  BOOST_TEST(libvmaf_metric_name(f, "vif_scale3", neg) == "integer_vif_scale3_egl_1");
  BOOST_TEST(libvmaf_metric_name(f, "motion2", neg) == "integer_motion2");
  BOOST_TEST(libvmaf_metric_name(f, "vmaf_harmonic_mean", neg) == "vmaf_harmonic_mean");
}

BOOST_AUTO_TEST_CASE(score_takes_vmafs_model_flag_and_a_pair_defaults_to_the_score) {
  const GoldenFile g = load_golden_file(data_root() / "goldens/vmaf/pan576~noise4.json");
  const auto golden = [&](const std::string& set, const std::string& metric, unsigned frame) {
    for (const GoldenCase& c : g.cases)
      if (c.id == "pan576~noise4/" + set) return *c.expected.get(metric, frame);
    BOOST_FAIL("no golden case " + set);
    return 0.0;
  };
  const auto document = [](const std::vector<std::string>& args) {
    const auto r = test::run_cli(args);
    BOOST_TEST_REQUIRE(r.rc == 0, r.err);
    return nlohmann::json::parse(r.out);
  };
  // vmaf's line: -m version=..., libvmaf's names; frames and pooled scores are the goldens' bits.
  const auto neg =
      document({"score", "vector:pan576~noise4", "-m", "version=vmaf_v0.6.1neg", "--vmaf-names", "--json", "-o", "-", "-q"});
  BOOST_TEST(neg["frames"][3]["metrics"]["vmaf"].get<double>() == golden("neg", "vmaf", 3));
  BOOST_TEST(neg["frames"][3]["metrics"]["integer_adm2_egl_1"].get<double>() == golden("neg", "adm2", 3));
  BOOST_TEST(!neg["frames"][3]["metrics"].contains("vmaf_mean"));  // libvmaf writes pooled scores apart
  BOOST_TEST(neg["pooled_metrics"]["vmaf"]["harmonic_mean"].get<double>() == golden("neg", "vmaf_harmonic_mean", 47));
  BOOST_TEST(neg["pooled_metrics"]["vmaf"]["mean"].get<double>() == golden("neg", "vmaf_mean", 47));
  // A pair with no --feature is the default model; the flags travel with -m.
  const auto plain = document({"score", "vector:pan576~noise4", "--json", "-o", "-", "-q"});
  BOOST_TEST(plain["twinproof"]["feature"] == "vmaf");
  BOOST_TEST(plain["frames"][0]["metrics"]["vmaf"].get<double>() == golden("default", "vmaf", 0));
  const auto flags = document(
      {"score", "vector:pan576~noise4", "-m", "version=vmaf_v0.6.1neg:disable_clip:enable_transform", "--json", "-o", "-", "-q"});
  BOOST_TEST(flags["frames"][5]["metrics"]["vmaf"].get<double>() == golden("noclip_transform", "vmaf", 5));
  BOOST_TEST(flags["frames"][5]["metrics"]["vmaf"].get<double>() > 100.0);  // the transform lifts it over the clip
  // What vmaf's flag cannot mean is refused with the value.
  for (const auto& [arg, message] : std::vector<std::pair<std::string, std::string>>{
           {"version=a/b.json", "version=a/b.json names a file: give path=a/b.json"},
           {"name=x", "'name=x' is not version=NAME, path=FILE, disable_clip or enable_transform"},
           {"disable_clip", "give version=NAME or path=FILE"}}) {
    const auto r = test::run_cli({"score", "vector:pan576~noise4", "-m", arg, "-q"});
    BOOST_TEST(r.rc == 2, arg);
    BOOST_TEST(contains(r.err, message), r.err);
  }
  const auto twice =
      test::run_cli({"score", "vector:pan576~noise4", "-m", "version=vmaf_v0.6.1", "-m", "version=vmaf_v0.6.1neg", "-q"});
  BOOST_TEST(twice.rc == 2);
  BOOST_TEST(contains(twice.err, "given more than once"), twice.err);
}

BOOST_AUTO_TEST_CASE(repro_follows_the_score_into_the_feature_and_its_stage) {
  const ReproResult r = test::replay_cell("vmaf/mutant-adm/odd175_420~noise4/8b/420/default");
  BOOST_TEST(r.mismatch);
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(contains(r.verdict, "first divergence: model features, adm2"), r.verdict);
  BOOST_TEST(contains(r.verdict,
                      "adm departs first (adm2, frame 0): in adm, mutant-band against cpu: first divergence: wavelet bands, "
                      "plane scale0/dist/h"),
             r.verdict);
}

BOOST_AUTO_TEST_SUITE_END()
