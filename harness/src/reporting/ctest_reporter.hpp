// CTest's measurements: CTest reads measurement tags from a test's output and CDash keeps them per
// test, so metrics, checks and gate rows can be plotted over builds.
#pragma once

#include "reporting/reporter.hpp"

#include <iosfwd>

namespace aorta::reporting {

class ctest_reporter final : public reporter {
 public:
  explicit ctest_reporter(std::ostream& out);
  void report(const event& happened) override;
  void flush() override;

 private:
  std::ostream* out_;
};

}  // namespace aorta::reporting
