#include "extractors/vmaf/model.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "extractors/embedded_files.hpp"
#include "extractors/feature.hpp"
#include "extractors/input_files.hpp"

namespace twinproof {
std::span<const EmbeddedFile> embedded_files_vmaf();  // generated from extractors/vmaf/models/
}

namespace twinproof::vmaf {
namespace {

using nlohmann::json;

// libvmaf's model files are tens of kilobytes; nesting deeper than a model's own (four levels) by
// far is no model, and printing a refusal of a 100,000-deep value would overflow the stack.
constexpr std::uintmax_t kMaxModelBytes = 64u << 20;
constexpr int kMaxModelDepth = 64;

// Every refusal names the model, the field and the value.
[[noreturn]] void refuse(const std::string& source, const std::string& field, const std::string& value, const std::string& why) {
  throw FileRefusal("model " + source, field, value, why);
}

std::string excerpt(const json& j) {
  std::string s = j.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

double number(const std::string& src, const std::string& field, const json& j) {
  if (!j.is_number()) refuse(src, field, excerpt(j), "expected a number");
  const double v = j.get<double>();
  if (!std::isfinite(v)) refuse(src, field, excerpt(j), "expected a finite number");
  return v;
}

// A libsvm number as its parser reads it (a whole token, strtod's correctly rounded value).
template <class T>
T svm_number(const std::string& src, const std::string& field, std::string_view token) {
  T v{};
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (token.empty() || ec != std::errc() || end != token.data() + token.size())
    refuse(src, "model_dict.model: " + field, std::string(token), "is not a number");
  if constexpr (std::is_floating_point_v<T>)
    if (!std::isfinite(v)) refuse(src, "model_dict.model: " + field, std::string(token), "is not finite");
  return v;
}

std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

// The libsvm model text: a header (svm_type nu_svr, kernel_type rbf, gamma, nr_class 2, total_sv,
// rho), then "SV" and one line per support vector: its coefficient and index:value pairs, kept in
// the file's order (the kernel walks them as given).
void parse_svm(const std::string& src, std::string_view text, Model& m) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t nl = text.find('\n', at);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  std::size_t li = 0;
  std::optional<long> total_sv;
  bool have_gamma = false, have_rho = false, have_type = false, have_kernel = false;
  for (; li < lines.size(); ++li) {
    const auto t = tokens(lines[li]);
    if (t.empty()) continue;
    if (t[0] == "SV") break;
    const std::string key(t[0]);
    if (t.size() < 2) refuse(src, "model_dict.model: " + key, std::string(lines[li]), "expected a value");
    if (key == "svm_type") {
      if (t[1] != "nu_svr") refuse(src, "model_dict.model: svm_type", std::string(t[1]), "twinproof predicts nu_svr models only");
      have_type = true;
    } else if (key == "kernel_type") {
      if (t[1] != "rbf") refuse(src, "model_dict.model: kernel_type", std::string(t[1]), "twinproof predicts rbf kernels only");
      have_kernel = true;
    } else if (key == "gamma") {
      m.gamma = svm_number<double>(src, key, t[1]);
      have_gamma = true;
    } else if (key == "nr_class") {
      if (svm_number<long>(src, key, t[1]) != 2)
        refuse(src, "model_dict.model: nr_class", std::string(t[1]), "a regression model has 2");
    } else if (key == "total_sv") {
      total_sv = svm_number<long>(src, key, t[1]);
      if (*total_sv < 1 || *total_sv > 1000000)
        refuse(src, "model_dict.model: total_sv", std::string(t[1]), "expected 1 to 1000000");
    } else if (key == "rho") {
      m.rho = svm_number<double>(src, key, t[1]);
      have_rho = true;
    } else if (key == "degree" || key == "coef0" || key == "label" || key == "nr_sv" || key == "probA" || key == "probB") {
      // Read by libsvm, unused by an rbf regression's prediction.
    } else {
      refuse(src, "model_dict.model", std::string(lines[li]), "unknown header line (libsvm's parser refuses it too)");
    }
  }
  if (li == lines.size()) refuse(src, "model_dict.model", "(no SV line)", "the support vectors are missing");
  if (!have_type || !have_kernel || !have_gamma || !have_rho || !total_sv)
    refuse(src, "model_dict.model", "(header)", "needs svm_type, kernel_type, gamma, rho and total_sv before SV");
  if (m.gamma < 0)
    refuse(src, "model_dict.model: gamma", fmt::format("{}", m.gamma),
           "must not be negative (libsvm's rbf kernel is exp(-gamma |x - sv|^2): a negative gamma overflows it)");
  ++li;
  for (long k = 0; k < *total_sv; ++k, ++li) {
    if (li >= lines.size())
      refuse(src, "model_dict.model: SV", fmt::format("{} of {}", k, *total_sv), "fewer support vectors than total_sv");
    const auto t = tokens(lines[li]);
    const std::string where = fmt::format("SV {}", k);
    if (t.empty()) {
      bool rest_blank = true;
      for (std::size_t k2 = li; k2 < lines.size(); ++k2) rest_blank = rest_blank && tokens(lines[k2]).empty();
      refuse(src, "model_dict.model: SV", fmt::format("{} of {}", k, *total_sv),
             rest_blank ? "fewer support vectors than total_sv" : "an empty line where a support vector belongs");
    }
    m.sv_coef.push_back(svm_number<double>(src, where + " coefficient", t[0]));
    std::vector<SvmNode> sv;
    for (std::size_t i = 1; i < t.size(); ++i) {
      const std::size_t colon = t[i].find(':');
      if (colon == std::string_view::npos) refuse(src, "model_dict.model: " + where, std::string(t[i]), "expected index:value");
      const int index = svm_number<int>(src, where + " index", t[i].substr(0, colon));
      if (index < 1) refuse(src, "model_dict.model: " + where, std::string(t[i]), "indices start at 1");
      sv.push_back({index, svm_number<double>(src, where + " value", t[i].substr(colon + 1))});
    }
    m.support_vectors.push_back(std::move(sv));
  }
  // Each kernel value is at most 1: coefficients whose sum overflows a double give no score.
  double reach = 0;
  for (const double c : m.sv_coef) reach += std::fabs(c);
  if (!std::isfinite(reach))
    refuse(src, "model_dict.model: SV coefficients", "(their sum)", "the sum of their sizes overflows a double");
}

// The twinproof feature and metric that compute a model feature libvmaf names.
void map_feature(const std::string& src, ModelFeature& f) {
  for (const FeatureDescriptor* d : features())
    for (const LibvmafName& n : d->libvmaf_names)
      if (n.feature_name == f.libvmaf_name && d->name != "vmaf") {
        const auto& reported = feature_or_throw("vmaf").metrics;
        if (std::find(reported.begin(), reported.end(), n.metric) == reported.end())
          refuse(src, "model_dict.feature_names", f.libvmaf_name,
                 "the vmaf feature computes models over adm2, motion2 and vif_scale0..3 only");
        f.feature = d->name;
        f.metric = n.metric;
        return;
      }
  refuse(src, "model_dict.feature_names", f.libvmaf_name, "twinproof computes no such feature");
}

OptionList feature_options(const std::string& src, std::size_t i, const json& dict) {
  const std::string field = fmt::format("model_dict.feature_opts_dicts[{}]", i);
  if (!dict.is_object()) refuse(src, field, excerpt(dict), "expected an object");
  OptionList out;
  for (const auto& [key, value] : dict.items()) {
    if (value.is_boolean()) out.emplace_back(key, value.get<bool>() ? "true" : "false");
    else if (value.is_number()) out.emplace_back(key, value.dump());
    else if (value.is_string()) out.emplace_back(key, value.get<std::string>());
    else refuse(src, field + "." + key, excerpt(value), "expected a number, a boolean or a string");
  }
  return out;
}

void parse_transform(const std::string& src, const json& t, Model& m) {
  if (!t.is_object()) refuse(src, "model_dict.score_transform", excerpt(t), "expected an object");
  ScoreTransform& st = m.transform;
  for (const auto& [key, value] : t.items()) {
    const std::string field = "model_dict.score_transform." + key;
    if (key == "enabled") {
      if (!value.is_boolean()) refuse(src, field, excerpt(value), "expected true or false");
      st.enabled = value.get<bool>();
    } else if (key == "p0" || key == "p1" || key == "p2") {
      bool& has = key == "p0" ? st.has_p0 : key == "p1" ? st.has_p1 : st.has_p2;
      double& p = key == "p0" ? st.p0 : key == "p1" ? st.p1 : st.p2;
      has = !value.is_null();
      if (has) p = number(src, field, value);
    } else if (key == "knots") {
      st.has_knots = !value.is_null();
      st.knots.clear();
      if (!st.has_knots) continue;
      if (!value.is_array() || value.size() < 2 || value.size() > 10)
        refuse(src, field, excerpt(value), "expected 2 to 10 [x, y] points");
      for (const json& k : value) {
        if (!k.is_array() || k.size() != 2) refuse(src, field, excerpt(k), "expected [x, y]");
        st.knots.push_back({number(src, field, k[0]), number(src, field, k[1])});
      }
      for (std::size_t i = 0; i + 1 < st.knots.size(); ++i) {
        if (!(st.knots[i].x < st.knots[i + 1].x && st.knots[i].y <= st.knots[i + 1].y))
          refuse(src, field, excerpt(value), "knots must rise (libvmaf leaves the score unmapped otherwise)");
        // The line through two knots divides their spans: a span past a double's range makes it nan.
        if (!std::isfinite(st.knots[i + 1].x - st.knots[i].x) || !std::isfinite(st.knots[i + 1].y - st.knots[i].y))
          refuse(src, field, excerpt(value), fmt::format("knots {} and {} lie further apart than a double holds", i, i + 1));
      }
    } else if (key == "out_lte_in" || key == "out_gte_in") {
      if (!value.is_string())
        refuse(src, field, excerpt(value), "expected \"true\" or \"false\" (a string, as libvmaf reads it)");
      (key == "out_lte_in" ? st.out_lte_in : st.out_gte_in) = value.get<std::string>() == "true";
    }
    // libvmaf skips any other key.
  }
}

void parse_model_dict(const std::string& src, const json& d, Model& m, ModelFlags flags) {
  if (!d.is_object()) refuse(src, "model_dict", excerpt(d), "expected an object");
  auto need = [&](const char* key) -> const json& {
    if (!d.contains(key)) refuse(src, std::string("model_dict.") + key, "(missing)", "required");
    return d.at(key);
  };
  const json& type = need("model_type");
  if (type != "LIBSVMNUSVR")
    refuse(src, "model_dict.model_type", excerpt(type), "twinproof predicts LIBSVMNUSVR models (bootstrap collections: not yet)");
  const json& norm = need("norm_type");
  if (norm == "linear_rescale") m.linear_rescale = true;
  else if (norm == "none") m.linear_rescale = false;
  else refuse(src, "model_dict.norm_type", excerpt(norm), "expected \"linear_rescale\" or \"none\"");
  if (d.contains("chroma_correction_parameter"))
    refuse(src, "model_dict.chroma_correction_parameter", excerpt(d["chroma_correction_parameter"]),
           "chroma-from-luma correction needs speed_chroma, which twinproof does not compute");
  const json& names = need("feature_names");
  if (!names.is_array() || names.empty() || names.size() > 64)
    refuse(src, "model_dict.feature_names", excerpt(names), "expected 1 to 64 names");
  for (const json& n : names) {
    if (!n.is_string()) refuse(src, "model_dict.feature_names", excerpt(n), "expected a string");
    ModelFeature f;
    f.libvmaf_name = n.get<std::string>();
    for (const ModelFeature& earlier : m.features)
      if (earlier.libvmaf_name == f.libvmaf_name)
        refuse(src, "model_dict.feature_names", f.libvmaf_name,
               "listed twice: each feature is one input of the regression, named once");
    map_feature(src, f);
    m.features.push_back(std::move(f));
  }
  if (m.linear_rescale) {
    for (const char* key : {"slopes", "intercepts"}) {
      const json& a = need(key);
      if (!a.is_array() || a.size() != m.features.size() + 1)
        refuse(src, std::string("model_dict.") + key, excerpt(a),
               fmt::format("expected {} numbers (the score's, then one per feature)", m.features.size() + 1));
      const bool slopes = key[0] == 's';
      (slopes ? m.slope : m.intercept) = number(src, std::string("model_dict.") + key + "[0]", a[0]);
      for (std::size_t i = 0; i < m.features.size(); ++i)
        (slopes ? m.features[i].slope : m.features[i].intercept) =
            number(src, fmt::format("model_dict.{}[{}]", key, i + 1), a[i + 1]);
    }
    if (m.slope == 0) refuse(src, "model_dict.slopes[0]", "0", "the score's slope divides");
  }
  if (d.contains("feature_opts_dicts")) {
    const json& o = d["feature_opts_dicts"];
    if (!o.is_array() || o.size() > m.features.size())
      refuse(src, "model_dict.feature_opts_dicts", excerpt(o), "expected at most one object per feature");
    for (std::size_t i = 0; i < o.size(); ++i) m.features[i].options = feature_options(src, i, o[i]);
  }
  if (d.contains("score_clip") && !flags.disable_clip) {
    const json& c = d["score_clip"];
    if (!c.is_array() || c.size() != 2) refuse(src, "model_dict.score_clip", excerpt(c), "expected [min, max]");
    m.clip = true;
    m.clip_min = number(src, "model_dict.score_clip[0]", c[0]);
    m.clip_max = number(src, "model_dict.score_clip[1]", c[1]);
  }
  if (d.contains("score_transform")) parse_transform(src, d["score_transform"], m);
  if (flags.enable_transform) m.transform.enabled = true;
  const json& svm = need("model");
  if (!svm.is_string()) refuse(src, "model_dict.model", excerpt(svm), "expected libsvm's model text");
  parse_svm(src, svm.get_ref<const std::string&>(), m);
  for (std::size_t k = 0; k < m.support_vectors.size(); ++k)
    for (const SvmNode& n : m.support_vectors[k])
      if (static_cast<std::size_t>(n.index) > m.features.size())
        refuse(src, fmt::format("model_dict.model: SV {}", k), fmt::format("{}:{}", n.index, n.value),
               fmt::format("the model has {} features", m.features.size()));
}

}  // namespace

std::vector<BuiltInModel> built_in_models() {
  std::vector<BuiltInModel> out;
  for (const EmbeddedFile& f : embedded_files_vmaf()) {
    if (!f.name.ends_with(".json") || f.name == "PROVENANCE.json") continue;
    out.push_back({f.name.substr(0, f.name.size() - 5), f.bytes});
  }
  return out;
}

std::optional<BuiltInModel> find_built_in_model(std::string_view version) {
  for (const BuiltInModel& b : built_in_models())
    if (b.version == version) return b;
  return std::nullopt;
}

Model parse_model(std::string_view text, const std::string& source, ModelFlags flags) {
  if (json_nesting_depth(text, kMaxModelDepth) > kMaxModelDepth)
    refuse(source, "(file)", fmt::format("depth > {}", kMaxModelDepth),
           fmt::format("nested deeper than {} levels: not a libvmaf model", kMaxModelDepth));
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    refuse(source, "(file)", fmt::format("byte {}", e.byte), "not JSON there");
  } catch (const json::exception&) {
    // A number JSON allows and a double cannot hold (1e999).
    refuse(source, "(file)", json_overflowing_number(text).value_or("a number"), "out of a double's range");
  }
  if (!doc.is_object() || !doc.contains("model_dict")) refuse(source, "model_dict", "(missing)", "not a libvmaf JSON model");
  Model m;
  m.source = source;
  parse_model_dict(source, doc["model_dict"], m, flags);
  return m;
}

Model load_model(const std::string& spec, ModelFlags flags) {
  // A model is read and parsed once per run and flag pair: every extractor, key and traffic
  // question of a run asks for it again, and a file replaced while the run goes on must not give
  // a document of two models. The file is read bounded (its size checked before a byte is read).
  static std::mutex mutex;
  static std::map<std::tuple<std::string, bool, bool>, Model> parsed;
  static std::map<std::string, std::string> file_texts;  // by path: read once, whatever the flags
  const std::lock_guard lock(mutex);
  const auto key = std::make_tuple(spec, flags.disable_clip, flags.enable_transform);
  if (const auto it = parsed.find(key); it != parsed.end()) return it->second;
  if (const auto b = find_built_in_model(spec))
    return parsed.emplace(key, parse_model(b->json, std::string(spec) + " (built in)", flags)).first->second;
  if (const auto it = file_texts.find(spec); it != file_texts.end())
    return parsed.emplace(key, parse_model(it->second, spec, flags)).first->second;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(spec, ec)) {
    std::string versions;
    for (const BuiltInModel& b : built_in_models()) versions += (versions.empty() ? "" : ", ") + std::string(b.version);
    throw RefusedConfiguration(
        "option model", spec,
        fmt::format("option model: '{}' is neither a built-in version ({}) nor a readable model file", spec, versions));
  }
  std::string text;
  try {
    text = read_bounded_file(spec, kMaxModelBytes, "the model file");
  } catch (const ConfigError& e) {
    refuse(spec, "(file)", e.value(), e.what());
  }
  const std::string& kept = file_texts.emplace(spec, std::move(text)).first->second;
  return parsed.emplace(key, parse_model(kept, spec, flags)).first->second;
}

}  // namespace twinproof::vmaf
