// Reading the JSON the project is given (matrices, tables, goldens, manifests, bundles, result
// records). Everything read from outside is bounded before it is trusted: a file must be a
// regular file of at most kMaxJsonBytes, nesting deeper than kMaxJsonDepth is refused while
// parsing (the parser is iterative, but printing or walking a deep value recurses), and a
// value shown in an error message is an excerpt, never a dump of the whole thing. Any fault is an
// InputError naming the file, the field and where the parse stopped.
#pragma once

#include <concepts>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "harness/support/errors.hpp"

namespace twinproof {

inline constexpr int kMaxJsonDepth = 64;
inline constexpr std::uintmax_t kMaxJsonBytes = 64u << 20;

// `what` completes "cannot open ...", e.g. "the calibration table".
nlohmann::json read_json_file(const std::filesystem::path& file, const std::string& what);
// The whole of a regular file that holds a document (the same size limit), or InputError.
std::string read_text_file(const std::filesystem::path& file, const std::string& what);

// One JSON text (a line of results.jsonl), with the same limits; `field` says where it came from.
nlohmann::json parse_json_text(std::string_view text, const std::string& file, const std::string& field);

// A JSON value as text for a file or a line twinproof writes: bytes of its strings that are not
// UTF-8 (from outside: a program's stderr, a file name) become U+FFFD instead of failing the run.
std::string json_text(const nlohmann::json& j, int indent = -1);

// A short, printable rendering of a value for an error message: scalars as JSON (strings cut at
// 40 characters), containers as "an array of N" / "an object of N keys".
std::string json_excerpt(const nlohmann::json& j);

// A field of outside data whose value is out of its range; walking_json_file turns it into an
// InputError naming the file. It stays a std::out_of_range for readers that catch the standard type.
class JsonFieldError : public std::out_of_range {
 public:
  JsonFieldError(std::string field, std::string value, const std::string& message)
      : std::out_of_range(field + " is " + value + ", " + message),
        field_(std::move(field)),
        value_(std::move(value)),
        message_(message) {}
  const std::string& field() const { return field_; }
  const std::string& value() const { return value_; }
  const std::string& message() const { return message_; }

 private:
  std::string field_, value_, message_;
};

// An integer field of outside data, checked before it is converted: nlohmann's get<int>() converts
// a float (1e300) or a negative number to an integer type with a cast that is undefined or wraps.
// Throws JsonFieldError naming `field` for anything but a JSON integer that fits in `Int`.
template <std::integral Int>
Int json_integer(const nlohmann::json& v, std::string_view field) {
  if (v.is_number_unsigned()) {
    if (const auto u = v.get<std::uint64_t>(); std::in_range<Int>(u)) return static_cast<Int>(u);
  } else if (v.is_number_integer()) {
    if (const auto i = v.get<std::int64_t>(); std::in_range<Int>(i)) return static_cast<Int>(i);
  }
  throw JsonFieldError(std::string(field), json_excerpt(v), "not an integer in range");
}

// Refuses a key of `object` that is not in `known` (a misspelt key must not be ignored).
void reject_unknown_keys(const nlohmann::json& object, std::span<const std::string_view> known, const std::string& file,
                         const std::string& where);
inline void reject_unknown_keys(const nlohmann::json& object, std::initializer_list<std::string_view> known,
                                const std::string& file, const std::string& where) {
  reject_unknown_keys(object, std::span<const std::string_view>(known.begin(), known.size()), file, where);
}

// nlohmann's message without its "[json.exception.type_error.302] " prefix.
std::string json_fault_text(const nlohmann::json::exception& e);

// Runs `body` (which walks a parsed file) and turns nlohmann's type and range faults, and a
// JsonFieldError, into an InputError naming the file, without the library's internal text.
template <class Body>
auto walking_json_file(const std::string& file, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file, "json", "", std::string("unexpected shape: ") + json_fault_text(e));
  } catch (const JsonFieldError& e) {
    throw InputError(file, e.field(), e.value(), e.message());
  }
}

}  // namespace twinproof
