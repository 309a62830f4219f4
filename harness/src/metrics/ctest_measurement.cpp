#include "metrics/ctest_measurement.hpp"

#include "metrics/number_format.hpp"

#include <fmt/format.h>

namespace aorta::detail {

std::string ctest_measurement(std::string_view name, std::string_view value) {
  return fmt::format(
      "<CTestMeasurement type=\"numeric/double\" name=\"{}\">{}</CTestMeasurement>\n",
      xml_escape(name), value);
}

}  // namespace aorta::detail
