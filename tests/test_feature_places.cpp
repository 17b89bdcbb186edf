// The places a feature touches, as CONTRIBUTING.md's "Adding things" lists them, checked for every
// registered feature: the list stays short only if it stays true. A feature's own folder holds
// what is specific to it; everything else it needs is one of these.
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include "extractors/feature.hpp"
#include "extractors/registry.hpp"
#include "harness/support/paths.hpp"
#include "tests/support.hpp"

using namespace twinproof;
namespace fs = std::filesystem;

namespace {

nlohmann::json load_json(const fs::path& p) {
  std::ifstream in(p);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << p);
  return nlohmann::json::parse(in);
}

std::set<std::string> folder_names(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory()) names.insert(e.path().filename().string());
  return names;
}

std::string joined(const std::set<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : " ") + n;
  return s;
}

std::set<std::string> feature_names() {
  std::set<std::string> names;
  for (const FeatureDescriptor* f : features()) names.insert(std::string(f->name));
  return names;
}

// The features a matrix has a block for.
std::set<std::string> matrix_features(const std::string& file) {
  std::set<std::string> names;
  const nlohmann::json matrix = load_json(data_root() / "ci" / "matrices" / file);
  for (const auto& block : matrix.at("features")) names.insert(block.at("feature").get<std::string>());
  return names;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(feature_places)

BOOST_AUTO_TEST_CASE(each_feature_is_one_folder_with_its_contract_descriptor_and_options) {
  const fs::path root = data_root();
  std::set<std::string> expected = feature_names();
  expected.insert("cuda");  // the shared device pieces (batches, uploads, runtime), not a feature
  BOOST_TEST(joined(folder_names(root / "extractors")) == joined(expected), "extractors/ holds one folder per feature and cuda/");
  for (const FeatureDescriptor* f : features()) {
    const fs::path dir = root / "extractors" / std::string(f->name);
    for (const char* file : {"CONTRACT.md", "feature.cpp", "options.hpp", "options.cpp"})
      BOOST_TEST(fs::is_regular_file(dir / file), dir / file << " is missing");
  }
}

BOOST_AUTO_TEST_CASE(each_feature_has_a_golden_plan_and_goldens) {
  const fs::path root = data_root();
  BOOST_TEST(joined(folder_names(root / "goldens")) == joined(feature_names()), "goldens/ holds one folder per feature");
  for (const std::string& name : feature_names()) {
    // float_motion's and motion's goldens came from the project's oracle files
    // (scripts/import-oracle.py); every later feature's from its plan through libvmaf's driver.
    if (name != "float_motion" && name != "motion")
      BOOST_TEST(fs::is_regular_file(root / "scripts" / "golden-plans" / (name + ".json")), name << " has no golden plan");
    BOOST_TEST(!fs::is_empty(root / "goldens" / name), name << "'s goldens are empty");
  }
}

BOOST_AUTO_TEST_CASE(each_twin_has_a_calibration_row) {
  std::set<std::pair<std::string, std::string>> rows;
  const nlohmann::json table = load_json(data_root() / "ci" / "calibration.json");
  for (const auto& row : table.at("rows")) rows.emplace(row.at("feature").get<std::string>(), row.at("twin").get<std::string>());
  int twins = 0;
  for (const Backend* b : backends(/*with_mutants=*/true)) {
    if (!is_built_in(*b) || b->name == feature_or_throw(b->feature).reference) continue;
    ++twins;
    BOOST_TEST(rows.count({std::string(b->feature), std::string(b->name)}) == 1u,
               b->feature << "/" << b->name << " has no row in ci/calibration.json");
  }
  BOOST_TEST(twins > 0);
}

BOOST_AUTO_TEST_CASE(each_feature_has_a_block_in_the_matrices_of_every_feature) {
  for (const char* file : {"gate.json", "sweep.json", "exec.json", "libvmaf.json"})
    BOOST_TEST(joined(matrix_features(file)) == joined(feature_names()),
               "ci/matrices/" << file << " has a block for every feature");
}

BOOST_AUTO_TEST_CASE(twinproof_as_an_outside_twin_runs_every_feature) {
  // ci/twins/twinproof.json runs this program as an outside twin: it must list every feature, or
  // the exec path of a new one goes unexercised in CI.
  std::set<std::string> listed;
  const nlohmann::json twins = load_json(data_root() / "ci" / "twins" / "twinproof.json");
  for (const auto& name : twins.at("twins").at(0).at("features")) listed.insert(name.get<std::string>());
  BOOST_TEST(joined(listed) == joined(feature_names()));
}

BOOST_AUTO_TEST_CASE(kernels_live_in_their_feature_folder) {
  // A feature's CUDA kernels are .cu files beside its host code; a feature built from others (the
  // vmaf model) runs their kernels and has none of its own. kernels/ holds the device library's
  // build and no source.
  for (const FeatureDescriptor* f : features()) {
    bool has_kernels = false;
    for (const auto& entry : std::filesystem::directory_iterator(data_root() / "extractors" / std::string(f->name)))
      has_kernels = has_kernels || entry.path().extension() == ".cu";
    BOOST_TEST(has_kernels == f->built_from.empty(), f->name << (has_kernels ? " has" : " lacks") << " .cu files");
  }
  for (const auto& entry : std::filesystem::recursive_directory_iterator(data_root() / "kernels"))
    BOOST_TEST(entry.path().filename() == "CMakeLists.txt", entry.path().string() << " is a source under kernels/");
}

BOOST_AUTO_TEST_SUITE_END()
