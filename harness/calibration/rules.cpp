#include "harness/calibration/rules.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <regex>
#include <stdexcept>

#include <fmt/format.h>

#include "harness/support/numbers.hpp"

namespace twinproof {

namespace {
// "%.Nf", "%.Ne" or "%.Ng" with N in [0, 17]: the only printf formats a row may name (a row is
// data from outside; it never reaches printf unchecked).
bool is_plain_format(const std::string& f) {
  static const std::regex re("%\\.([0-9]|1[0-7])[feg]");
  return std::regex_match(f, re);
}
}  // namespace

Tolerance Tolerance::printed_as(const std::string& format) {
  if (format != "vmaf" && !is_plain_format(format))
    throw std::invalid_argument("a printed format is \"vmaf\" (libvmaf's writers) or %.Nf, %.Ne, %.Ng with N in [0, 17]");
  return {Mode::printed, 0, format};
}

double Tolerance::bound() const { return 0.5 * std::pow(10.0, -places); }

std::string Tolerance::describe() const {
  switch (mode) {
    case Mode::exact: return "exact";
    case Mode::places: return fmt::format("places={}", places);
    case Mode::printed: return fmt::format("printed({})", format);
  }
  return "?";
}

std::string Tolerance::print(double v) const {
  if (format == "vmaf") return format_number(v, NumberStyle::vmaf);
  char buf[512];
  std::snprintf(buf, sizeof buf, format.c_str(), v);  // checked by printed_as
  return buf;
}

int Tolerance::printed_places() const { return format == "vmaf" ? 6 : std::stoi(format.substr(2)); }

bool Tolerance::looser_than(const Tolerance& other) const {
  if (mode == Mode::exact) return false;
  if (other.mode == Mode::exact) return true;
  const auto digits = [](const Tolerance& t) { return t.mode == Mode::places ? t.places : t.printed_places(); };
  return digits(*this) < digits(other);
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
  if (t.mode == Tolerance::Mode::printed) {
    // The twin's text read back is `actual`; the reference printed the same way must read back
    // as the same double (for a fixed-digit format: the same text).
    const std::string text = t.print(expected);
    c.pass = std::bit_cast<std::uint64_t>(std::strtod(text.c_str(), nullptr)) == std::bit_cast<std::uint64_t>(actual);
    if (!c.pass) c.note = "the reference prints as " + text;
    return c;
  }
  c.pass = c.abs_diff < t.bound();
  return c;
}

}  // namespace twinproof
