#include "harness/compare.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

namespace twinproof {

double Tolerance::bound() const { return 0.5 * std::pow(10.0, -places); }

std::string Tolerance::describe() const {
  return mode == Mode::exact ? std::string("exact") : fmt::format("places={}", places);
}

bool Tolerance::looser_than(const Tolerance& other) const {
  if (mode == Mode::exact) return false;
  if (other.mode == Mode::exact) return true;
  return places < other.places;
}

std::uint64_t ulp_distance(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<std::uint64_t>::max();
  // Map the bit patterns onto one ordered integer line: negatives mirrored below zero.
  const auto ordered = [](double x) -> std::int64_t {
    const auto i = std::bit_cast<std::int64_t>(x);
    return i < 0 ? std::numeric_limits<std::int64_t>::min() - i : i;
  };
  const std::int64_t ia = ordered(a), ib = ordered(b);
  return ia > ib ? static_cast<std::uint64_t>(ia) - static_cast<std::uint64_t>(ib)
                 : static_cast<std::uint64_t>(ib) - static_cast<std::uint64_t>(ia);
}

std::string hex(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

std::optional<double> parse_double(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

ValueComparison compare_values(double expected, double actual, const Tolerance& t) {
  ValueComparison c;
  c.ulp = ulp_distance(expected, actual);
  c.abs_diff = std::fabs(expected - actual);
  if (std::isnan(expected) || std::isnan(actual)) {
    c.pass = false;
    c.note = "NaN";
    return c;
  }
  if (std::isinf(expected) || std::isinf(actual)) {
    // Infinities pass only when equal, in any mode.
    c.pass = expected == actual;
    c.abs_diff = c.pass ? 0 : std::numeric_limits<double>::infinity();
    if (!c.pass) c.note = "infinity";
    return c;
  }
  if (t.mode == Tolerance::Mode::exact) {
    c.pass = std::bit_cast<std::uint64_t>(expected) == std::bit_cast<std::uint64_t>(actual);
    if (!c.pass && expected == actual) c.note = "signed zero";
    return c;
  }
  c.pass = c.abs_diff < t.bound();
  return c;
}

}  // namespace twinproof
