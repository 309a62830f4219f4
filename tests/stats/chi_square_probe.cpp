// Reads one 2 x K table per line, `b1 b2 ... | f1 f2 ...` (the baseline's and the run's PC
// samples per category), and prints `statistic degrees p moved` with the gate's chi-square test
// of homogeneity (baseline/pc_sample_gate.hpp), for check_chi_square.py to compare with SciPy.
#include "baseline/pc_sample_gate.hpp"

#include <fmt/format.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::vector<double> base;
    std::vector<double> fresh;
    bool second = false;
    for (std::string word; words >> word;) {
      if (word == "|") {
        second = true;
        continue;
      }
      (second ? fresh : base).push_back(std::stod(word));
    }
    const auto result = aorta::detail::test_homogeneity(base, fresh);
    fmt::print("{:.17g} {} {:.17g} {:.17g}\n", result.statistic, result.degrees, result.p_value,
               result.moved);
  }
  return 0;
}
