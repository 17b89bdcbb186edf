// Numbers as twinproof prints them: the shortest text that reads back as the same double, libvmaf's
// printf, and C's %a. Shared by every room that writes a score (documents, reports, comparisons).
#pragma once

#include <string>
#include <string_view>

namespace twinproof {

enum class NumberStyle {
  exact,  // the shortest text that reads back as the same double (what proves bit equality)
  vmaf,   // libvmaf's printf: %.6f, or %.16f when the fraction starts with more than 6 zeros
};
// "exact" or "vmaf"; throws UsageError naming `flag`.
NumberStyle parse_number_style(std::string_view text, std::string_view flag);
std::string format_number(double v, NumberStyle style);

// "%a" of a double: 0x1.5e5926p+4.
std::string hex(double v);

}  // namespace twinproof
