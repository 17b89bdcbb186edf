#include "harness/support/json_file.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "extractors/input_files.hpp"

namespace twinproof {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// nlohmann's own DOM builder, which also refuses a key given twice in one object: nlohmann keeps
// the last of two equal keys without a word, so a waiver with two `expires` or a frame with one
// metric twice would be read as whichever came last. One pass: the check costs no second parse of
// a large golden. `duplicate` names the key's path ("waivers[1].expires"). (json_sax_dom_parser is
// nlohmann's detail, stable since 3.2; sax_parse calls these members by the handler's own type.)
class CheckedDomParser : public nlohmann::detail::json_sax_dom_parser<json> {
  using Base = nlohmann::detail::json_sax_dom_parser<json>;

 public:
  explicit CheckedDomParser(json& root) : Base(root, true) {}
  std::optional<std::string> duplicate;

  bool null() { return scalar(), Base::null(); }
  bool boolean(bool v) { return scalar(), Base::boolean(v); }
  bool number_integer(number_integer_t v) { return scalar(), Base::number_integer(v); }
  bool number_unsigned(number_unsigned_t v) { return scalar(), Base::number_unsigned(v); }
  bool number_float(number_float_t v, const string_t& s) { return scalar(), Base::number_float(v, s); }
  bool string(string_t& v) { return scalar(), Base::string(v); }
  bool binary(binary_t& v) { return scalar(), Base::binary(v); }
  bool start_object(std::size_t n) { return open(true), Base::start_object(n); }
  bool start_array(std::size_t n) { return open(false), Base::start_array(n); }
  bool end_object() { return close(), Base::end_object(); }
  bool end_array() { return close(), Base::end_array(); }
  bool key(string_t& k) {
    Level& top = levels_.back();
    top.key = k;
    if (!top.keys.insert(k).second) {
      duplicate = path();
      return false;  // ends the parse; the caller reports the key
    }
    return Base::key(k);
  }

 private:
  struct Level {
    bool object = false;
    std::set<std::string> keys;
    std::string key;
    std::size_t index = 0;
  };
  std::vector<Level> levels_;

  void scalar() {
    if (!levels_.empty() && !levels_.back().object) ++levels_.back().index;
  }
  void open(bool object) { levels_.push_back({object, {}, {}, 0}); }
  void close() {
    levels_.pop_back();
    scalar();
  }
  std::string path() const {
    std::string p;
    for (const Level& l : levels_) {
      if (l.object) p += (p.empty() ? "" : ".") + l.key;
      else p += fmt::format("[{}]", l.index);
    }
    return p;
  }
};

json parse_bounded(std::string_view text, const std::string& file, const std::string& field) {
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth)
    throw InputError(file, field, fmt::format("depth > {}", kMaxJsonDepth),
                     fmt::format("nested deeper than {} levels: not a file of this project", kMaxJsonDepth));
  try {
    json doc;
    CheckedDomParser parser(doc);
    json::sax_parse(text.begin(), text.end(), &parser);  // a syntax error throws json::parse_error
    if (parser.duplicate)
      throw InputError(file, field == "json" || field == "document" ? *parser.duplicate : field + ": " + *parser.duplicate,
                       "(given twice)", "a key appears twice in one object; which one is meant is not a guess to make");
    return doc;
  } catch (const json::parse_error& e) {
    throw InputError(file, field, fmt::format("byte {}", e.byte), "not valid JSON: " + json_fault_text(e));
  } catch (const json::exception& e) {  // a number too large for a double (1e99999) is out_of_range
    throw InputError(file, field, "", "not valid JSON: " + json_fault_text(e));
  }
}

}  // namespace

std::string json_fault_text(const json::exception& e) {
  std::string s = e.what();
  if (!s.empty() && s[0] == '[') {
    const auto close = s.find("] ");
    if (close != std::string::npos) s.erase(0, close + 2);
  }
  return s;
}

std::string read_text_file(const fs::path& path, const std::string& what) {
  try {
    return read_bounded_file(path, kMaxJsonBytes, what);
  } catch (const ConfigError& e) {
    throw InputError(path.string(), e.subject(), e.value(), e.what());
  }
}

json read_json_file(const fs::path& path, const std::string& what) {
  return parse_bounded(read_text_file(path, what), path.string(), "json");
}

json parse_json_text(std::string_view text, const std::string& file, const std::string& field) {
  if (text.size() > kMaxJsonBytes)
    throw InputError(file, field, fmt::format("{} bytes", text.size()), "a JSON text larger than allowed");
  return parse_bounded(text, file, field);
}

std::string json_text(const json& j, int indent) { return j.dump(indent, ' ', false, json::error_handler_t::replace); }

std::string json_excerpt(const json& j) {
  if (j.is_array()) return fmt::format("an array of {}", j.size());
  if (j.is_object()) return fmt::format("an object of {} keys", j.size());
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    return s.size() > 40 ? json_text(json(s.substr(0, 40))) + "..." : json_text(j);
  }
  return json_text(j);
}

void reject_unknown_keys(const json& object, std::span<const std::string_view> known, const std::string& file,
                         const std::string& where) {
  if (!object.is_object()) return;
  for (const auto& [key, value] : object.items()) {
    bool ok = false;
    for (std::string_view k : known) ok = ok || key == k;
    if (ok) continue;
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    throw InputError(file, where.empty() ? key : where + "." + key, key, fmt::format("unknown key (known here: {})", list));
  }
}

}  // namespace twinproof
