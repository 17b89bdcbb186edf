// twinproof: conformance and regression harness for GPU twins of video-quality features.
#include <cstdio>

#include <fmt/format.h>

#include "harness/cli/commands.hpp"
#include "harness/errors.hpp"

int main(int argc, char** argv) {
  using namespace twinproof;
  CLI::App app{"twinproof: proves that GPU twins of video-quality feature extractors return the "
               "CPU reference's scores (bit for bit where the calibration table says exact)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("twinproof " TWINPROOF_VERSION " (" TWINPROOF_GIT_COMMIT ")"));
  int rc = kExitPass;
  cli::add_score(app, rc);
  cli::add_backends(app, rc);
  cli::add_features(app, rc);
  cli::add_vectors(app, rc);
  cli::add_goldens(app, rc);
  cli::add_bench(app, rc);
  cli::add_gate(app, rc);
  cli::add_repro(app, rc);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitPass : kExitError;
  } catch (const InputError& e) {
    fmt::print(stderr, "twinproof: error: {}\n", e.what());
    return kExitError;
  } catch (const ConfigError& e) {
    fmt::print(stderr, "twinproof: error: {}\n", e.what());
    return kExitError;
  } catch (const DeviceError& e) {
    fmt::print(stderr, "twinproof: device error: {}\n", e.what());
    return kExitError;
  } catch (const std::exception& e) {
    fmt::print(stderr, "twinproof: internal error: {}\n", e.what());
    return kExitError;
  }
  std::fflush(stdout);
  return rc;
}
