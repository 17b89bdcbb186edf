// The places a feature touches, as CONTRIBUTING.md's "Adding things" lists them, checked for every
// registered feature: the list stays short only if it stays true. A feature's own folder holds
// what is specific to it; everything else it needs is one of these.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
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

BOOST_AUTO_TEST_CASE(each_feature_is_one_folder_with_its_contract_descriptor_options_and_plan) {
  const fs::path root = data_root();
  std::set<std::string> expected = feature_names();
  expected.insert("cuda");  // the shared device pieces (batches, uploads, runtime), not a feature
  BOOST_TEST(joined(folder_names(root / "extractors")) == joined(expected), "extractors/ holds one folder per feature and cuda/");
  for (const FeatureDescriptor* f : features()) {
    const fs::path dir = root / "extractors" / std::string(f->name);
    for (const char* file : {"CONTRACT.md", "feature.cpp", "options.hpp", "options.cpp", "cases.json"})
      BOOST_TEST(fs::is_regular_file(dir / file), dir / file << " is missing");
  }
}

BOOST_AUTO_TEST_CASE(each_feature_plan_names_exactly_its_goldens) {
  // A plan's golden cases (extractors/<f>/cases.json: pairs with every scored option set, refused
  // pairs with the default options, refusals on their pairs; or clips each with its option sets)
  // are the goldens in goldens/<f>/, case for case by vector and options: a golden no plan names,
  // or a planned case without a golden, fails here rather than silently dropping out of the gate.
  const fs::path root = data_root();
  BOOST_TEST(joined(folder_names(root / "goldens")) == joined(feature_names()), "goldens/ holds one folder per feature");
  for (const std::string& name : feature_names()) {
    const nlohmann::json plan = load_json(root / "extractors" / name / "cases.json");
    nlohmann::json sets = plan.value("option_sets", nlohmann::json::object());
    sets.update(plan.value("refusals", nlohmann::json::object()));
    std::set<std::string> planned, golden;
    const auto key = [](const std::string& vector, const nlohmann::json& options) { return vector + " " + options.dump(); };
    if (plan.contains("clips")) {
      for (const auto& [vector, names] : plan.at("clips").items())
        for (const auto& o : names) planned.insert(key(vector, sets.at(o.get<std::string>())));
    } else {
      const nlohmann::json refused = plan.value("refused_pairs", nlohmann::json::object());
      for (const auto& [vector, distortions] : plan.at("pairs").items())
        for (const auto& d : distortions) {
          const std::string pair = vector + "~" + d.get<std::string>();
          const bool whole_pair_refused =
              refused.contains(vector) && std::count(refused[vector].begin(), refused[vector].end(), d) > 0;
          if (whole_pair_refused) planned.insert(key(pair, nlohmann::json::object()));
          else
            for (const auto& [set, options] : plan.at("option_sets").items()) planned.insert(key(pair, options));
        }
      const nlohmann::json refusals = plan.value("refusals", nlohmann::json::object());
      for (const auto& pair : plan.value("refusals_on", nlohmann::json::array()))
        for (const auto& [set, options] : refusals.items()) planned.insert(key(pair.get<std::string>(), options));
    }
    for (const auto& entry : fs::directory_iterator(root / "goldens" / name)) {
      const nlohmann::json file = load_json(entry.path());
      for (const char* kind : {"cases", "errors"})
        for (const auto& c : file.value(kind, nlohmann::json::array()))
          golden.insert(key(file.at("vector").get<std::string>(), c.at("options")));
    }
    BOOST_TEST(planned.size() > 0u, name << "'s plan has no cases");
    for (const std::string& c : planned) BOOST_TEST(golden.count(c) == 1u, name << ": planned case " << c << " has no golden");
    for (const std::string& c : golden) BOOST_TEST(planned.count(c) == 1u, name << ": golden " << c << " is in no plan");
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

BOOST_AUTO_TEST_CASE(each_feature_plan_runs_it_in_the_gate_the_sweep_and_outside) {
  // Every feature is gated, swept and run as an outside program (twinproof itself at least): its
  // plan has those sections, and the matrices derived from the plans (scripts/derive-plans.py; the
  // plans_current test checks they are current) have its block.
  for (const std::string& name : feature_names()) {
    const nlohmann::json sections = load_json(data_root() / "extractors" / name / "cases.json").at("matrices");
    for (const char* matrix : {"gate", "sweep", "exec", "libvmaf"})
      BOOST_TEST(sections.contains(matrix), name << "'s plan has no " << matrix << " section");
    if (sections.contains("exec")) {
      const auto& twins = sections["exec"].at("twins");
      BOOST_TEST(std::count(twins.begin(), twins.end(), "exec-self") == 1, name << "'s exec section does not run exec-self");
    }
  }
  for (const char* file : {"gate.json", "sweep.json", "exec.json", "libvmaf.json"})
    BOOST_TEST(joined(matrix_features(file)) == joined(feature_names()),
               "ci/matrices/" << file << " has a block for every feature");
}

BOOST_AUTO_TEST_CASE(no_file_outside_its_places_names_a_feature) {
  // A feature is its folder, its goldens and one line or row in each of features.inc, backends.inc
  // and ci/calibration.json; the matrices' blocks and the twins files' feature lists are derived
  // from its plan. Any other file that names it is a place a contributor would have to edit by
  // hand. The features of the first milestones are the harness's own test subjects (its unit tests,
  // fuzz seeds, docs and examples use them), so the check holds for every feature after them.
  const std::set<std::string> harness_subjects = {"float_motion", "motion", "psnr", "vif", "adm", "vmaf"};
  const fs::path root = data_root();
  std::set<std::string> derived_matrices;  // the matrices some plan has a section for
  for (const std::string& name : feature_names()) {
    const nlohmann::json plan = load_json(root / "extractors" / name / "cases.json");
    for (const auto& [matrix, section] : plan.at("matrices").items()) derived_matrices.insert(matrix + ".json");
  }
  // The text of a file as far as a hand would edit it: a twins file without its derived lists.
  const auto hand_written_text = [](const fs::path& p) {
    std::string text = test::read_file(p);
    if (p.parent_path().filename() == "twins" && p.extension() == ".json") {
      nlohmann::json doc = nlohmann::json::parse(text);
      for (auto& twin : doc.at("twins")) {
        twin.erase("features");
        if (twin.contains("variants"))
          for (auto& variant : twin["variants"]) variant.erase("features");
      }
      text = doc.dump();
    }
    return text;
  };
  const auto names_word = [](const std::string& text, const std::string& word) {
    const auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
      if ((at == 0 || !is_word(text[at - 1])) && (at + word.size() == text.size() || !is_word(text[at + word.size()])))
        return true;
    return false;
  };
  int checked = 0;
  for (const std::string& name : feature_names()) {
    if (harness_subjects.count(name)) continue;
    ++checked;
    // The changelog records history, not wiring; CONTRIBUTING.md's worked example is a real feature.
    const std::set<fs::path> allowed_files = {"extractors/features.inc", "extractors/backends.inc", "ci/calibration.json",
                                              "ci/package/changelog"};
    for (const char* top : {".ci", "ci", "docs", "extractors", "goldens", "harness", "kernels", "scripts", "tests", "vectors"}) {
      if (!fs::is_directory(root / top)) continue;
      for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
        if (!entry.is_regular_file()) continue;
        const fs::path rel = fs::relative(entry.path(), root);
        const auto first_two = *std::next(rel.begin());
        if ((*rel.begin() == "extractors" || *rel.begin() == "goldens") && first_two == name) continue;
        if (allowed_files.count(rel)) continue;
        if (*rel.begin() == "ci" && first_two == "matrices" && derived_matrices.count(rel.filename().string())) continue;
        if (entry.file_size() > (4u << 20)) continue;
        BOOST_TEST(!names_word(hand_written_text(entry.path()), name),
                   rel.string() << " names the feature " << name
                                << ": a feature's places are its folder, its goldens, "
                                   "features.inc, backends.inc and ci/calibration.json");
      }
    }
    for (const char* file : {"CMakeLists.txt", "README.md"})
      BOOST_TEST(!names_word(test::read_file(root / file), name), file << " names the feature " << name);
  }
  BOOST_TEST_MESSAGE(checked << " features checked for places outside their own");
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
