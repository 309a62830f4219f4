#include "checks/check_forms.hpp"

namespace aorta::detail {

const function_form* find_form(std::string_view name) noexcept {
  for (const auto& form : function_forms) {
    if (form.name == name) return &form;
  }
  return nullptr;
}

std::string form_list() {
  std::string out;
  for (const auto& form : function_forms) {
    if (!out.empty()) out += ", ";
    out.append(form.name).append("(");
  }
  return out;
}

}  // namespace aorta::detail
