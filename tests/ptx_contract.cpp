#include "tests/ptx_contract.hpp"

#include <sstream>

namespace twinproof {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  return out;
}

// The opcode of an instruction line ("add.rn.f32"), without predicate; "" for other lines.
std::string opcode(const std::string& line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos) return {};
  if (line[i] == '@') {  // predicate guard
    i = line.find_first_of(" \t", i);
    if (i == std::string::npos) return {};
    i = line.find_first_not_of(" \t", i);
    if (i == std::string::npos) return {};
  }
  const std::size_t end = line.find_first_of(" \t;", i);
  std::string op = line.substr(i, end == std::string::npos ? std::string::npos : end - i);
  if (op.empty() || op[0] == '.' || op[0] == '/' || op[0] == '{' || op[0] == '}' || op.back() == ':') return {};
  return op;
}

bool has(const std::vector<std::string>& parts, const char* p) {
  for (const std::string& s : parts)
    if (s == p) return true;
  return false;
}

}  // namespace

std::vector<PtxKernel> parse_ptx_kernels(const std::string& ptx) {
  std::vector<PtxKernel> kernels;
  std::istringstream in(ptx);
  std::string line;
  int n = 0, depth = 0;
  PtxKernel* cur = nullptr;
  while (std::getline(in, line)) {
    ++n;
    if (cur == nullptr) {
      const auto e = line.find(".entry ");
      if (e == std::string::npos) continue;
      std::string name = line.substr(e + 7);
      name = name.substr(0, name.find_first_of("( \t"));
      kernels.push_back({name, {}, n});
      cur = &kernels.back();
      depth = 0;
      continue;
    }
    for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    cur->lines.push_back(line);
    if (depth == 0 && line.find('}') != std::string::npos) cur = nullptr;
  }
  return kernels;
}

std::vector<PtxViolation> check_ptx_contract(const std::string& ptx) {
  std::vector<PtxViolation> out;
  for (const PtxKernel& k : parse_ptx_kernels(ptx)) {
    const bool row_sad = k.name.find("row_sad") != std::string::npos;
    for (std::size_t i = 0; i < k.lines.size(); ++i) {
      const std::string op = opcode(k.lines[i]);
      if (op.empty()) continue;
      const std::vector<std::string> parts = split(op, '.');
      const std::string& base = parts[0];
      const bool f32 = has(parts, "f32"), f64 = has(parts, "f64");
      const bool rounded = has(parts, "rn") || has(parts, "rz") || has(parts, "rm") || has(parts, "rp");
      const auto flag = [&](const char* rule) { out.push_back({k.name, k.first_line + 1 + static_cast<int>(i), op, rule}); };
      if (has(parts, "approx")) flag("approximate operation");
      else if (f32 && (base == "fma" || base == "mad")) flag("fused multiply-add on f32");
      else if (f64 && (base == "fma" || base == "mad")) flag("fused multiply-add on f64");
      else if (f32 && (base == "add" || base == "sub" || base == "mul" || base == "div") && !rounded)
        flag("f32 arithmetic without an explicit rounding mode (ptxas may contract it)");
      else if (f64 && (base == "add" || base == "sub" || base == "mul" || base == "div") && !rounded)
        flag("f64 arithmetic without an explicit rounding mode (ptxas may contract it)");
      else if (f32 && has(parts, "ftz")) flag("flush-to-zero on f32");
      if (row_sad) {
        if (base == "shfl") flag("warp shuffle in a row-SAD kernel");
        if (base == "atom" || base == "red") flag("atomic or reduction instruction in a row-SAD kernel");
        if (base == "add" && has(parts, "f64")) flag("f64 addition in a row-SAD kernel");
      }
    }
  }
  return out;
}

}  // namespace twinproof
