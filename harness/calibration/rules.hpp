// Comparison of scores: `exact` (the same double bit pattern), `places` N (Python's
// assertAlmostEqual: |a - b| < 0.5 * 10^-N), or `printed` in a format (for a twin whose output
// is text with fewer digits than a double needs: the reference's double, printed in that format,
// must read back as exactly the twin's value). NaN never passes in any mode.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "harness/support/numbers.hpp"

namespace twinproof {

struct Tolerance {
  enum class Mode { exact, places, printed } mode = Mode::exact;
  int places = 0;      // with Mode::places
  std::string format;  // with Mode::printed: "vmaf" (libvmaf's writers) or "%.Nf", "%.Ne", "%.Ng"

  static Tolerance exact() { return {Mode::exact, 0, {}}; }
  static Tolerance at_places(int n) { return {Mode::places, n, {}}; }
  // Throws std::invalid_argument for a format other than those above.
  static Tolerance printed_as(const std::string& format);
  double bound() const;          // 0.5 * 10^-places
  std::string describe() const;  // "exact", "places=4" or "printed(%.6f)"
  // The text a value has in the printed format.
  std::string print(double v) const;
  // The decimal places a printed format keeps (vmaf: 6), for ordering tolerances.
  int printed_places() const;
  // Whether `other` accepts anything this one rejects.
  bool looser_than(const Tolerance& other) const;
};

// Distance in units in the last place between two doubles, counted along the ordered line of
// representable values (+0 and -0 are 0 apart). NaN gives UINT64_MAX.
std::uint64_t ulp_distance(double a, double b);

// The inverse of hex() (support/numbers.hpp; decimal too); nullopt if malformed.
std::optional<double> parse_double(const std::string& s);

struct ValueComparison {
  bool pass = false;
  double abs_diff = 0;  // |a - b|; NaN if either is NaN
  std::uint64_t ulp = 0;
  std::string note;  // "NaN", "signed zero", "infinity" when it explains a failure
};

ValueComparison compare_values(double expected, double actual, const Tolerance& t);

}  // namespace twinproof
