// One place that turns a fault (an exception) into what it means for a run: the gate, the goldens,
// bench and the command line all ask classify_fault, so that the same fault is never a refusal in
// one and an error in another.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

namespace twinproof {

// A cell or case that ran past its time limit.
struct TimeoutError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An external program (an exec twin's) that ended with a non-zero status or could not start.
// What it means depends on the reference: where the reference refuses the configuration, the
// program's failure is its refusal; where the reference scores, it is an error.
// `may_refuse` is false for an exit status the twins file says is not a refusal (a usage error
// of the program): that is an error whatever the reference does.
struct ToolFailed : std::runtime_error {
  ToolFailed(int status, const std::string& message, bool may_refuse = true)
      : std::runtime_error(message), status(status), may_refuse(may_refuse) {}
  int status;
  bool may_refuse;
};

enum class FaultKind {
  refused,      // RefusedConfiguration (or a ConfigError raised while extracting): the extractor's verdict
  unavailable,  // BackendUnavailable: not supported here
  usage,        // UsageError: a flag or setting the harness cannot take
  input,        // InputError: a file the harness cannot read or trust
  device,       // DeviceError: the device or its runtime failed
  timeout,      // TimeoutError
  tool,         // ToolFailed: an exec twin's program failed (its refusal, where the reference refuses)
  tool_error,   // ToolFailed that cannot be a refusal
  no_memory,    // std::bad_alloc
  output,       // std::system_error from a write (a full disk, a closed pipe)
  internal,     // anything else: a bug
};
std::string_view to_string(FaultKind k);

struct Fault {
  FaultKind kind = FaultKind::internal;
  std::string message;  // the exception's text, control bytes escaped

  // Who it is on, in a few words, before the message: "device: ...", "internal: ...". A refusal or
  // an unavailable backend reads as its message alone.
  std::string text() const;
};

// Classifies `e` (rethrown and caught by type; std::current_exception() inside a catch block).
Fault classify_fault(std::exception_ptr e);

}  // namespace twinproof
