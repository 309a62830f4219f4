#include "reporting/ctest_reporter.hpp"

#include "metrics/ctest_measurement.hpp"

#include <ostream>

namespace aorta::reporting {

ctest_reporter::ctest_reporter(std::ostream& out) : out_(&out) {}

void ctest_reporter::report(const event& happened) {
  const auto* measured = std::get_if<measurements_event>(&happened);
  if (measured == nullptr) return;
  for (const auto& item : measured->items) *out_ << detail::ctest_measurement(item.name, item.value);
}

void ctest_reporter::flush() {
  out_->flush();
}

}  // namespace aorta::reporting
