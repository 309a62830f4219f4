// Reads one row per line, `cell values | reference values` (positive times, round r of each at
// position r), and prints the mode judge's view of it (baseline/process_modes.hpp): `modes` then, when
// two or more, the mode of every value (cell's first), within_ratio within_df within_p_greater
// within_p_less frequency_p_greater frequency_p_less shared_modes, for check_process_modes.py to
// recompute with NumPy's least squares and SciPy.
// With `--gate FRACTION` the row is a regression gate's (baseline/gate_modes.hpp): the values
// before `|` are the new trials, after it the baseline's, unpaired, under `<= baseline + FRACTION`;
// a multi-modal row prints `modes`, the mode of every value, then `| p_value estimate_beyond
// shared_modes within_df`.
#include "baseline/gate_rule.hpp"
#include "baseline/process_modes.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void print_gate_row(const std::vector<double>& fresh, const std::vector<double>& base,
                    double fraction) {
  aorta::detail::gate_row row;
  row.test = "probe";
  row.label = "time_ms(k)";
  row.quantity = aorta::check_quantity::time_ms;
  row.fraction = fraction;
  row.base = base;
  row.fresh = fresh;
  aorta::detail::judge(row, {});
  if (!row.modes) {
    fmt::print("1\n");
    return;
  }
  fmt::print("{} {} | {:.17g} {} {} {:.17g}\n", row.modes->modes, fmt::join(row.modes->mode_of, " "),
             row.p_value.value_or(-1.0), row.estimate_beyond ? 1 : 0, row.modes->shared_modes,
             row.modes->within_df);
}

}  // namespace

int main(int argc, char** argv) {
  const bool gate = argc == 3 && std::string(argv[1]) == "--gate";
  const double fraction = gate ? std::stod(argv[2]) : 0.0;
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
    if (gate) {
      print_gate_row(cell, reference, fraction);
      continue;
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
