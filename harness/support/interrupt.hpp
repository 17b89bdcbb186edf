// Ctrl-C, SIGTERM and SIGHUP during a run: the first one asks the run to stop handing out work and to
// finish its records and reports (so that they say INCOMPLETE rather than nothing); a second
// one, a second or more later, ends the process at once (the record stays whole: it is appended
// line by line). Signals within that second are the first request delivered again (timeout(1)
// signals the process and then its process group).
#pragma once

namespace twinproof {

// Installs the handlers for SIGINT, SIGTERM and SIGHUP (idempotent).
void install_interrupt_handlers();

// The signal that asked the run to stop, or 0.
int interrupt_signal();

// Thrown (not a std::exception, so that no fault handler turns it into a verdict) out of a cell
// that notices the request between frames; the cell then has no verdict.
struct Interrupted {
  int signal;
};

}  // namespace twinproof
