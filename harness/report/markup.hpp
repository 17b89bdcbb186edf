// Text placed in HTML or XML (an element's text or a quoted attribute): the HTML report and the
// vmaf-shaped XML escape it the same way. Text from outside (a program's stderr, a file name, a
// plugin's version) may hold any bytes: what is not well-formed UTF-8, and characters XML 1.0
// does not allow (controls but tab, LF and CR; U+FFFE, U+FFFF), become U+FFFD, so that no
// report is ill-formed and no JSON writer fails on them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace twinproof {

// The code point of the well-formed UTF-8 sequence at s[i] and its length, or length 0 where the
// bytes there are not one (a stray continuation byte, a truncated or overlong sequence, a
// surrogate, a value above U+10FFFF).
struct Utf8Char {
  char32_t code = 0;
  std::size_t length = 0;
};
inline Utf8Char decode_utf8(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  if (c < 0x80) return {c, 1};
  const std::size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
  if (n == 0 || c > 0xf4 || i + n > s.size()) return {};
  char32_t code = c & (0x7f >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xc0) != 0x80) return {};
    code = (code << 6) | (b(k) & 0x3f);
  }
  static constexpr char32_t kLeast[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kLeast[n] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return {};
  return {code, n};
}

// `s` as well-formed UTF-8 of characters XML 1.0 allows; anything else becomes U+FFFD.
inline std::string xml_text(std::string_view s) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const Utf8Char ch = decode_utf8(s, i);
    const char32_t c = ch.code;
    const bool allowed = ch.length != 0 && (c == 0x9 || c == 0xa || c == 0xd || (c >= 0x20 && c != 0xfffe && c != 0xffff));
    if (allowed) out.append(s.substr(i, ch.length));
    else out += kReplacement;
    i += ch.length != 0 ? ch.length : 1;
  }
  return out;
}

inline std::string escape_markup(std::string_view text) {
  const std::string s = xml_text(text);
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
