// twinproof repro: one cell, reference against twin, bisected to the stage that departs.
#include <iostream>

#include <fmt/format.h>

#include "extractors/registry.hpp"
#include "harness/cli/commands.hpp"
#include "harness/gate/repro.hpp"
#include "harness/support/errors.hpp"
#include "harness/vectors/vectors.hpp"

namespace twinproof::cli {
namespace {

struct ReproArgs {
  std::string cell, frames, bundle, matrix;
  unsigned repeat = 0;
  bool with_mutants = false;
  int device = 0;
};

int run_repro_command(const ReproArgs& a) {
  ReproOptions o;
  o.repeat = a.repeat;
  o.with_mutants = a.with_mutants;
  o.device = a.device;
  if (!a.frames.empty()) o.frames = parse_frame_range(a.frames);
  ReproTarget t;
  if (a.cell.empty()) {
    // Replay a bundle written earlier, possibly on another machine.
    if (a.bundle.empty()) throw UsageError("cell", "", "give a CELL-ID, or --bundle DIR to replay a bundle");
    t = load_bundle(a.bundle);
    o.rerun = fmt::format("twinproof repro --bundle {}{}", a.bundle, a.with_mutants ? " --with-mutants" : "");
  } else {
    t = cell_target(find_cell(a.cell, a.matrix));
    o.bundle = a.bundle;
    o.rerun = fmt::format("twinproof repro {}{}{}{}", a.cell, a.frames.empty() ? "" : " --frames " + a.frames,
                          a.with_mutants ? " --with-mutants" : "", a.device ? fmt::format(" --device {}", a.device) : "");
  }
  // A twin from a plugin or a user's twins file is found again only with the same option.
  if (const Backend* b = find_backend(t.cell.feature, t.cell.twin, true); b != nullptr && !b->rerun_args.empty())
    o.rerun += fmt::format(" {}", b->rerun_args);
  if (!a.matrix.empty()) o.rerun += fmt::format(" --matrix {}", a.matrix);
  const ReproResult r = run_repro(t, o, std::cout);
  return r.exit_code;
}

}  // namespace

void add_repro(CLI::App& app, int& rc) {
  auto a = std::make_shared<ReproArgs>();
  CLI::App* sub = app.add_subcommand("repro", "Replay one cell and bisect a mismatch to the stage where the twin departs");
  sub->add_option("cell", a->cell, "Cell id, e.g. float_motion/cuda/pan576/8b/420/add_uv (see `twinproof gate --list`)");
  sub->add_option("--frames", a->frames, "Only frames A:B of the cell's clip (labels kept)");
  sub->add_option("--bundle", a->bundle, "With a cell: write a self-contained repro here; alone: replay the bundle there");
  sub->add_option("--repeat", a->repeat, "Run the twin K more times; fail unless every run returns identical bits")
      ->check(CLI::Range(0u, 10000u));
  sub->add_option("--matrix", a->matrix, "Look the cell up in this matrix (default: every file in ci/matrices)");
  sub->add_flag("--with-mutants", a->with_mutants, "Register the deliberately broken twins");
  sub->add_option("--device", a->device, "GPU ordinal")->capture_default_str();
  sub->callback([a, &rc] { rc = run_repro_command(*a); });
}

}  // namespace twinproof::cli
