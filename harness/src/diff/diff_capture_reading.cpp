#include "diff/diff_capture_reading.hpp"

#include "aorta/collector.hpp"
#include "aorta/error.hpp"
#include "aorta/recipe.hpp"
#include "aorta/trial_record.hpp"
#include "evaluation/capture_evaluation.hpp"
#include "record/verdict_rules.hpp"

#include <fmt/format.h>

namespace aorta::detail {

capture read_capture_as(const std::string& path, const std::string& reader) {
  collector_request request;
  request.name = reader;
  const auto* collector = find_collector(reader);
  if (collector == nullptr || !collector->attaches()) {
    throw usage_error(fmt::format("--collector '{}' cannot be read; `aorta collectors` lists the "
                                  "readers",
                                  reader));
  }
  request.config = config_of(request);
  trial_record record;
  record_pass(record);  // read_captures records a failed read's reason only on a pass
  std::vector<capture> captures;
  read_captures({capture_source{&request, path}}, {}, true, record, captures);
  if (captures.empty()) throw capture_error(record.reason);
  return std::move(captures.front());
}

}  // namespace aorta::detail
