// The one spelling of a CTest measurement tag (metrics/ctest_measurement.hpp).
#include "metrics/ctest_measurement.hpp"

#include <gtest/gtest.h>

namespace {

TEST(CTestMeasurement, NamesAreEscapedAndTheValueKeptAsGiven) {
  EXPECT_EQ(aorta::detail::ctest_measurement("check: count(a<b) == 1", "1.5"),
            "<CTestMeasurement type=\"numeric/double\" name=\"check: count(a&lt;b) == 1\">1.5"
            "</CTestMeasurement>\n");
  EXPECT_EQ(aorta::detail::ctest_measurement("gate time_ms(\"k\") delta %", "-2"),
            "<CTestMeasurement type=\"numeric/double\" name=\"gate time_ms(&quot;k&quot;) delta "
            "%\">-2</CTestMeasurement>\n");
}

}  // namespace
