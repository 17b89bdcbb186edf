// The motion / motion2 / motion3 frame loop shared by every backend, driven by a scripted engine.
#include <deque>

#include <boost/test/unit_test.hpp>

#include "extractors/float_motion/motion.hpp"
#include "harness/scoring/scores.hpp"
#include "tests/support.hpp"

using namespace twinproof;
using namespace twinproof::float_motion;

namespace {

// Returns S(t-1, t) = scores[t-1]; holds results back until take(wait=true) when `lazy`, as an
// asynchronous device engine would.
class ScriptedEngine final : public MotionEngine {
 public:
  ScriptedEngine(std::vector<double> scores, bool lazy, int* submits)
      : scores_(std::move(scores)), lazy_(lazy), submits_(submits) {}
  void init(const Format&, const std::vector<PlaneGeometry>&, const MotionOptions&) override {}
  void submit(const PictureView&) override {
    if (submits_) ++*submits_;
    if (frames_++ > 0) pending_.push_back(scores_.at(frames_ - 2));
  }
  std::optional<double> take(bool wait) override {
    if (pending_.empty() || (lazy_ && !wait)) return std::nullopt;
    const double s = pending_.front();
    pending_.pop_front();
    return s;
  }

 private:
  std::vector<double> scores_;
  bool lazy_;
  int* submits_;
  unsigned frames_ = 0;
  std::deque<double> pending_;
};

ScoreTable run(const std::vector<double>& pair_scores, unsigned frames, const OptionList& opts, bool lazy = false,
               int* submits = nullptr) {
  const Format fmt{16, 16, 8, Chroma::c420};
  MotionExtractor ex(std::make_unique<ScriptedEngine>(pair_scores, lazy, submits), ExtractorContext{});
  ex.init(fmt, opts);
  const Frame f = test::make_frame(fmt, [](int, int, int) { return 128u; });
  ScoreTable t;
  for (unsigned i = 0; i < frames; ++i) ex.extract(f.view(), f.view(), i, t);
  ex.flush(t);
  return t;
}

std::vector<double> column(const ScoreTable& t, const std::string& m, unsigned frames) {
  std::vector<double> v;
  for (unsigned i = 0; i < frames; ++i) v.push_back(t.get(m, i).value_or(-1.0));
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(frame_loop)

BOOST_AUTO_TEST_CASE(motion_motion2_motion3_by_the_table) {
  // S(0,1) = 4, S(1,2) = 2, S(2,3) = 6.
  const ScoreTable t = run({4, 2, 6}, 4, {});
  BOOST_TEST(column(t, "motion", 4) == (std::vector<double>{0, 4, 2, 6}), boost::test_tools::per_element());
  BOOST_TEST(column(t, "motion2", 4) == (std::vector<double>{0, 2, 2, 6}), boost::test_tools::per_element());
  BOOST_TEST(column(t, "motion3", 4) == (std::vector<double>{4, 2, 2, 6}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(asynchronous_engine_gives_the_same_table) {
  const ScoreTable a = run({4, 2, 6, 1}, 5, {{"mfw", "2.5"}});
  const ScoreTable b = run({4, 2, 6, 1}, 5, {{"mfw", "2.5"}}, true);
  BOOST_TEST(compare_tables(a, b, Tolerance::exact()).pass);
}

BOOST_AUTO_TEST_CASE(single_frame) {
  const ScoreTable t = run({}, 1, {});
  BOOST_TEST(*t.get("motion", 0) == 0.0);
  BOOST_TEST(*t.get("motion2", 0) == 0.0);
  BOOST_TEST(*t.get("motion3", 0) == 0.0);
}

BOOST_AUTO_TEST_CASE(fps_weight_max_val_and_blend) {
  // clip(m) = min(m * fw, mx); clip3(m) = min(blend(m * fw), mx), blend(m) = m*bf + (1-bf)*min(bo, m).
  const OptionList o = {{"mfw", "2.5"}, {"mmxv", "12"}, {"mbf", "0.5"}, {"mbo", "3"}};
  const ScoreTable t = run({4, 2}, 3, o);
  BOOST_TEST(*t.get("motion", 1) == 10.0);                   // 4 * 2.5
  BOOST_TEST(*t.get("motion", 2) == 5.0);                    // 2 * 2.5
  BOOST_TEST(*t.get("motion3", 0) == 10.0 * 0.5 + 0.5 * 3);  // blend(10) = 6.5 (weighted first)
  BOOST_TEST(*t.get("motion2", 1) == 5.0);                   // min(4, 2) * 2.5
  BOOST_TEST(*t.get("motion3", 1) == 5.0 * 0.5 + 0.5 * 3);   // 4
  const ScoreTable big = run({100}, 2, o);
  BOOST_TEST(*big.get("motion", 1) == 12.0);  // clipped at max_val
  BOOST_TEST(*big.get("motion3", 0) == 12.0);
}

BOOST_AUTO_TEST_CASE(debug_false_omits_motion) {
  const ScoreTable t = run({4, 2}, 3, {{"debug", "false"}});
  BOOST_TEST(!t.get("motion", 1).has_value());
  BOOST_TEST(*t.get("motion2", 2) == 2.0);
}

BOOST_AUTO_TEST_CASE(force_zero_blurs_nothing_and_emits_zeros) {
  int submits = 0;
  const ScoreTable t = run({4, 2}, 3, {{"force_0", "true"}}, false, &submits);
  BOOST_TEST(submits == 0);
  for (unsigned i = 0; i < 3; ++i) {
    BOOST_TEST(*t.get("motion", i) == 0.0);
    BOOST_TEST(*t.get("motion2", i) == 0.0);
    BOOST_TEST(*t.get("motion3", i) == 0.0);
  }
}

BOOST_AUTO_TEST_CASE(geometry_errors_at_init_for_every_option_set) {
  MotionExtractor ex(std::make_unique<ScriptedEngine>(std::vector<double>{}, false, nullptr), ExtractorContext{});
  BOOST_CHECK_THROW(ex.init({16, 16, 8, Chroma::c400}, {{"mau", "true"}}), ConfigError);
  BOOST_CHECK_THROW(ex.init({2, 2, 8, Chroma::c444}, {{"force_0", "true"}}), ConfigError);
  BOOST_CHECK_THROW(ex.init({4, 4, 8, Chroma::c420}, {{"mau", "true"}}), ConfigError);  // chroma 2x2 < 3x3
  BOOST_CHECK_NO_THROW(ex.init({4, 4, 8, Chroma::c420}, {{"mau", "true"}, {"mfs", "3"}}));
  BOOST_CHECK_THROW(ex.init({15362, 16, 8, Chroma::c420}, {{"mdc", "true"}}), ConfigError);  // sw 7681
  BOOST_CHECK_NO_THROW(ex.init({15360, 16, 8, Chroma::c420}, {{"mdc", "true"}}));
  BOOST_CHECK_THROW(ex.init({16, 16, 9, Chroma::c420}, {}), ConfigError);
}

BOOST_AUTO_TEST_CASE(chroma_geometry_of_odd_sizes) {
  const auto planes = planes_used({175, 99, 8, Chroma::c420}, parse_options({{"mau", "true"}}));
  BOOST_TEST(planes.size() == 3u);
  BOOST_TEST(planes[1].w == 87);  // 175 >> 1, not the stored 88
  BOOST_TEST(planes[1].h == 49);
  const auto p422 = planes_used({33, 17, 8, Chroma::c422}, parse_options({{"mau", "true"}, {"mdc", "true"}}));
  BOOST_TEST(p422[2].w == 16);
  BOOST_TEST(p422[2].h == 17);
  BOOST_TEST(p422[2].sw == 8);
  BOOST_TEST(p422[2].sh == 9);
}

BOOST_AUTO_TEST_CASE(wrong_picture_format_is_refused) {
  MotionExtractor ex(std::make_unique<ScriptedEngine>(std::vector<double>{}, false, nullptr), ExtractorContext{});
  ex.init({16, 16, 8, Chroma::c420}, {});
  const Frame f = test::make_frame({16, 16, 10, Chroma::c420}, [](int, int, int) { return 0u; });
  ScoreTable t;
  BOOST_CHECK_THROW(ex.extract(f.view(), f.view(), 0, t), ConfigError);
}

BOOST_AUTO_TEST_SUITE_END()
