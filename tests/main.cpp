// The single translation unit that holds Boost.Test itself (header-only variant), so that the
// test binary needs no Boost library at run time (GPU bundles carry it to bare hosts).
#define BOOST_TEST_MODULE twinproof
#include <boost/test/included/unit_test.hpp>
