// Plugins run inside twinproof's process, so a plugin that calls exit(0) would end a run with no
// verdicts, no reports and exit status 0: a pass nobody judged. While guarded, only twinproof's
// own main ends the process through exit(); any other call to exit() is named on stderr and the
// process ends with status 2 instead (the reports of a gate run then still say INCOMPLETE: they
// are written as such when the run starts).
#pragma once

#include <string>
#include <string_view>

namespace twinproof {

// Called once at the start of main: from then on, exit() from anywhere but main is an error.
void guard_exit();
// Called by main as it returns: this exit is twinproof's own.
void allow_exit();

// Names the outside code this thread is running (a plugin's call, a library being loaded), for the
// message an unexpected exit() prints: `who` and `call` must outlive the scope (no copy is made,
// as a scope opens around every frame a plugin scores). Scopes nest; the innermost is named.
class ForeignCode {
 public:
  explicit ForeignCode(std::string_view who, std::string_view call = {});
  ~ForeignCode();
  std::string name() const;
  ForeignCode(const ForeignCode&) = delete;
  ForeignCode& operator=(const ForeignCode&) = delete;

 private:
  std::string_view who_, call_;
  ForeignCode* outer_;
};

}  // namespace twinproof
