// The device numerics contract, checked on the PTX of every kernel file (no GPU needed), and a
// control: the blur built with contraction on must be caught.
#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include <boost/test/unit_test.hpp>

#include "tests/ptx_contract.hpp"
#include "tests/support.hpp"

using namespace twinproof;

BOOST_AUTO_TEST_SUITE(ptx_contract)

BOOST_AUTO_TEST_CASE(checker_flags_each_rule_on_handwritten_ptx) {
  const std::string ptx = R"(
.visible .entry _Z10blur_kernelPf(
	.param .u64 p
)
{
	mul.rn.f32 	%f1, %f2, %f3;
	add.rn.f32 	%f4, %f1, %f5;
	abs.f32 	%f6, %f4;
	fma.rn.f32 	%f7, %f1, %f2, %f3;
	add.f32 	%f8, %f1, %f2;
	@%p1 mul.f32 	%f9, %f1, %f2;
	add.rn.ftz.f32 	%f10, %f1, %f2;
	div.approx.f32 	%f11, %f1, %f2;
	shfl.sync.down.b32 	%r1, %r2, 16, 31, -1;
	div.rn.f64 	%fd1, %fd2, %fd3;
	fma.rn.f64 	%fd4, %fd1, %fd2, %fd3;
	mul.f64 	%fd5, %fd1, %fd2;
	ret;
}
.visible .entry _Z14row_sad_kernelPf(
	.param .u64 p
)
{
	add.rn.f32 	%f1, %f1, %f2;
	shfl.sync.down.b32 	%r1, %r2, 16, 31, -1;
	atom.global.add.f32 	%f3, [%rd1], %f1;
	red.global.add.f32 	[%rd1], %f1;
	add.rn.f64 	%fd1, %fd2, %fd3;
	ret;
}
)";
  const auto kernels = parse_ptx_kernels(ptx);
  BOOST_TEST(kernels.size() == 2u);
  const auto v = check_ptx_contract(ptx);
  std::vector<std::string> ops;
  for (const auto& x : v) ops.push_back(x.instruction);
  // Blur kernel: fma, the two unrounded f32 ops, ftz, approx, the f64 fma and unrounded f64 mul;
  // its shuffle and its correctly rounded f64 division are allowed there.
  const std::vector<std::string> expected = {"fma.rn.f32",
                                             "add.f32",
                                             "mul.f32",
                                             "add.rn.ftz.f32",
                                             "div.approx.f32",
                                             "fma.rn.f64",
                                             "mul.f64",
                                             "shfl.sync.down.b32",
                                             "atom.global.add.f32",
                                             "red.global.add.f32",
                                             "add.rn.f64"};
  BOOST_TEST(ops == expected, boost::test_tools::per_element());
  BOOST_TEST(v[0].line == 9);
}

#if TWINPROOF_HAVE_CUDA
BOOST_AUTO_TEST_CASE(every_kernel_file_keeps_the_contract) {
  // Every PTX file the build made (one per .cu file of extractors/<feature>/ and architecture shipped), as
  // the build lists them, not a list kept here.
  std::vector<std::filesystem::path> files;
  {
    std::istringstream list(test::read_file(std::filesystem::path(TWINPROOF_PTX_DIR) / "ptx-checked.txt"));
    for (std::string line; std::getline(list, line);)
      if (!line.empty()) files.emplace_back(line);
  }
  BOOST_TEST(files.size() == std::size_t(TWINPROOF_PTX_FILE_COUNT));
  // Each architecture's PTX says which it is; every one the build ships appears.
  std::set<std::string> targets;
  int kernels = 0;
  bool row_sad_checked = false;
  for (const auto& file : files) {
    const std::string ptx = test::read_file(file);
    BOOST_TEST_CONTEXT(file.string()) {
      BOOST_TEST(!ptx.empty());
      if (const auto at = ptx.find("\n.target "); at != std::string::npos)
        targets.insert(ptx.substr(at + 9, ptx.find_first_of(",\n", at + 9) - (at + 9)));
      for (const PtxKernel& k : parse_ptx_kernels(ptx)) {
        ++kernels;
        row_sad_checked = row_sad_checked || k.name.find("row_sad") != std::string::npos;
      }
      for (const PtxViolation& v : check_ptx_contract(ptx))
        BOOST_ERROR(file.filename().string() << ":" << v.line << " " << v.kernel << ": " << v.instruction << ": " << v.rule);
    }
  }
  BOOST_TEST(kernels >= static_cast<int>(files.size()));
  BOOST_TEST(targets.size() == std::size_t(TWINPROOF_PTX_ARCH_COUNT));
  // float_motion's row-SAD kernels exist and are checked under the reduction rules.
  BOOST_TEST(row_sad_checked);
}

BOOST_AUTO_TEST_CASE(contracted_blur_is_caught) {
  const std::string ptx = test::read_file(std::filesystem::path(TWINPROOF_PTX_DIR) / "control/blur_contracted.ptx");
  const auto v = check_ptx_contract(ptx);
  BOOST_TEST(!v.empty());
  bool fma = false;
  for (const PtxViolation& x : v) fma = fma || x.instruction.rfind("fma", 0) == 0;
  BOOST_TEST(fma);
}
#endif

BOOST_AUTO_TEST_SUITE_END()
