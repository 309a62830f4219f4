// A trial record's JSON text written straight into a stream: the bytes of
// document_text(to_json(record)) without holding every kernel row as a JSON DOM at once, which for
// a profile of 80 k kernels was most of `check --json`'s memory and a third of its time.
#pragma once

#include "aorta/capture.hpp"
#include "aorta/trial_record.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace aorta::detail {

// Writes document_text(to_json(record)) to `out`, one kernel row at a time.
void write_result_document(std::ostream& out, const trial_record& record);
// The same text with the kernel rows that compute_metrics would make of each of `unrowed` after
// record.metrics.kernels, written from the captures' kernels: the check of a capture whose rows
// were deferred (kernel_rows::deferred) never holds its names twice.
void write_result_document(std::ostream& out, const trial_record& record,
                           const std::vector<capture>& unrowed);

// The same text as a string (for the atomic result.json write).
[[nodiscard]] std::string result_document_text(const trial_record& record);

}  // namespace aorta::detail
