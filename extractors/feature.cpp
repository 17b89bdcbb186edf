#include "extractors/feature.hpp"

#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/printf.h>

namespace twinproof {

#define TP_FEATURE(name) const FeatureDescriptor& name##_feature();
#include "extractors/features.inc"
#undef TP_FEATURE

std::string_view to_string(OptionType t) {
  switch (t) {
    case OptionType::boolean: return "bool";
    case OptionType::integer: return "int";
    case OptionType::real: return "double";
    case OptionType::text: return "string";
  }
  return "?";
}

std::string allowed_values(const OptionSpec& spec) {
  switch (spec.type) {
    case OptionType::boolean: return "true or false";
    case OptionType::integer: return fmt::format("an integer in [{}, {}]", spec.min, spec.max);
    case OptionType::real: return fmt::format("a finite number in [{}, {}]", spec.min, spec.max);
    case OptionType::text: return "text (see the option's help)";
  }
  return {};
}

const OptionSpec* find_option(std::span<const OptionSpec> table, std::string_view name) {
  for (const OptionSpec& s : table)
    if (name == s.name || (s.alias != nullptr && name == s.alias)) return &s;
  return nullptr;
}

namespace {

[[noreturn]] void bad_value(const OptionSpec& spec, const std::string& value, const char* what) {
  throw RefusedConfiguration(std::string("option ") + spec.name, value,
                             fmt::format("option {}: value '{}' {}; allowed: {}", spec.name, value, what, allowed_values(spec)));
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
    // libvmaf's parser refuses "-0" (a value that reads as zero must start with '0').
    if (out == 0 && v[0] == '-') bad_value(spec, v, "is a negative zero");
  }
  if (!(out >= spec.min && out <= spec.max)) bad_value(spec, v, "is out of range");
  return out;
}

}  // namespace

void parse_options(std::span<const OptionSpec> table, const OptionList& given, void* target) {
  auto* base = static_cast<unsigned char*>(target);
  std::set<std::string> seen;
  for (const auto& [name, value] : given) {
    const OptionSpec* spec = find_option(table, name);
    if (spec == nullptr) {
      std::string known;
      for (const OptionSpec& s : table) known += (known.empty() ? "" : ", ") + std::string(s.name);
      throw RefusedConfiguration("option " + name, value,
                                 table.empty()
                                     ? fmt::format("unknown option '{}' (value '{}'): this feature takes no options", name, value)
                                     : fmt::format("unknown option '{}' (value '{}'); known: {}", name, value, known));
    }
    if (!seen.insert(spec->name).second)
      throw RefusedConfiguration(std::string("option ") + spec->name, value,
                                 fmt::format("option {} is given more than once (again as '{}={}')", spec->name, name, value));
    unsigned char* field = base + spec->offset;
    switch (spec->type) {
      case OptionType::boolean: {
        const bool b = parse_bool(*spec, value);
        std::memcpy(field, &b, sizeof b);
        break;
      }
      case OptionType::integer: {
        const int i = static_cast<int>(parse_number(*spec, value));
        std::memcpy(field, &i, sizeof i);
        break;
      }
      case OptionType::real: {
        const double d = parse_number(*spec, value);
        std::memcpy(field, &d, sizeof d);
        break;
      }
      case OptionType::text:
        if (value.empty()) bad_value(*spec, value, "is empty");
        *reinterpret_cast<std::string*>(field) = value;
        break;
    }
  }
}

std::string libvmaf_metric_name(const FeatureDescriptor& feature, std::string_view metric, const OptionList& options,
                                LibvmafKey which) {
  if (feature.libvmaf_key != nullptr) return feature.libvmaf_key(metric, options, which);
  const LibvmafName* name = nullptr;
  for (const LibvmafName& n : feature.libvmaf_names)
    if (n.metric == metric) name = &n;
  if (name == nullptr)
    throw UsageError("metric", std::string(metric), fmt::format("feature {} has no metric '{}'", feature.name, metric));
  // The options off their defaults, keyed by option name (libvmaf sorts its suffixes by it).
  std::map<std::string, std::string> suffixes;
  for (const auto& [given, value] : options) {
    const OptionSpec* spec = find_option(feature.options, given);
    if (spec == nullptr || !spec->names_output || spec->type == OptionType::text) continue;
    const std::string key = spec->alias != nullptr ? spec->alias : spec->name;
    if (spec->type == OptionType::boolean) {
      if (parse_bool(*spec, value) != parse_bool(*spec, spec->default_text)) suffixes[spec->name] = "_" + key;
      continue;
    }
    const double v = parse_number(*spec, value);
    if (v == parse_number(*spec, spec->default_text)) continue;
    suffixes[spec->name] = spec->type == OptionType::integer ? fmt::format("_{}_{}", key, static_cast<int>(v))
                                                             : fmt::format("_{}_{}", key, fmt::sprintf("%g", v));
  }
  if (which == LibvmafKey::collector && suffixes.empty()) return std::string(name->feature_name);
  std::string out(name->alias.empty() ? name->feature_name : name->alias);
  for (const auto& [option, suffix] : suffixes) out += suffix;
  return out;
}

const StageInfo* FeatureDescriptor::stage(std::string_view id) const {
  for (const StageInfo& s : stages)
    if (s.id == id) return &s;
  return nullptr;
}

std::span<const FeatureDescriptor* const> features() {
  static const FeatureDescriptor* const all[] = {
#define TP_FEATURE(name) &name##_feature(),
#include "extractors/features.inc"
#undef TP_FEATURE
  };
  return all;
}

const FeatureDescriptor* find_feature(std::string_view name) {
  for (const FeatureDescriptor* f : features())
    if (f->name == name) return f;
  return nullptr;
}

const FeatureDescriptor& feature_or_throw(std::string_view name, std::string_view flag) {
  if (const FeatureDescriptor* f = find_feature(name)) return *f;
  std::string known;
  for (const FeatureDescriptor* f : features()) known += (known.empty() ? "" : ", ") + std::string(f->name);
  throw UsageError(std::string(flag), std::string(name), fmt::format("{}: no feature '{}'; known: {}", flag, name, known));
}

void append_scale_debug_metrics(std::vector<std::string>& metrics, std::string_view feature, int scales) {
  for (const char* part : {"", "_num", "_den"}) metrics.push_back(fmt::format("{}{}", feature, part));
  for (int s = 0; s < scales; ++s) {
    metrics.push_back(fmt::format("{}_num_scale{}", feature, s));
    metrics.push_back(fmt::format("{}_den_scale{}", feature, s));
  }
}

DeviceTraffic luma_pair_traffic(const Format& fmt, const OptionList&) {
  DeviceTraffic t;
  t.upload_bytes = 2.0 * fmt.width * fmt.height * fmt.bytes_per_sample();
  t.floor_bytes = t.upload_bytes;
  return t;
}

}  // namespace twinproof
