// Temporary files aorta needs outside an output directory (a version probe's output): only in a
// directory this process made itself, mode 0700, and only through an exclusive, no-follow create,
// so a name planted in a shared $TMPDIR (a symlink to a file of root's) is never opened.
#pragma once

#include <filesystem>
#include <string_view>

namespace aorta::detail {

class private_temp_dir {
public:
  // mkdtemp of `<$TMPDIR or /tmp>/<prefix>-XXXXXX`. Throws setup_error naming the directory and
  // the system's reason.
  explicit private_temp_dir(std::string_view prefix);
  private_temp_dir(const private_temp_dir&) = delete;
  private_temp_dir& operator=(const private_temp_dir&) = delete;
  // Removes the directory and everything in it.
  ~private_temp_dir();

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return m_path; }
  // Creates the empty file `name` in it (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600) and returns its
  // path. Throws setup_error when it exists already or cannot be made.
  [[nodiscard]] std::filesystem::path create_file(std::string_view name) const;

private:
  std::filesystem::path m_path;
};

}  // namespace aorta::detail
