// What a bisect shows: the steps table and the outcome on screen, and the same in DIR/bisect.md
// and the self-contained DIR/bisect.html (docs/bisect.md, "Output").
#pragma once

#include "bisect/bisect_record.hpp"
#include "reporting/reporter.hpp"

#include <filesystem>

namespace aorta::detail {

void report_bisect_outcome(const bisect_record& record, reporting::reporter& report);

// Writes bisect.md and bisect.html into `dir`, each atomically.
void write_bisect_pages(const std::filesystem::path& dir, const bisect_record& record);

}  // namespace aorta::detail
