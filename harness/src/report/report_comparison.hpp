// The A/B section of report.html and perf.md for a cells run (report_comparison.cpp).
#pragma once

#include "report/report_model.hpp"
#include "report/report_text_sink.hpp"

namespace aorta::detail {

// Nothing unless the results directory holds a sweep's matrix.json with confound verdicts.
void html_comparison_section(const report_model& model, text_sink& out);
void markdown_comparison(const report_model& model, text_sink& out);

}  // namespace aorta::detail
