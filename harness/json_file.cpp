#include "harness/json_file.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include <fmt/format.h>

namespace twinproof {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The deepest nesting of arrays and objects in `text`, found by one pass over its brackets outside
// strings, stopping past `limit`. (nlohmann's callback parser could check depth as it goes, but it
// rescans a container at each element's end: quadratic in an array of objects.)
int nesting_depth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

// Finds the first key given twice in one object, by a SAX pass ahead of the parse: nlohmann keeps
// the last of two equal keys without a word, so a waiver with two `expires` or a frame with one
// metric twice would be read as whichever came last. `path` names it ("waivers[1].expires").
class DuplicateKeyFinder : public nlohmann::json_sax<json> {
 public:
  std::optional<std::string> duplicate;

  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool string(string_t&) override { return scalar(); }
  bool binary(binary_t&) override { return scalar(); }
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& k) override {
    Level& top = levels_.back();
    top.key = k;
    if (top.keys.insert(k).second) return true;
    duplicate = path();
    return false;  // ends the SAX pass; the caller reports the key
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;  // the DOM parse that follows reports it, with its byte offset
  }

 private:
  struct Level {
    bool object = false;
    std::set<std::string> keys;
    std::string key;
    std::size_t index = 0;
  };
  std::vector<Level> levels_;

  bool scalar() {
    if (!levels_.empty() && !levels_.back().object) ++levels_.back().index;
    return true;
  }
  bool open(bool object) {
    levels_.push_back({object, {}, {}, 0});
    return true;
  }
  bool close() {
    levels_.pop_back();
    return scalar();
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
  if (nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth)
    throw InputError(file, field, fmt::format("depth > {}", kMaxJsonDepth),
                     fmt::format("nested deeper than {} levels: not a file of this project", kMaxJsonDepth));
  try {
    DuplicateKeyFinder finder;
    json::sax_parse(text.begin(), text.end(), &finder);
    if (finder.duplicate)
      throw InputError(file, field == "json" || field == "document" ? *finder.duplicate : field + ": " + *finder.duplicate, "(given twice)",
                       "a key appears twice in one object; which one is meant is not a guess to make");
    return json::parse(text.begin(), text.end());
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
  const std::string file = path.string();
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) throw InputError(file, "file", file, "cannot open " + what + ": no such file");
  if (fs::is_directory(st)) throw InputError(file, "file", file, "cannot open " + what + ": is a directory");
  if (!fs::is_regular_file(st)) throw InputError(file, "file", file, "cannot open " + what + ": not a regular file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw InputError(file, "file", file, "cannot open " + what + ": " + ec.message());
  if (size > kMaxJsonBytes)
    throw InputError(file, "size", fmt::format("{} bytes", size), fmt::format("larger than the {} bytes allowed for {}", kMaxJsonBytes, what));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(file, "file", file, "cannot open " + what);
  std::ostringstream text;
  if (!(text << in.rdbuf()) && size > 0) throw InputError(file, "file", file, "cannot read " + what);
  return text.str();
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
