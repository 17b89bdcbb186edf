// Comparison of scores: `exact` (the same double bit pattern) or `places` N (Python's
// assertAlmostEqual: |a - b| < 0.5 * 10^-N). NaN never passes in any mode.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace twinproof {

struct Tolerance {
  enum class Mode { exact, places } mode = Mode::exact;
  int places = 0;  // with Mode::places

  static Tolerance exact() { return {Mode::exact, 0}; }
  static Tolerance at_places(int n) { return {Mode::places, n}; }
  double bound() const;       // 0.5 * 10^-places
  std::string describe() const;  // "exact" or "places=4"
  // Whether `other` accepts anything this one rejects.
  bool looser_than(const Tolerance& other) const;
};

// Distance in units in the last place between two doubles, counted along the ordered line of
// representable values (+0 and -0 are 0 apart). NaN gives UINT64_MAX.
std::uint64_t ulp_distance(double a, double b);

// "%a" of a double: 0x1.5e5926p+4. And its inverse (also accepts decimal); nullopt if malformed.
std::string hex(double v);
std::optional<double> parse_double(const std::string& s);

struct ValueComparison {
  bool pass = false;
  double abs_diff = 0;       // |a - b|; NaN if either is NaN
  std::uint64_t ulp = 0;
  std::string note;          // "NaN", "signed zero", "infinity" when it explains a failure
};

ValueComparison compare_values(double expected, double actual, const Tolerance& t);

}  // namespace twinproof
