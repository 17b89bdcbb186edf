#include "harness/support/faults.hpp"

#include <new>
#include <system_error>

#include "harness/support/errors.hpp"

namespace twinproof {

std::string_view to_string(FaultKind k) {
  switch (k) {
    case FaultKind::refused: return "refused";
    case FaultKind::unavailable: return "unavailable";
    case FaultKind::usage: return "usage";
    case FaultKind::input: return "input";
    case FaultKind::device: return "device";
    case FaultKind::timeout: return "timeout";
    case FaultKind::tool: return "tool";
    case FaultKind::tool_error: return "tool error";
    case FaultKind::no_memory: return "out of memory";
    case FaultKind::output: return "output";
    case FaultKind::internal: return "internal";
  }
  return "?";
}

std::string Fault::text() const {
  switch (kind) {
    case FaultKind::refused:
    case FaultKind::unavailable:
    case FaultKind::usage:
    case FaultKind::tool:
    case FaultKind::timeout: return message;
    case FaultKind::no_memory: return "out of memory";
    default: return std::string(to_string(kind)) + ": " + message;
  }
}

Fault classify_fault(std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const BackendUnavailable& x) {
    return {FaultKind::unavailable, x.what()};
  } catch (const UsageError& x) {
    return {FaultKind::usage, x.what()};
  } catch (const ConfigError& x) {  // RefusedConfiguration, and any other configuration an extractor cannot take
    return {FaultKind::refused, x.what()};
  } catch (const InputError& x) {
    return {FaultKind::input, x.what()};
  } catch (const DeviceError& x) {
    return {FaultKind::device, escape_control(x.what())};
  } catch (const TimeoutError& x) {
    return {FaultKind::timeout, x.what()};
  } catch (const ToolFailed& x) {
    return {x.may_refuse ? FaultKind::tool : FaultKind::tool_error, escape_control(x.what())};
  } catch (const std::bad_alloc&) {
    return {FaultKind::no_memory, "out of memory"};
  } catch (const std::system_error& x) {
    return {FaultKind::output, escape_control(x.what())};
  } catch (const std::exception& x) {
    return {FaultKind::internal, escape_control(x.what())};
  } catch (...) {
    return {FaultKind::internal, "an exception of unknown type"};
  }
}

}  // namespace twinproof
