// The one spelling of a CTest measurement: CTest reads these tags from a test's output and CDash
// keeps them per test, so metrics, checks and gate rows can be plotted over builds.
#pragma once

#include <string>
#include <string_view>

namespace aorta::detail {

// `<CTestMeasurement type="numeric/double" name="NAME">VALUE</CTestMeasurement>` and a newline,
// NAME XML-escaped; VALUE as given (exact_number or an integer's digits).
[[nodiscard]] std::string ctest_measurement(std::string_view name, std::string_view value);

}  // namespace aorta::detail
