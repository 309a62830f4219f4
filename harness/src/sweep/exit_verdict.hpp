// The verdict a trial's exit status gives before its captures and checks are looked at: how the
// payload ended (signal, timeout, interruption, a hang after a complete capture, an environment
// exit code that may be a skip) and the words that say so.
#pragma once

#include "aorta/recipe.hpp"
#include "aorta/trial_record.hpp"
#include "process/process.hpp"
#include "sweep/trial_runner.hpp"

#include <string>

namespace aorta::detail {

// "timeout: 2 from r.yaml" or "--timeout 3 from the command line": where the limit a timeout
// reports came from; empty without a limit.
[[nodiscard]] std::string timeout_origin(const recipe& spec);

// Sets record.verdict (and reason unless it passes) from how the payload ended.
void judge_exit(const trial_setup& setup, const process_result& result, trial_record& record);

}  // namespace aorta::detail
