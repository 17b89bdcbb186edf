// twinproof backends: every backend, available or why not.
#include <fmt/format.h>

#include "harness/cli/commands.hpp"

namespace twinproof::cli {

void add_backends(CLI::App& app, int& rc) {
  auto with_mutants = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand("backends", "List the backends: available, or why not");
  sub->add_flag("--with-mutants", *with_mutants, "Also list the deliberately broken twins of the gate's self-test");
  sub->callback([with_mutants, &rc] {
    fmt::print("{:<14} {:<16} {:<5} {:<40} {}\n", "feature", "backend", "kind", "available", "what it is");
    for (const Backend* b : backends(*with_mutants)) {
      const Availability a = b->availability();
      fmt::print("{:<14} {:<16} {:<5} {:<40} {}\n", b->feature, b->name, b->gpu() ? "gpu" : "host",
                 a.available ? std::string("yes") : "no: " + a.reason, b->summary);
    }
    rc = 0;
  });
}

}  // namespace twinproof::cli
