// The compiled near-limit anchor for the Proton formats: simdjson's On-Demand API (the C++
// library, not the Python binding) doing the same walk as anchors.py's Python one, summing count
// and time per kernel name. It loads the whole file into memory, as On-Demand requires, so its
// peak RSS is the file's size; aorta's readers stream through a fixed buffer instead.
//
//   aorta.anchor.simdjson_walk hatchet FILE   (Proton's tree: leaves with "time (ns)")
//   aorta.anchor.simdjson_walk chrome FILE    (trace: "ph" == "X" and "cat" == "kernel" events)
//
// Prints the number of distinct kernels and the summed time, as a check that it read what the
// other ways read. Exit 1 with simdjson's message on a malformed file, 2 on bad arguments.
#include <simdjson.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <unordered_map>

namespace {

namespace od = simdjson::ondemand;

struct kernel_total {
  std::uint64_t count = 0;
  double time_ns = 0.0;
};
using totals_by_name = std::unordered_map<std::string, kernel_total>;

// One node of the tree, fields in document order (On-Demand reads forward only).
void walk_hatchet_node(od::object node, totals_by_name& totals) {
  bool has_children = false;
  std::string_view name;
  bool has_time = false;
  double time_ns = 0.0;
  std::uint64_t count = 0;
  for (auto field : node) {
    const std::string_view key = field.unescaped_key();
    if (key == "children") {
      for (auto child : field.value().get_array()) {
        has_children = true;
        walk_hatchet_node(child.get_object(), totals);
      }
    } else if (key == "frame") {
      name = field.value().get_object()["name"].get_string();
    } else if (key == "metrics") {
      for (auto metric : field.value().get_object()) {
        const std::string_view metric_key = metric.unescaped_key();
        if (metric_key == "count") {
          count = static_cast<std::uint64_t>(metric.value().get_double());
        } else if (metric_key == "time (ns)") {
          time_ns = metric.value().get_double();
          has_time = true;
        }
      }
    }
  }
  if (!has_children && has_time) {
    auto& total = totals[std::string(name)];
    total.count += count;
    total.time_ns += time_ns;
  }
}

void walk_hatchet(od::document& document, totals_by_name& totals) {
  for (auto element : document.get_array()) {
    od::object root = element.get_object();
    walk_hatchet_node(root, totals);
    return;  // the second element is the device table
  }
}

void walk_chrome(od::document& document, totals_by_name& totals) {
  for (auto event_value : document["traceEvents"].get_array()) {
    std::string_view phase;
    std::string_view category;
    std::string_view name;
    double duration_us = 0.0;
    for (auto field : event_value.get_object()) {
      const std::string_view key = field.unescaped_key();
      if (key == "ph") {
        phase = field.value().get_string();
      } else if (key == "cat") {
        category = field.value().get_string();
      } else if (key == "name") {
        name = field.value().get_string();
      } else if (key == "dur") {
        duration_us = field.value().get_double();
      }
    }
    if (phase == "X" && category == "kernel") {
      auto& total = totals[std::string(name)];
      total.count += 1;
      total.time_ns += duration_us * 1e3;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 ||
      (std::string_view(argv[1]) != "hatchet" && std::string_view(argv[1]) != "chrome")) {
    std::fprintf(stderr, "usage: %s hatchet|chrome FILE\n", argv[0]);
    return 2;
  }
  try {
    const simdjson::padded_string text = simdjson::padded_string::load(argv[2]);
    od::parser parser;
    od::document document = parser.iterate(text);
    totals_by_name totals;
    if (std::string_view(argv[1]) == "hatchet") {
      walk_hatchet(document, totals);
    } else {
      walk_chrome(document, totals);
    }
    double time_ns = 0.0;
    for (const auto& entry : totals) time_ns += entry.second.time_ns;
    std::printf("%zu kernels, %.0f ns\n", totals.size(), time_ns);
  } catch (const simdjson::simdjson_error& error) {
    std::fprintf(stderr, "%s: %s\n", argv[2], error.what());
    return 1;
  }
  return 0;
}
