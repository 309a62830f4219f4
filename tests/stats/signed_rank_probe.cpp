// Reads one set of paired differences per line and prints `W+ p_greater p_less p_two_sided
// method` with aorta's Wilcoxon signed-rank test, for check_signed_rank.py to compare with SciPy.
#include "cells/signed_rank.hpp"

#include <fmt/format.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::vector<double> differences;
    for (std::string word; words >> word;) differences.push_back(std::stod(word));
    const auto result = aorta::detail::wilcoxon_signed_rank(differences);
    fmt::print("{:.17g} {:.17g} {:.17g} {:.17g} {}\n", result.w_plus, result.p_greater,
               result.p_less, result.p_two_sided, static_cast<int>(result.method));
  }
  return 0;
}
