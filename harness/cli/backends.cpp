// twinproof backends: every backend, available or why not.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "extractors/feature.hpp"
#include "harness/cli/commands.hpp"

namespace twinproof::cli {

void add_backends(CLI::App& app, int& rc) {
  auto with_mutants = std::make_shared<bool>(false);
  auto as_json = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand("backends", "List the backends: available, or why not");
  sub->add_flag("--with-mutants", *with_mutants, "Also list the deliberately broken twins of the gate's self-test");
  sub->add_flag(
      "--json", *as_json,
      "One JSON array for scripts: feature, name, kind (host or gpu), reference, built_in, mutant, available, reason, summary");
  sub->callback([with_mutants, as_json, &rc] {
    rc = 0;
    if (*as_json) {  // what scripts iterate over instead of naming backends
      nlohmann::json list = nlohmann::json::array();
      for (const Backend* b : backends(*with_mutants)) {
        const Availability a = b->availability();
        const FeatureDescriptor* f = find_feature(b->feature);
        list.push_back({{"feature", b->feature},
                        {"name", b->name},
                        {"kind", b->gpu() ? "gpu" : "host"},
                        {"reference", f != nullptr && f->reference == b->name},
                        {"built_in", is_built_in(*b)},
                        {"mutant", b->mutant},
                        {"available", a.available},
                        {"reason", a.reason},
                        {"summary", b->summary}});
      }
      fmt::print("{}\n", list.dump(2));
      return;
    }
    // Why a backend is unavailable can be long (a CUDA error's text): it goes last.
    std::vector<std::vector<std::string>> rows = {{"feature", "backend", "kind", "available", "what it is"}};
    for (const Backend* b : backends(*with_mutants)) {
      const Availability a = b->availability();
      rows.push_back({std::string(b->feature), std::string(b->name), b->gpu() ? "gpu" : "host", a.available ? "yes" : "no",
                      a.available ? std::string(b->summary) : fmt::format("{} (unavailable: {})", b->summary, a.reason)});
    }
    print_columns(rows);
  });
}

}  // namespace twinproof::cli

namespace twinproof::cli {

void add_features(CLI::App& app, int& rc) {
  auto as_json = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand("features", "List the features: metrics, stages, options and twins");
  sub->add_flag("--json", *as_json,
                "One JSON array for scripts: name, reference, reads_distorted, metrics, stages, options, twins");
  auto keys_of = std::make_shared<std::string>();
  auto options = std::make_shared<std::vector<std::string>>();
  sub->add_option("--libvmaf-keys", *keys_of,
                  "Print one JSON object instead: each metric of FEATURE under --option, and the key libvmaf's feature collector "
                  "stores it under (what the libvmaf driver's --metric takes)");
  sub->add_option("--option", *options, "NAME=VALUE for --libvmaf-keys (repeatable)");
  sub->callback([as_json, keys_of, options, &rc] {
    rc = 0;
    if (!keys_of->empty()) {
      const FeatureDescriptor& f = feature_or_throw(*keys_of, "--libvmaf-keys");
      const OptionList given = parse_option_flags(*options);
      for (const auto& [name, value] : given)
        if (find_option(f.options, name) == nullptr)
          throw UsageError("--option", name + "=" + value, fmt::format("feature {} has no option '{}'", f.name, name));
      nlohmann::json keys = nlohmann::json::object();
      for (const LibvmafName& n : f.libvmaf_names)
        keys[std::string(n.metric)] = libvmaf_metric_name(f, n.metric, given, LibvmafKey::collector);
      fmt::print("{}\n", keys.dump(1));
      return;
    }
    if (*as_json) {
      nlohmann::json list = nlohmann::json::array();
      for (const FeatureDescriptor* f : features()) {
        nlohmann::json j = {{"name", f->name},
                            {"reference", f->reference},
                            {"summary", f->summary},
                            {"reads_distorted", f->reads_distorted},
                            {"lookahead", f->lookahead},
                            {"metrics", nlohmann::json::array()},
                            {"stages", nlohmann::json::array()},
                            {"options", nlohmann::json::array()},
                            {"twins", nlohmann::json::array()}};
        for (std::string_view m : f->metrics) j["metrics"].push_back(m);
        if (!f->built_from.empty()) j["built_from"] = f->built_from;
        for (const StageInfo& st : f->stages) j["stages"].push_back(st.id);
        for (const OptionSpec& o : f->options)
          j["options"].push_back({{"name", o.name},
                                  {"alias", o.alias ? o.alias : ""},
                                  {"type", to_string(o.type)},
                                  {"default", o.default_text},
                                  {"allowed", allowed_values(o)}});
        for (const Backend* b : backends())
          if (b->feature == f->name && b->name != f->reference)
            j["twins"].push_back({{"name", b->name}, {"kind", b->gpu() ? "gpu" : "host"}});
        list.push_back(std::move(j));
      }
      fmt::print("{}\n", list.dump(2));
      return;
    }
    for (const FeatureDescriptor* f : features()) {
      fmt::print("{}: {}\n", f->name, f->summary);
      fmt::print("  reference: {}\n", f->reference);
      std::string twins;
      for (const Backend* b : backends())
        if (b->feature == f->name && b->name != f->reference)
          twins += fmt::format("{}{} ({}{})", twins.empty() ? "" : ", ", b->name, b->gpu() ? "gpu" : "host",
                               b->availability().available ? "" : ", unavailable here");
      fmt::print("  twins: {}\n", twins.empty() ? "none" : twins);
      std::string metrics, stages;
      for (std::string_view m : f->metrics) metrics += fmt::format("{}{}", metrics.empty() ? "" : ", ", m);
      for (const StageInfo& s : f->stages) stages += fmt::format("{}{}", stages.empty() ? "" : " -> ", s.id);
      fmt::print("  metrics: {}\n  stages: {}\n  options:\n", metrics, stages);
      std::size_t width = 0;
      for (const OptionSpec& o : f->options) width = std::max(width, std::string_view(o.name).size());
      for (const OptionSpec& o : f->options)
        fmt::print("    {:<{}}  {:<8} {:<6} default {:<8} {}; {}\n", o.name, width, o.alias ? o.alias : "-", to_string(o.type),
                   o.default_text, allowed_values(o), o.help);
    }
  });
}

}  // namespace twinproof::cli
