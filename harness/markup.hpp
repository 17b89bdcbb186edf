// Text placed in HTML or XML (an element's text or a quoted attribute): the HTML report and the
// vmaf-shaped XML escape it the same way.
#pragma once

#include <string>
#include <string_view>

namespace twinproof {

inline std::string escape_markup(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace twinproof
