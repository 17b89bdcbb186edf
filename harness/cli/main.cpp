// twinproof: conformance and regression harness for GPU twins of video-quality features.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <new>

#include <fmt/format.h>

#include "harness/cli/commands.hpp"
#include "harness/exec/twins_file.hpp"
#include "harness/plugins/plugin_twin.hpp"
#include "harness/support/errors.hpp"
#include "harness/support/exit_guard.hpp"
#include "harness/support/faults.hpp"
#include "harness/support/version.hpp"

namespace {

// Twins declared outside the binary: the shipped twins files, then the user's. Options of the
// whole command line (given before or after the subcommand); the programs' paths reach the
// twins files through their environment variables. Registered once the line is parsed.
struct OutsideTwins {
  std::vector<std::string> twins_files, plugins;
  std::string vmaf_tool, vmaf_cuda_tool, libvmaf_driver;

  void add_options(CLI::App& app) {
    app.add_option("--twins", twins_files,
                   "A twins file of external programs to gate (repeatable; ci/twins/*.json are always read)")
        ->check(CLI::ExistingFile);
    app.add_option("--plugin", plugins,
                   "A plugin twin library (extractors/twinproof_plugin.h) to load (repeatable; also TWINPROOF_PLUGINS)");
    app.add_option("--vmaf", vmaf_tool, "The vmaf tool the `vmaf` exec twins run (else TWINPROOF_VMAF)");
    app.add_option("--vmaf-cuda", vmaf_cuda_tool,
                   "A vmaf tool built with CUDA, which the `vmaf-cuda` exec twin runs (else TWINPROOF_VMAF_CUDA)");
    app.add_option("--libvmaf-driver", libvmaf_driver,
                   "twinproof's libvmaf driver the `libvmaf` exec twins run (else TWINPROOF_LIBVMAF_DRIVER)");
  }

  void register_all() const {
    using namespace twinproof;
    if (!vmaf_tool.empty()) ::setenv("TWINPROOF_VMAF", vmaf_tool.c_str(), 1);
    if (!vmaf_cuda_tool.empty()) ::setenv("TWINPROOF_VMAF_CUDA", vmaf_cuda_tool.c_str(), 1);
    if (!libvmaf_driver.empty()) ::setenv("TWINPROOF_LIBVMAF_DRIVER", libvmaf_driver.c_str(), 1);
    std::vector<std::filesystem::path> files = shipped_twins_files();
    for (const std::string& f : twins_files) files.emplace_back(f);
    register_exec_twins(files);
    std::vector<std::filesystem::path> libraries = plugins_from_environment();
    for (const std::string& p : plugins) libraries.emplace_back(p);
    register_plugins(libraries);
  }
};

// Every --help page states what the exit status means (CI decides on it).
void add_exit_status_footers(CLI::App& app) {
  const std::string exit_codes =
      "Exit status: 0 every judged cell passed (with --allow-empty, also none judged); 1 a cell failed, or a --require'd "
      "twin cannot run here; 2 the run cannot stand on its result: bad input or usage, an error, a timeout, a cell "
      "left without a verdict, no cell judged; 128+N stopped by signal N (SIGHUP 129, SIGINT 130, SIGTERM 143). The reports "
      "state the same code.";
  app.footer(exit_codes);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) sub->footer(exit_codes);
}

// A mistyped command is named, with the real ones (CLI11 would only say one is required).
bool names_a_known_command(CLI::App& app, int argc, char** argv) {
  using namespace twinproof;
  if (argc <= 1 || argv[1][0] == '-') return true;
  std::string known;
  bool found = false;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    found = found || sub->get_name() == argv[1];
    known += (known.empty() ? "" : ", ") + sub->get_name();
  }
  if (!found) fmt::print(stderr, "twinproof: error: unknown command '{}'; commands: {}\n", escape_control(argv[1]), known);
  return found;
}

int run_command_line(int argc, char** argv) {
  using namespace twinproof;
  CLI::App app{
      "twinproof: proves that GPU twins of video-quality feature extractors return the "
      "CPU reference's scores (bit for bit where the calibration table says exact)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("twinproof " TWINPROOF_VERSION " (") + git_commit() + ")");
  int rc = kExitPass;
  OutsideTwins outside;
  outside.add_options(app);
  app.fallthrough();  // before the subcommands: they inherit it
  cli::add_score(app, rc);
  cli::add_backends(app, rc);
  cli::add_features(app, rc);
  cli::add_vectors(app, rc);
  cli::add_goldens(app, rc);
  cli::add_bench(app, rc);
  cli::add_gate(app, rc);
  cli::add_repro(app, rc);
  cli::add_compare(app, rc);
  cli::harden_numeric_options(app);
  add_exit_status_footers(app);
  app.parse_complete_callback([&] { outside.register_all(); });
  if (!names_a_known_command(app, argc, argv)) return kExitError;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitPass : kExitError;
  } catch (...) {
    // Every fault is one line and exit 2; a device fault and a bug say so.
    const Fault f = classify_fault(std::current_exception());
    const char* what = f.kind == FaultKind::device ? "device error" : f.kind == FaultKind::internal ? "internal error" : "error";
    fmt::print(stderr, "twinproof: {}: {}\n", what, f.message);
    return kExitError;
  }
  // What was printed is part of the result: a full disk or a closed pipe is an error, not a pass.
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    fmt::print(stderr, "twinproof: error: cannot write standard output: {}\n", std::strerror(errno));
    return kExitError;
  }
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  twinproof::guard_exit();  // a plugin's exit() must not end a run as a pass
  const int rc = run_command_line(argc, argv);
  twinproof::allow_exit();
  return rc;
}
