#include "harness/exec/twins_file.hpp"

#include <algorithm>
#include <optional>
#include <regex>

#include <fmt/format.h>

#include "extractors/feature.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/json_file.hpp"
#include "harness/support/paths.hpp"

namespace twinproof {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The placeholders a template word may hold. A word that is exactly "{options}" expands to the
// option words of every option; anything else in braces is refused when the file is read, not
// when a cell runs.
const std::vector<std::string_view> kPlaceholders = {"exe",           "input",
                                                     "reference",     "distorted",
                                                     "output",        "width",
                                                     "height",        "bitdepth",
                                                     "pixfmt",        "chroma",
                                                     "frames",        "feature",
                                                     "options",       "vmaf_options",
                                                     "device",        "name",
                                                     "value",         "metrics",
                                                     "key",           "variant",
                                                     "libvmaf_model", "libvmaf_model_filter",
                                                     "host_threads"};

struct Reader {
  const std::string& file;
  const json& j;
  std::string where;

  std::string text(const char* key, bool required, const std::string& fallback = {}) const {
    const auto it = j.find(key);
    if (it == j.end()) {
      if (required) throw InputError(file, where + "." + key, "(missing)", "required");
      return fallback;
    }
    if (!it->is_string() || it->get_ref<const std::string&>().empty())
      throw InputError(file, where + "." + key, json_excerpt(*it), "a non-empty string");
    return it->get<std::string>();
  }
  std::vector<std::string> words(const char* key, bool required) const {
    const auto it = j.find(key);
    if (it == j.end()) {
      if (required) throw InputError(file, where + "." + key, "(missing)", "required: an array of strings");
      return {};
    }
    if (!it->is_array() || (required && it->empty()))
      throw InputError(file, where + "." + key, json_excerpt(*it), "an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& w = (*it)[i];
      if (!w.is_string()) throw InputError(file, fmt::format("{}.{}[{}]", where, key, i), json_excerpt(w), "a string");
      check_placeholders(w.get<std::string>(), fmt::format("{}.{}[{}]", where, key, i));
      out.push_back(w.get<std::string>());
    }
    return out;
  }
  void check_placeholders(const std::string& word, const std::string& field) const {
    static const std::regex brace("\\{([a-z_]+)\\}");  // awk and sh braces are not placeholders
    for (auto it = std::sregex_iterator(word.begin(), word.end(), brace); it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[1];
      if (std::find(kPlaceholders.begin(), kPlaceholders.end(), name) == kPlaceholders.end())
        throw InputError(file, field, word,
                         fmt::format("unknown placeholder {{{}}} (known: {})", name, fmt::join(kPlaceholders, ", ")));
    }
    for (const char* alone : {"{options}", "{metrics}", "{variant}"})
      if (word.find(alone) != std::string::npos && word != alone)
        throw InputError(file, field, word, fmt::format("{} stands alone as a word (it expands to several words)", alone));
  }
};

// "metrics" (or one feature's entry of "metrics_by_feature"): a way of naming keys, or an object
// mapping the program's keys to metrics of every one of `features`.
ExecTwinSpec::MetricKeys parse_metric_keys(const json& metrics, const std::vector<std::string>& features, const std::string& file,
                                           const std::string& where) {
  ExecTwinSpec::MetricKeys out;
  if (metrics.is_string()) {
    const std::string keys = metrics.get<std::string>();
    if (keys == "libvmaf") out.keys = ExecTwinSpec::Keys::libvmaf;
    else if (keys == "libvmaf-collector") out.keys = ExecTwinSpec::Keys::libvmaf_collector;
    else if (keys == "twinproof") out.keys = ExecTwinSpec::Keys::twinproof;
    else
      throw InputError(file, where, keys,
                       "\"libvmaf\", \"libvmaf-collector\", \"twinproof\" or an object mapping the program's keys to metrics");
    return out;
  }
  if (!metrics.is_object() || metrics.empty())
    throw InputError(file, where, json_excerpt(metrics),
                     "\"libvmaf\", \"libvmaf-collector\", \"twinproof\" or a non-empty object");
  out.keys = ExecTwinSpec::Keys::map;
  for (const auto& [key, metric] : metrics.items()) {
    if (!metric.is_string()) throw InputError(file, where + "." + key, json_excerpt(metric), "a metric name");
    for (const std::string& f : features) {
      const FeatureDescriptor& d = *find_feature(f);
      if (std::find(d.metrics.begin(), d.metrics.end(), metric.get<std::string>()) == d.metrics.end())
        throw InputError(file, where + "." + key, metric.get<std::string>(), "not a metric of " + f);
    }
    for (const auto& [other, taken] : out.key_map)
      if (taken == metric.get<std::string>())
        throw InputError(file, where + "." + key, taken,
                         fmt::format("{} is already the metric of key '{}': one key per metric, or which one to judge is a guess",
                                     taken, other));
    out.key_map[key] = metric.get<std::string>();
  }
  return out;
}

// Whether a word of the command holds the placeholder.
bool names(const std::vector<std::string>& command, const char* placeholder) {
  return std::any_of(command.begin(), command.end(),
                     [&](const std::string& w) { return w.find(placeholder) != std::string::npos; });
}

// What every command of a twin (its own, a feature's) must name: {output} where the output is a
// file, the input, and {distorted} exactly where the twin's own command does (`takes_pair`; a
// twin's own command sets it).
void check_command(const std::vector<std::string>& command, bool output_on_stdout, std::optional<bool> takes_pair,
                   const std::string& file, const std::string& field) {
  const std::string size = fmt::format("{} words", command.size());
  if (!output_on_stdout && !names(command, "{output}"))
    throw InputError(file, field, size, "an output read from a file needs {output} in the command");
  if (!names(command, "{input}") && !names(command, "{reference}"))
    throw InputError(file, field, size, "the command needs {input} or {reference}");
  if (takes_pair && names(command, "{distorted}") != *takes_pair)
    throw InputError(file, field, size,
                     *takes_pair ? "the twin's command names {distorted}: so must each feature's"
                                 : "the twin's command names no {distorted}: neither may a feature's");
}

// A twin's name is part of cell ids.
void check_twin_name(const std::string& name, const std::string& file, const std::string& field) {
  static const std::regex name_re("[a-z0-9][a-z0-9.-]{0,39}");
  if (!std::regex_match(name, name_re))
    throw InputError(file, field, name, "a twin's name is 1-40 of a-z, 0-9, '.', '-' (it is part of cell ids)");
}

struct CpuFeature {
  std::string_view name;
  bool (*present)();
};
// __builtin_cpu_supports takes a literal: one function per name (only names GCC 12 and clang 14
// both know: the sanitizer and fuzz builds use clang).
#define TP_CPU(name)                                       \
  {                                                        \
    name, [] { return __builtin_cpu_supports(name) != 0; } \
  }
const CpuFeature kCpuFeatures[] = {TP_CPU("sse2"),
                                   TP_CPU("ssse3"),
                                   TP_CPU("sse4.1"),
                                   TP_CPU("avx"),
                                   TP_CPU("avx2"),
                                   TP_CPU("bmi"),
                                   TP_CPU("bmi2"),
                                   TP_CPU("avx512f"),
                                   TP_CPU("avx512dq"),
                                   TP_CPU("avx512cd"),
                                   TP_CPU("avx512bw"),
                                   TP_CPU("avx512vl"),
                                   TP_CPU("avx512vbmi"),
                                   TP_CPU("avx512vbmi2"),
                                   TP_CPU("avx512vnni"),
                                   TP_CPU("avx512bitalg"),
                                   TP_CPU("avx512vpopcntdq"),
                                   TP_CPU("gfni"),
                                   TP_CPU("vpclmulqdq")};  // (both compilers' names: clang 14 has no "vaes")
#undef TP_CPU

std::vector<std::string> cpu_features(const json& list, const std::string& file, const std::string& where) {
  if (!list.is_array() || list.empty())
    throw InputError(file, where, json_excerpt(list), "a non-empty array of x86 CPU feature names");
  std::vector<std::string> out;
  for (const json& n : list) {
    const std::string name = n.is_string() ? n.get<std::string>() : std::string();
    if (std::none_of(std::begin(kCpuFeatures), std::end(kCpuFeatures), [&](const CpuFeature& c) { return c.name == name; }))
      throw InputError(file, where, json_excerpt(n),
                       fmt::format("an x86 CPU feature ({})", fmt::join(known_cpu_features(), ", ")));
    out.push_back(name);
  }
  return out;
}

// A twin's variants: the twin itself with the words of "{variant}" set, a name and summary of its
// own, and the CPU features it needs added to the twin's.
std::vector<ExecTwinSpec> variants_of(const ExecTwinSpec& base, const json& t, const std::string& file,
                                      const std::string& where) {
  const auto v = t.find("variants");
  if (v == t.end()) return {};
  if (!v->is_array() || v->empty())
    throw InputError(file, where + ".variants", json_excerpt(*v), "a non-empty array of variants");
  if (!names(base.command, "{variant}"))
    throw InputError(file, where + ".command", fmt::format("{} words", base.command.size()),
                     "a twin with variants places their words with {variant}");
  for (const auto& [feature, command] : base.command_by_feature)
    if (!names(command, "{variant}"))
      throw InputError(file, where + ".commands_by_feature." + feature, fmt::format("{} words", command.size()),
                       "a twin with variants places their words with {variant}");
  std::vector<ExecTwinSpec> out;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const std::string at = fmt::format("{}.variants[{}]", where, i);
    const json& e = (*v)[i];
    if (!e.is_object()) throw InputError(file, at, json_excerpt(e), "a variant is an object");
    reject_unknown_keys(e, {"name", "summary", "features", "words", "requires_cpu"}, file, at);
    const Reader r{file, e, at};
    ExecTwinSpec s = base;
    s.name = r.text("name", true);
    check_twin_name(s.name, file, at + ".name");
    s.summary = r.text("summary", true);
    if (const auto f = e.find("features"); f != e.end()) {
      // A setting that changes nothing of a feature (a SIMD mask where libvmaf has no SIMD path) is no axis of it.
      if (!f->is_array() || f->empty())
        throw InputError(file, at + ".features", json_excerpt(*f), "a non-empty array of the twin's features");
      s.features.clear();
      for (const json& n : *f) {
        if (!n.is_string() || std::find(base.features.begin(), base.features.end(), n.get<std::string>()) == base.features.end())
          throw InputError(file, at + ".features", json_excerpt(n), "one of the twin's features");
        if (std::find(s.features.begin(), s.features.end(), n.get<std::string>()) != s.features.end())
          throw InputError(file, at + ".features", json_excerpt(n), "listed twice");
        s.features.push_back(n.get<std::string>());
      }
    }
    s.variant_words = r.words("words", true);
    for (const std::string& w : s.variant_words)
      if (w == "{variant}" || w == "{options}" || w == "{metrics}")
        throw InputError(file, at + ".words", w, "a variant's words hold no word that expands to words");
    if (const auto rc = e.find("requires_cpu"); rc != e.end())
      for (std::string& c : cpu_features(*rc, file, at + ".requires_cpu"))
        if (std::find(s.required_cpu.begin(), s.required_cpu.end(), c) == s.required_cpu.end())
          s.required_cpu.push_back(std::move(c));
    out.push_back(std::move(s));
  }
  return out;
}

// The executable: the twin itself, a program on PATH, or one an environment variable names.
void parse_executable(const json& t, const std::string& file, const std::string& where, ExecTwinSpec& s) {
  const auto exe = t.find("executable");
  if (exe == t.end() || !exe->is_object() || exe->size() < 1)
    throw InputError(file, where + ".executable", exe == t.end() ? "(missing)" : json_excerpt(*exe),
                     "{\"self\": true}, {\"program\": NAME} or {\"env\": VARIABLE}");
  reject_unknown_keys(*exe, {"self", "program", "env", "flag", "hint"}, file, where + ".executable");
  const Reader e{file, *exe, where + ".executable"};
  s.missing_hint = e.text("hint", false);
  if (exe->contains("self")) {
    if ((*exe)["self"] != true) throw InputError(file, where + ".executable.self", json_excerpt((*exe)["self"]), "true");
    s.locate = ExecTwinSpec::Locate::self;
  } else if (exe->contains("program")) {
    if (exe->contains("flag"))
      throw InputError(file, where + ".executable.flag", json_excerpt((*exe)["flag"]), "only with env: the option that sets it");
    s.locate = ExecTwinSpec::Locate::program;
    s.locate_value = e.text("program", true);
  } else if (exe->contains("env")) {
    s.locate = ExecTwinSpec::Locate::env;
    s.locate_value = e.text("env", true);
    s.locate_flag = e.text("flag", false);
    static const std::regex flag_re("--[a-z0-9][a-z0-9-]*");
    if (!s.locate_flag.empty() && !std::regex_match(s.locate_flag, flag_re))
      throw InputError(file, where + ".executable.flag", s.locate_flag, "a twinproof option that sets the variable (--vmaf)");
  } else {
    throw InputError(file, where + ".executable", json_excerpt(*exe), "names self, program or env");
  }
}

// The command, its options and input, where the scores come out, and per-feature commands.
void parse_command(const json& t, const std::string& file, const std::string& where, ExecTwinSpec& s) {
  const Reader r{file, t, where};
  s.command = r.words("command", true);
  s.version_command = r.words("version_command", false);
  const auto options = t.find("options");
  if (options == t.end() || options->is_string()) {
    const std::string style = options == t.end() ? "none" : options->get<std::string>();
    if (style == "libvmaf") s.options = ExecTwinSpec::Options::libvmaf;
    else if (style == "none") s.options = ExecTwinSpec::Options::none;
    else throw InputError(file, where + ".options", style, "\"libvmaf\", \"none\" or an array of option words");
  } else {
    s.options = ExecTwinSpec::Options::words;
    s.option_words = r.words("options", true);
  }
  const std::string input = r.text("input", false, "y4m");
  if (input != "y4m" && input != "yuv")
    throw InputError(file, where + ".input", input, "'y4m' or 'yuv' (raw planar, geometry in the placeholders)");
  s.input = input == "yuv" ? ExecTwinSpec::Input::yuv : ExecTwinSpec::Input::y4m;

  const auto output = t.find("output");
  if (output == t.end() || !output->is_object())
    throw InputError(file, where + ".output", output == t.end() ? "(missing)" : json_excerpt(*output),
                     "{\"format\": ..., \"from\": \"file\" or \"stdout\"}");
  reject_unknown_keys(*output, {"format", "from"}, file, where + ".output");
  const Reader o{file, *output, where + ".output"};
  const std::string format = o.text("format", true);
  const auto parsed = parse_score_file_format(format);
  if (!parsed) throw InputError(file, where + ".output.format", format, "json, xml, csv or vmafmotion");
  s.output = *parsed;
  const std::string from = o.text("from", false, "file");
  if (from != "file" && from != "stdout")
    throw InputError(file, where + ".output.from", from, "'file' ({output} in the command) or 'stdout'");
  s.output_on_stdout = from == "stdout";
  check_command(s.command, s.output_on_stdout, std::nullopt, file, where + ".command");
  s.takes_pair = names(s.command, "{distorted}");
  if (const auto by = t.find("commands_by_feature"); by != t.end()) {
    if (!by->is_object() || by->empty())
      throw InputError(file, where + ".commands_by_feature", json_excerpt(*by),
                       "an object mapping features of the twin to their commands");
    const Reader byr{file, *by, where + ".commands_by_feature"};
    for (const auto& [feature, words] : by->items()) {
      const std::string at = where + ".commands_by_feature." + feature;
      if (std::find(s.features.begin(), s.features.end(), feature) == s.features.end())
        throw InputError(file, at, feature, "not one of the twin's features");
      std::vector<std::string> command = byr.words(feature.c_str(), true);
      check_command(command, s.output_on_stdout, s.takes_pair, file, at);
      s.command_by_feature[feature] = std::move(command);
    }
  }
  // {libvmaf_model} is the feature's model as libvmaf's tools load it: only a feature that is a model has one.
  for (const std::string& f : s.features) {
    const std::vector<std::string>& command = s.command_of(f);
    if (names(command, "{libvmaf_model") && find_feature(f)->libvmaf_model == nullptr)
      throw InputError(file, where + (s.command_by_feature.contains(f) ? ".commands_by_feature." + f : std::string(".command")),
                       "{libvmaf_model}", "feature " + f + " is not a model: libvmaf's tools load no model for it");
  }
}

// What the twin needs of the CPU, and the probe that asks its program what it can do.
void parse_probe(const json& t, const std::string& file, const std::string& where, ExecTwinSpec& s) {
  if (const auto rc = t.find("requires_cpu"); rc != t.end()) s.required_cpu = cpu_features(*rc, file, where + ".requires_cpu");
  if (const auto pr = t.find("probe"); pr != t.end()) {
    if (!pr->is_object())
      throw InputError(file, where + ".probe", json_excerpt(*pr), "{\"command\": [...], \"contains\": TEXT, \"reason\": TEXT}");
    reject_unknown_keys(*pr, {"command", "contains", "reason"}, file, where + ".probe");
    const Reader p{file, *pr, where + ".probe"};
    s.probe = ExecTwinSpec::Probe{p.words("command", true), p.text("contains", true), p.text("reason", true)};
    // A probe asks the twin's own program what it can do; it runs nothing else.
    if (s.probe->command.front() != "{exe}")
      throw InputError(file, where + ".probe.command[0]", s.probe->command.front(), "{exe}: a probe runs the twin's own program");
    for (std::size_t k = 1; k < s.probe->command.size(); ++k)
      if (s.probe->command[k].find('{') != std::string::npos)  // nothing of a cell is known when it runs
        throw InputError(file, fmt::format("{}.probe.command[{}]", where, k), s.probe->command[k],
                         "a literal word: a probe knows {exe} alone");
  }
}

// How the program numbers frames and names metrics, the options it ignores or leaves out of
// its names, and the metrics it provides.
void parse_metrics(const json& t, const std::string& file, const std::string& where, ExecTwinSpec& s) {
  if (const auto base = t.find("frame_base"); base != t.end()) {
    if (!base->is_number_integer() || base->get<long long>() < 0 || base->get<long long>() > 1)
      throw InputError(file, where + ".frame_base", json_excerpt(*base), "0 or 1: the number the program gives the first frame");
    s.frame_base = base->get<long long>();
  }
  const auto metrics = t.find("metrics");
  if (metrics != t.end()) s.metric_keys = parse_metric_keys(*metrics, s.features, file, where + ".metrics");
  if (const auto by = t.find("metrics_by_feature"); by != t.end()) {
    if (!by->is_object() || by->empty())
      throw InputError(file, where + ".metrics_by_feature", json_excerpt(*by),
                       "an object mapping features of the twin to their metrics");
    for (const auto& [feature, keys] : by->items()) {
      if (std::find(s.features.begin(), s.features.end(), feature) == s.features.end())
        throw InputError(file, where + ".metrics_by_feature." + feature, feature, "not one of the twin's features");
      s.metric_keys_by_feature[feature] = parse_metric_keys(keys, {feature}, file, where + ".metrics_by_feature." + feature);
    }
  }
  // Per feature, a list of option names.
  auto option_names_by_feature = [&](const char* field, std::map<std::string, std::vector<std::string>, std::less<>>& out) {
    const auto it = t.find(field);
    if (it == t.end()) return;
    if (!it->is_object() || it->empty())
      throw InputError(file, where + "." + field, json_excerpt(*it), "an object mapping features of the twin to option names");
    for (const auto& [feature, names] : it->items()) {
      const std::string at = where + "." + field + "." + feature;
      if (std::find(s.features.begin(), s.features.end(), feature) == s.features.end())
        throw InputError(file, at, feature, "not one of the twin's features");
      if (!names.is_array() || names.empty())
        throw InputError(file, at, json_excerpt(names), "a non-empty array of option names");
      for (const json& n : names) {
        if (!n.is_string() || n.get<std::string>().empty()) throw InputError(file, at, json_excerpt(n), "an option name");
        out[feature].push_back(n.get<std::string>());
      }
    }
  };
  option_names_by_feature("ignores_options", s.ignored_options);
  option_names_by_feature("unnamed_options", s.unnamed_options);
  if (const auto pr = t.find("provides"); pr != t.end()) {
    if (!pr->is_object() || pr->empty())
      throw InputError(file, where + ".provides", json_excerpt(*pr),
                       "an object mapping features of the twin to the metrics it emits");
    for (const auto& [feature, names] : pr->items()) {
      const std::string at = where + ".provides." + feature;
      if (std::find(s.features.begin(), s.features.end(), feature) == s.features.end())
        throw InputError(file, at, feature, "not one of the twin's features");
      if (!names.is_array() || names.empty())
        throw InputError(file, at, json_excerpt(names), "a non-empty array of metric names");
      const FeatureDescriptor& d = *find_feature(feature);
      for (const json& n : names) {
        if (!n.is_string() || std::find(d.metrics.begin(), d.metrics.end(), n.get<std::string>()) == d.metrics.end())
          throw InputError(file, at, json_excerpt(n), "a metric of " + feature);
        s.provided_metrics[feature].push_back(n.get<std::string>());
      }
    }
  }
}

// The formats it takes, and how it says it cannot or will not run a cell.
void parse_limits(const json& t, const std::string& file, const std::string& where, ExecTwinSpec& s) {
  const Reader r{file, t, where};
  if (const auto b = t.find("bitdepths"); b != t.end()) {
    if (!b->is_array() || b->empty())
      throw InputError(file, where + ".bitdepths", json_excerpt(*b), "a non-empty array of 8, 10, 12, 16");
    s.bitdepths.clear();
    for (const json& v : *b) {
      if (!v.is_number_integer() || (v != 8 && v != 10 && v != 12 && v != 16))
        throw InputError(file, where + ".bitdepths", json_excerpt(v), "8, 10, 12 or 16");
      s.bitdepths.push_back(v.get<int>());
    }
  }
  if (const auto c = t.find("chroma"); c != t.end()) {
    if (!c->is_array() || c->empty())
      throw InputError(file, where + ".chroma", json_excerpt(*c), "a non-empty array of \"400\", \"420\", \"422\", \"444\"");
    s.chroma.clear();
    for (const json& v : *c) {
      const auto parsed_chroma = v.is_string() ? parse_chroma(v.get<std::string>()) : std::nullopt;
      if (!parsed_chroma) throw InputError(file, where + ".chroma", json_excerpt(v), "\"400\", \"420\", \"422\" or \"444\"");
      s.chroma.push_back(*parsed_chroma);
    }
  }
  if (t.contains("metric_words")) s.metric_words = r.words("metric_words", true);
  s.unsupported_reason = r.text("unsupported_reason", false);
  s.unsupported_if_said = r.text("unsupported_if_said", false);
  if (const auto re = t.find("refusal_exits"); re != t.end()) {
    if (!re->is_array() || re->empty())
      throw InputError(file, where + ".refusal_exits", json_excerpt(*re), "a non-empty array of exit statuses");
    for (const json& v : *re) {
      if (!v.is_number_integer() || v.get<long long>() < 1 || v.get<long long>() > 255 ||
          (v.get<long long>() >= 126 && v.get<long long>() <= 192))
        throw InputError(file, where + ".refusal_exits", json_excerpt(v),
                         "an exit status in [1, 125] or [193, 255] (126 to 192 are a shell's report of a crash or of a program "
                         "that could not run)");
      s.refusal_exits.push_back(v.get<int>());
    }
  }
  if (const auto u = t.find("unsupported_exit"); u != t.end()) {
    if (!u->is_number_integer() || u->get<long long>() < 1 || u->get<long long>() > 125)
      throw InputError(file, where + ".unsupported_exit", json_excerpt(*u), "an exit status in [1, 125]");
    s.unsupported_exit = u->get<int>();
  }
  if (const auto to = t.find("timeout_s"); to != t.end()) {
    if (!to->is_number() || !(to->get<double>() > 0) || to->get<double>() > 86400)
      throw InputError(file, where + ".timeout_s", json_excerpt(*to), "seconds in (0, 86400]");
    s.timeout_s = to->get<double>();
  }
}

ExecTwinSpec parse_twin(const json& t, const std::string& file, const std::string& where) {
  if (!t.is_object()) throw InputError(file, where, json_excerpt(t), "a twin is an object");
  reject_unknown_keys(t,
                      {"name",
                       "features",
                       "summary",
                       "device",
                       "executable",
                       "command",
                       "version_command",
                       "options",
                       "input",
                       "output",
                       "frame_base",
                       "metrics",
                       "metrics_by_feature",
                       "ignores_options",
                       "unnamed_options",
                       "provides",
                       "metric_words",
                       "bitdepths",
                       "chroma",
                       "unsupported_reason",
                       "unsupported_exit",
                       "refusal_exits",
                       "timeout_s",
                       "commands_by_feature",
                       "requires_cpu",
                       "probe",
                       "variants",
                       "unsupported_if_said"},
                      file, where);
  const Reader r{file, t, where};
  ExecTwinSpec s;
  s.file = file;
  s.name = r.text("name", true);
  check_twin_name(s.name, file, where + ".name");
  const auto features = t.find("features");
  if (features == t.end() || !features->is_array() || features->empty())
    throw InputError(file, where + ".features", features == t.end() ? "(missing)" : json_excerpt(*features),
                     "a non-empty array of feature names");
  for (std::size_t i = 0; i < features->size(); ++i) {
    const json& f = (*features)[i];
    if (!f.is_string() || find_feature(f.get<std::string>()) == nullptr)
      throw InputError(file, fmt::format("{}.features[{}]", where, i), json_excerpt(f),
                       "no such feature (see `twinproof features`)");
    if (std::find(s.features.begin(), s.features.end(), f.get<std::string>()) != s.features.end())
      throw InputError(file, fmt::format("{}.features[{}]", where, i), json_excerpt(f), "listed twice");
    s.features.push_back(f.get<std::string>());
  }
  s.summary = r.text("summary", true);
  const std::string device = r.text("device", false, "host");
  if (device != "host" && device != "gpu")
    throw InputError(file, where + ".device", device, "'host' or 'gpu' (GPU twins run one at a time per device)");
  s.kind = device == "gpu" ? BackendKind::gpu : BackendKind::host;
  parse_executable(t, file, where, s);
  parse_command(t, file, where, s);
  parse_probe(t, file, where, s);
  parse_metrics(t, file, where, s);
  parse_limits(t, file, where, s);
  return s;
}

}  // namespace

std::vector<ExecTwinSpec> load_twins_file(const fs::path& path) {
  const std::string file = path.string();
  const json doc = read_json_file(path, "the twins file");
  return walking_json_file(file, [&] {
    if (!doc.is_object()) throw InputError(file, "document", json_excerpt(doc), "a twins file is an object");
    reject_unknown_keys(doc, {"schema", "description", "twins"}, file, "");
    if (doc.value("schema", json()) != 1)
      throw InputError(file, "schema", doc.contains("schema") ? json_excerpt(doc["schema"]) : "(missing)", "schema 1");
    const auto twins = doc.find("twins");
    if (twins == doc.end() || !twins->is_array() || twins->empty())
      throw InputError(file, "twins", twins == doc.end() ? "(missing)" : json_excerpt(*twins), "a non-empty array of twins");
    std::vector<ExecTwinSpec> out;
    for (std::size_t i = 0; i < twins->size(); ++i) {
      const std::string where = fmt::format("twins[{}]", i);
      std::vector<ExecTwinSpec> made;
      made.push_back(parse_twin((*twins)[i], file, where));
      for (ExecTwinSpec& v : variants_of(made.front(), (*twins)[i], file, where)) made.push_back(std::move(v));
      for (ExecTwinSpec& m : made) {
        for (const ExecTwinSpec& earlier : out)
          if (earlier.name == m.name)
            throw InputError(file, where + ".name", m.name, "a twin of that name (or a variant) is declared earlier in the file");
        out.push_back(std::move(m));
      }
    }
    return out;
  });
}

std::span<const std::string_view> known_cpu_features() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> n;
    for (const CpuFeature& c : kCpuFeatures) n.push_back(c.name);
    return n;
  }();
  return names;
}

bool host_has_cpu_feature(std::string_view name) {
  __builtin_cpu_init();
  for (const CpuFeature& c : kCpuFeatures)
    if (c.name == name) return c.present();
  return false;
}

std::vector<fs::path> shipped_twins_files() {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(data_root() / "ci" / "twins", ec))
    if (entry.path().extension() == ".json") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace twinproof
