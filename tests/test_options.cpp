#include <boost/test/unit_test.hpp>

#include "extractors/feature.hpp"
#include "extractors/float_motion/options.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using twinproof::test::contains;
using namespace twinproof::float_motion;

namespace {
// The message of the ConfigError that parsing `opts` raises ("" if none).
std::string refusal(const OptionList& opts) {
  try {
    parse_options(opts);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return {};
}
}  // namespace

BOOST_AUTO_TEST_SUITE(options)

BOOST_AUTO_TEST_CASE(defaults_are_the_spec_table) {
  const MotionOptions o = parse_options({});
  BOOST_TEST(o.score.force_zero == false);
  BOOST_TEST(o.score.fps_weight == 1.0);
  BOOST_TEST(o.score.blend_factor == 1.0);
  BOOST_TEST(o.score.blend_offset == 40.0);
  BOOST_TEST(o.add_scale1 == false);
  BOOST_TEST(o.filter_size == 5);
  BOOST_TEST(o.add_uv == false);
  BOOST_TEST(o.score.max_val == 10000.0);
  BOOST_TEST(o.debug == true);
}

BOOST_AUTO_TEST_CASE(names_and_aliases) {
  const MotionOptions a = parse_options({{"force_0", "true"},
                                         {"mfw", "2.5"},
                                         {"mbf", "0.25"},
                                         {"mbo", "10"},
                                         {"mdc", "true"},
                                         {"mfs", "3"},
                                         {"mau", "true"},
                                         {"mmxv", "20"}});
  BOOST_TEST(a.score.force_zero);
  BOOST_TEST(a.score.fps_weight == 2.5);
  BOOST_TEST(a.score.blend_factor == 0.25);
  BOOST_TEST(a.score.blend_offset == 10.0);
  BOOST_TEST(a.add_scale1);
  BOOST_TEST(a.filter_size == 3);
  BOOST_TEST(a.add_uv);
  BOOST_TEST(a.score.max_val == 20.0);
  const MotionOptions b = parse_options({{"motion_fps_weight", "1.75"}, {"debug", "false"}});
  BOOST_TEST(b.score.fps_weight == 1.75);
  BOOST_TEST(b.debug == false);
}

BOOST_AUTO_TEST_CASE(values_are_used_exactly_as_given) {
  // 0.1 is not representable; the parsed double must be the nearest one, as strtod gives it.
  BOOST_TEST(parse_options({{"mbf", "0.1"}}).score.blend_factor == 0.1);
  BOOST_TEST(parse_options({{"mfw", "4.999999999999999"}}).score.fps_weight == 4.999999999999999);
}

BOOST_AUTO_TEST_CASE(range_bounds_are_inclusive) {
  BOOST_TEST(parse_options({{"mfw", "0"}}).score.fps_weight == 0.0);
  BOOST_TEST(parse_options({{"mfw", "5"}}).score.fps_weight == 5.0);
  BOOST_TEST(parse_options({{"mfs", "0"}}).filter_size == 0);
  BOOST_TEST(parse_options({{"mfs", "9"}}).filter_size == 9);
  BOOST_TEST(parse_options({{"mmxv", "10000"}}).score.max_val == 10000.0);
  BOOST_TEST(contains(refusal({{"mfw", "5.000001"}}), "out of range"));
  BOOST_TEST(contains(refusal({{"mfs", "-1"}}), "out of range"));
  BOOST_TEST(contains(refusal({{"mbo", "1000.5"}}), "[0, 1000]"));
}

BOOST_AUTO_TEST_CASE(malformed_values_name_option_value_and_range) {
  const std::string m = refusal({{"motion_filter_size", "3.7"}});
  BOOST_TEST(contains(m, "motion_filter_size"));
  BOOST_TEST(contains(m, "'3.7'"));
  BOOST_TEST(contains(m, "an integer in [0, 9]"));
  BOOST_TEST(contains(refusal({{"mfs", "5.0"}}), "not an integer"));
  BOOST_TEST(contains(refusal({{"mfw", "inf"}}), "not finite"));
  BOOST_TEST(contains(refusal({{"mfw", "nan"}}), "not finite"));
  BOOST_TEST(contains(refusal({{"mfw", "2.5x"}}), "not a number"));
  BOOST_TEST(contains(refusal({{"mfw", ""}}), "not a number"));
  BOOST_TEST(contains(refusal({{"mfw", " 1"}}), "not a number"));
  BOOST_TEST(contains(refusal({{"mau", "1"}}), "not a boolean"));
  BOOST_TEST(contains(refusal({{"mau", "TRUE"}}), "not a boolean"));
}

BOOST_AUTO_TEST_CASE(unknown_and_repeated_options) {
  const std::string m = refusal({{"motion_foo", "1"}});
  BOOST_TEST(contains(m, "unknown option 'motion_foo'"));
  BOOST_TEST(contains(m, "motion_fps_weight"));  // lists what is known
  BOOST_TEST(contains(refusal({{"mfw", "1"}, {"motion_fps_weight", "2"}}), "more than once"));
}

BOOST_AUTO_TEST_CASE(a_table_without_options_says_so) {
  // A feature that takes no options (an empty table, as libvmaf's float PSNR has) refuses any it is
  // given by name and value, and says it takes none rather than listing nothing.
  struct NoOptions {
  } target;
  try {
    twinproof::parse_options(std::span<const OptionSpec>{}, {{"foo", "1"}}, &target);
    BOOST_FAIL("expected a refusal");
  } catch (const ConfigError& e) {
    BOOST_TEST(e.subject() == "option foo");
    BOOST_TEST(e.value() == "1");
    BOOST_TEST(contains(e.what(), "unknown option 'foo' (value '1'): this feature takes no options"), e.what());
  }
  twinproof::parse_options(std::span<const OptionSpec>{}, {}, &target);  // none given: nothing to refuse
  // Every registered feature with an empty table refuses the same way through score (exit 2).
  for (const FeatureDescriptor* f : features()) {
    if (!f->options.empty()) continue;
    const auto r = test::run_cli({"score", "vector:check_pan64x48", "--feature", std::string(f->name), "--option", "foo=1"});
    BOOST_TEST(r.rc == 2, f->name);
    BOOST_TEST(contains(r.err, "this feature takes no options"), f->name << ": " << r.err);
  }
}

BOOST_AUTO_TEST_CASE(error_names_subject_and_value) {
  try {
    parse_options({{"mbf", "1.5"}});
    BOOST_FAIL("expected a ConfigError");
  } catch (const ConfigError& e) {
    BOOST_TEST(e.subject() == "option motion_blend_factor");
    BOOST_TEST(e.value() == "1.5");
  }
}

BOOST_AUTO_TEST_SUITE_END()
