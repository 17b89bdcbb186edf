#include "harness/support/numbers.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include <fmt/format.h>
#include <fmt/printf.h>

#include "harness/support/errors.hpp"

namespace twinproof {

NumberStyle parse_number_style(std::string_view text, std::string_view flag) {
  if (text == "exact") return NumberStyle::exact;
  if (text == "vmaf") return NumberStyle::vmaf;
  throw UsageError(std::string(flag), std::string(text), fmt::format("{} '{}': expected exact or vmaf", flag, text));
}

std::string format_number(double v, NumberStyle style) {
  if (std::isnan(v)) return "nan";
  if (style == NumberStyle::exact || std::isinf(v)) return fmt::format("{}", v);
  // libvmaf counts the zeros that open the fraction; past six, %.6f would print 0.000000.
  double fraction = std::fabs(v) - std::trunc(std::fabs(v));
  int zeros = 0;
  while (fraction < 1.0 && fraction != 0) {
    fraction *= 10;
    ++zeros;
  }
  return fmt::sprintf(zeros <= 6 ? "%.6f" : "%.16f", v);
}

std::string hex(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

}  // namespace twinproof
