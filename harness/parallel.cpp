#include "harness/parallel.hpp"

namespace twinproof {

unsigned default_jobs() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

}  // namespace twinproof
