// Goldens in process: the reference against a few oracle cases, and the check's own verdicts.
#include <boost/test/unit_test.hpp>

#include "harness/goldens/goldens.hpp"
#include "harness/support/paths.hpp"
#include "tests/support.hpp"

using namespace twinproof;

BOOST_AUTO_TEST_SUITE(goldens)

BOOST_AUTO_TEST_CASE(every_golden_file_loads_with_oracle_provenance) {
  const auto files = load_goldens("float_motion");
  std::size_t cases = 0, refusals = 0;
  for (const GoldenFile& f : files) {
    BOOST_TEST(f.provenance["kind"] == "oracle");
    BOOST_TEST(f.provenance["commit"] == "f85a853692a8c730d0270cd733c8bb30b5b93b7c");
    cases += f.cases.size();
    refusals += f.refusals.size();
  }
  BOOST_TEST(cases == 55u);
  BOOST_TEST(refusals == 11u);
}

BOOST_AUTO_TEST_CASE(reference_matches_small_oracle_cases) {
  const Backend& cpu = *find_backend("float_motion", "cpu");
  for (const char* vector : {"tiny3", "tiny2", "single", "flash64", "ramp256_16b", "odd175_420", "mono160"}) {
    const GoldenFile g = load_golden_file(data_root() / "goldens/float_motion" / (std::string(vector) + ".json"));
    for (const GoldenCase& c : g.cases) {
      const GoldenResult r = check_case(cpu, c, ExtractorContext{});
      BOOST_TEST_CONTEXT(c.id << ": " << r.detail) {
        BOOST_TEST(r.status == GoldenStatus::pass);
        BOOST_TEST(r.comparison.max_ulp == 0u);
      }
    }
    for (const GoldenRefusal& e : g.refusals) BOOST_TEST(check_refusal(cpu, e, ExtractorContext{}).status == GoldenStatus::pass);
  }
}

BOOST_AUTO_TEST_CASE(a_wrong_expectation_fails_with_the_ulp_distance) {
  const Backend& cpu = *find_backend("float_motion", "cpu");
  GoldenFile g = load_golden_file(data_root() / "goldens/float_motion/tiny3.json");
  GoldenCase c = g.cases.front();
  auto col = c.expected.columns().at("motion2");
  col[2] = std::nextafter(*col[2], 1e300);  // one ULP up
  c.expected.set_column("motion2", col);
  const GoldenResult r = check_case(cpu, c, ExtractorContext{});
  BOOST_TEST(r.status == GoldenStatus::fail);
  BOOST_TEST(r.comparison.mismatches == 1u);
  BOOST_TEST(r.comparison.first->frame == 2u);
  BOOST_TEST(r.comparison.first->cmp.ulp == 1u);
  BOOST_TEST(r.detail.find("1 ULP") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(accepting_a_refused_configuration_fails) {
  const Backend& cpu = *find_backend("float_motion", "cpu");
  GoldenRefusal r{"tiny3/made-up", "tiny3", {{"mfs", "3"}}, false};
  BOOST_TEST(check_refusal(cpu, r, ExtractorContext{}).status == GoldenStatus::fail);
}

BOOST_AUTO_TEST_SUITE_END()
