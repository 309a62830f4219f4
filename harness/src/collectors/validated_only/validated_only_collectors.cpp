// numerics, layer_numerics, amd_log: the original validates them (any string options) and leaves
// them to opt-in workload wrappers; aorta neither wraps nor reads anything for them.
#include "collectors/collector_support.hpp"

namespace aorta::detail {
namespace {

class validated_only_collector final : public collector_base {
public:
  explicit validated_only_collector(std::string_view name) : m_name(name) {}
  [[nodiscard]] std::string_view name() const override { return m_name; }
  [[nodiscard]] std::string_view summary() const override {
    return "accepted for the original aorta's recipes; validated only, nothing is captured";
  }
  [[nodiscard]] std::shared_ptr<const collector_config>
  parse_options(const option_map& options) const override {
    return std::make_shared<typed_config<option_map>>(options);
  }
  [[nodiscard]] std::optional<std::string>
  unavailable_reason(const collector_config& /*config*/, const env_map& /*env*/,
                     const tool_version_map& /*versions*/) const override {
    return std::nullopt;
  }
  [[nodiscard]] launch_plan wrap(launch_plan inner, const collector_config& /*config*/,
                                 const std::filesystem::path& /*output_dir*/,
                                 const plan_context& /*context*/) const override {
    return inner;
  }
  [[nodiscard]] capture read_capture(const std::filesystem::path& output,
                                     const read_context& /*context*/) const override {
    capture empty;
    empty.collector = m_name;
    empty.artifact_dir = output;
    return empty;
  }
  [[nodiscard]] bool attaches() const override { return false; }
  [[nodiscard]] bool profiles_gpu() const override { return false; }

private:
  std::string_view m_name;
};

}  // namespace

const collector_base& numerics_collector() {
  static const validated_only_collector instance("numerics");
  return instance;
}
const collector_base& layer_numerics_collector() {
  static const validated_only_collector instance("layer_numerics");
  return instance;
}
const collector_base& amd_log_collector() {
  static const validated_only_collector instance("amd_log");
  return instance;
}

}  // namespace aorta::detail
