#include "options.hpp"

#include <charconv>
#include <cmath>
#include <set>

#include <fmt/format.h>

namespace twinproof::float_motion {

const std::vector<OptionSpec>& option_specs() {
  static const std::vector<OptionSpec> specs = {
      {"motion_force_zero", "force_0", OptionType::boolean, "false", 0, 0},
      {"motion_fps_weight", "mfw", OptionType::real, "1.0", 0, 5},
      {"motion_blend_factor", "mbf", OptionType::real, "1.0", 0, 1},
      {"motion_blend_offset", "mbo", OptionType::real, "40.0", 0, 1000},
      {"motion_add_scale1", "mdc", OptionType::boolean, "false", 0, 0},
      {"motion_filter_size", "mfs", OptionType::integer, "5", 0, 9},
      {"motion_add_uv", "mau", OptionType::boolean, "false", 0, 0},
      {"motion_max_val", "mmxv", OptionType::real, "10000.0", 0, 10000},
      {"debug", nullptr, OptionType::boolean, "true", 0, 0},
  };
  return specs;
}

std::string allowed_values(const OptionSpec& spec) {
  switch (spec.type) {
    case OptionType::boolean: return "true or false";
    case OptionType::integer: return fmt::format("an integer in [{}, {}]", spec.min, spec.max);
    case OptionType::real: return fmt::format("a finite number in [{}, {}]", spec.min, spec.max);
  }
  return {};
}

namespace {

const OptionSpec* find_spec(const std::string& name) {
  for (const OptionSpec& s : option_specs())
    if (name == s.name || (s.alias != nullptr && name == s.alias)) return &s;
  return nullptr;
}

[[noreturn]] void bad_value(const OptionSpec& spec, const std::string& value, const char* what) {
  throw ConfigError(std::string("option ") + spec.name, value,
                    fmt::format("option {}: value '{}' {}; allowed: {}", spec.name, value, what,
                                allowed_values(spec)));
}

bool parse_bool(const OptionSpec& spec, const std::string& v) {
  if (v == "true") return true;
  if (v == "false") return false;
  bad_value(spec, v, "is not a boolean");
}

double parse_number(const OptionSpec& spec, const std::string& v) {
  const char* first = v.data();
  const char* last = v.data() + v.size();
  double out = 0;
  if (spec.type == OptionType::integer) {
    long long i = 0;
    auto [p, ec] = std::from_chars(first, last, i);
    if (v.empty() || ec != std::errc() || p != last) bad_value(spec, v, "is not an integer");
    out = static_cast<double>(i);
  } else {
    auto [p, ec] = std::from_chars(first, last, out, std::chars_format::general);
    if (v.empty() || ec != std::errc() || p != last) bad_value(spec, v, "is not a number");
    if (!std::isfinite(out)) bad_value(spec, v, "is not finite");
  }
  if (!(out >= spec.min && out <= spec.max)) bad_value(spec, v, "is out of range");
  return out;
}

}  // namespace

MotionOptions parse_options(const OptionList& given) {
  MotionOptions o;
  std::set<std::string> seen;
  for (const auto& [name, value] : given) {
    const OptionSpec* spec = find_spec(name);
    if (spec == nullptr) {
      std::string known;
      for (const OptionSpec& s : option_specs()) known += (known.empty() ? "" : ", ") + std::string(s.name);
      throw ConfigError("option " + name, value,
                        fmt::format("unknown option '{}' (value '{}'); known: {}", name, value, known));
    }
    if (!seen.insert(spec->name).second)
      throw ConfigError(std::string("option ") + spec->name, value,
                        fmt::format("option {} is given more than once (again as '{}={}')", spec->name, name, value));
    const std::string n = spec->name;
    if (spec->type == OptionType::boolean) {
      const bool b = parse_bool(*spec, value);
      if (n == "motion_force_zero") o.force_zero = b;
      else if (n == "motion_add_scale1") o.add_scale1 = b;
      else if (n == "motion_add_uv") o.add_uv = b;
      else o.debug = b;
    } else {
      const double d = parse_number(*spec, value);
      if (n == "motion_fps_weight") o.fps_weight = d;
      else if (n == "motion_blend_factor") o.blend_factor = d;
      else if (n == "motion_blend_offset") o.blend_offset = d;
      else if (n == "motion_filter_size") o.filter_size = static_cast<int>(d);
      else o.max_val = d;
    }
  }
  return o;
}

}  // namespace twinproof::float_motion
