// The numerics contract of device code, checked on the PTX that nvcc emits (no GPU needed).
// Every kernel: no fused multiply-add on f32 or f64, every f32 and f64 add/sub/mul/div with an
// explicit IEEE rounding mode (PTX without one lets ptxas contract it into an FMA), no
// flush-to-zero, no approximate operations. Row-SAD kernels (name contains "row_sad") in addition: no warp
// shuffle, no atomic or reduction instruction, no f64 addition: each row is one thread's sum.
#pragma once

#include <string>
#include <vector>

namespace twinproof {

struct PtxKernel {
  std::string name;                // mangled entry name
  std::vector<std::string> lines;  // body, one instruction per line as emitted
  int first_line = 0;              // line number of the .entry in the file
};

std::vector<PtxKernel> parse_ptx_kernels(const std::string& ptx);

struct PtxViolation {
  std::string kernel;
  int line = 0;  // in the PTX file
  std::string instruction;
  std::string rule;
};

std::vector<PtxViolation> check_ptx_contract(const std::string& ptx);

}  // namespace twinproof
