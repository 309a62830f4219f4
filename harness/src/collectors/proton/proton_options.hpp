// The proton collector's options (docs/recipes.md), validated and typed.
#pragma once

#include "aorta/recipe.hpp"

#include <optional>
#include <string>

namespace aorta {

struct proton_options {
  std::string mode = "cli";      // attach mode: cli | env
  std::string backend = "auto";  // auto | cupti | rocprofiler | roctracer | instrumentation
  std::optional<std::string> backend_mode;          // per-backend table, docs/recipes.md
  std::string context = "shadow";                   // shadow | python
  std::string data = "tree";                        // tree | trace
  std::optional<std::string> instrumentation_mode;  // default | mma | pcsampling
  std::optional<std::string> granularity;           // cta | warp | warp_2 | ... | warp_group_8
  std::optional<std::string> hook;                  // triton
  // hatchet | hatchet_msgpack | chrome_trace; nullopt: Proton's default for `data` (tree:
  // hatchet, trace: chrome_trace). Only mode: env can choose another (proton_format_refusal).
  std::optional<std::string> format;

  // Proton's single --mode value (docs/recipes.md, proton); nullopt when unset.
  [[nodiscard]] std::optional<std::string> mode_argument() const;
  // auto, rocprofiler, roctracer: backends that install an HSA queue interceptor.
  [[nodiscard]] bool queue_intercepting() const;
  // rocprofiler, roctracer.
  [[nodiscard]] bool amd_backend() const;
};

// Values are trimmed and lower-cased first. Throws option_error (guards 1-5 of docs/guards.md).
[[nodiscard]] proton_options parse_proton_options(const option_map& options);

}  // namespace aorta
