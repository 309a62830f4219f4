// Reads one row per line, `cell values | reference values` (positive times, round r of each at
// position r), and prints the mode judge's view of it (cells/process_modes.hpp): `modes` then, when
// two or more, the mode of every value (cell's first), within_ratio within_df within_p_greater
// within_p_less frequency_p_greater frequency_p_less shared_modes, for check_process_modes.py to
// recompute with NumPy's least squares and SciPy.
#include "cells/process_modes.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::vector<double> cell;
    std::vector<double> reference;
    bool in_reference = false;
    for (std::string word; words >> word;) {
      if (word == "|") {
        in_reference = true;
        continue;
      }
      (in_reference ? reference : cell).push_back(std::stod(word));
    }
    const auto test = aorta::detail::test_multimodal(cell, reference);
    if (test.modes < 2) {
      fmt::print("{}\n", test.modes);
      continue;
    }
    fmt::print("{} {} | {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {}\n", test.modes,
               fmt::join(test.mode_of, " "), test.within_ratio, test.within_df,
               test.within_p_greater, test.within_p_less, test.frequency_p_greater,
               test.frequency_p_less, test.shared_modes);
  }
  return 0;
}
