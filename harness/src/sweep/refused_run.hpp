// A sweep refused at run time (exit 64: a recipe error, no checks under --require-checks, a bad
// --check) still leaves a result.json, so `aorta report` lists the test CTest failed instead of
// leaving it out.
#pragma once

#include "aorta/sweep.hpp"
#include "reporting/reporter.hpp"

#include <string>

namespace aorta::detail {

// Writes <output>/result.json with verdict `error` and the refusal as its reason: beside the
// trial directories, not in one, since nothing was launched, under the directory's lock: while
// another run holds it, nothing is written. A failure to write (or that lock) is reported on
// `report` as a diagnostic and otherwise ignored, so the refusal's own message and exit code stand.
void record_refused_run(const sweep_request& request, const std::string& refusal,
                        reporting::reporter& report);

// A run that launches removes the record of an earlier refused one, which would otherwise count
// as one more result of the test.
void forget_refused_run(const sweep_request& request);

}  // namespace aorta::detail
