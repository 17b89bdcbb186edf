// The commit this binary was built from (git rev-parse --short=12 HEAD at configure time, or
// "unknown"). It lives in one generated source file (build/.../harness/support/version.cpp), so that a
// commit rebuilds that object alone.
#pragma once

namespace twinproof {

const char* git_commit();

}  // namespace twinproof
