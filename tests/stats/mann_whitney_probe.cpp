// Reads one sample pair per line, `x1 x2 ... | y1 y2 ...`, and prints `U p exact` for each with
// aorta's Mann-Whitney U, for check_mann_whitney.py to compare with SciPy.
#include "baseline/statistics.hpp"

#include <fmt/format.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::vector<double> x;
    std::vector<double> y;
    bool second = false;
    for (std::string word; words >> word;) {
      if (word == "|") {
        second = true;
      } else {
        (second ? y : x).push_back(std::stod(word));
      }
    }
    const auto result = aorta::detail::mann_whitney_u(x, y);
    fmt::print("{:.17g} {:.17g} {}\n", result.u, result.p_value, result.exact ? 1 : 0);
  }
  return 0;
}
