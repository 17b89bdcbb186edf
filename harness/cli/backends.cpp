// twinproof backends: every backend, available or why not.
#include <fmt/format.h>

#include <algorithm>

#include "extractors/feature.hpp"
#include "harness/cli/commands.hpp"

namespace twinproof::cli {

void add_backends(CLI::App& app, int& rc) {
  auto with_mutants = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand("backends", "List the backends: available, or why not");
  sub->add_flag("--with-mutants", *with_mutants, "Also list the deliberately broken twins of the gate's self-test");
  sub->callback([with_mutants, &rc] {
    // Why a backend is unavailable can be long (a CUDA error's text): it goes last.
    std::vector<std::vector<std::string>> rows = {{"feature", "backend", "kind", "available", "what it is"}};
    for (const Backend* b : backends(*with_mutants)) {
      const Availability a = b->availability();
      rows.push_back({std::string(b->feature), std::string(b->name), b->gpu() ? "gpu" : "host", a.available ? "yes" : "no",
                      a.available ? std::string(b->summary) : fmt::format("{} (unavailable: {})", b->summary, a.reason)});
    }
    print_columns(rows);
    rc = 0;
  });
}

}  // namespace twinproof::cli

namespace twinproof::cli {

void add_features(CLI::App& app, int& rc) {
  CLI::App* sub = app.add_subcommand("features", "List the features: metrics, stages, options and twins");
  sub->callback([&rc] {
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
    rc = 0;
  });
}

}  // namespace twinproof::cli
