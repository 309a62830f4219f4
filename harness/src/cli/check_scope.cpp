#include "cli/check_scope.hpp"

#include "aorta/error.hpp"
#include "collectors/format_detection.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <system_error>

namespace aorta::cli {
namespace fs = std::filesystem;
namespace {

// The same bound as detect_capture_formats: a directory is looked at, not indexed.
constexpr std::size_t surveyed_file_limit = 4096;
constexpr std::size_t listed_names = 5;
// Larger files are not compared (no reader takes more than a few hundred MiB anyway): finding a
// copy must not cost reading gigabytes.
constexpr std::uintmax_t compared_file_limit = std::uintmax_t{512} << 20;

// The outermost trial_<n> directory on the way from the surveyed directory to `relative`.
std::optional<fs::path> trial_of(const fs::path& relative) {
  static const std::regex trial_name("trial_[0-9]+");
  fs::path prefix;
  for (const auto& component : relative.parent_path()) {
    prefix /= component;
    if (std::regex_match(component.string(), trial_name)) return prefix;
  }
  return std::nullopt;
}

// FNV-1a over the whole file; only files of equal size are hashed, to find copies.
std::optional<std::uint64_t> content_hash(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::uint64_t hash = 14695981039346656037ULL;
  std::array<char, 65536> buffer{};
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0));
    for (std::size_t i = 0; i < got; ++i) {
      hash ^= static_cast<unsigned char>(buffer[i]);
      hash *= 1099511628211ULL;
    }
  }
  return hash;
}

std::string name_some(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size() && i < listed_names; ++i) {
    text += (i == 0 ? "" : ", ") + names[i];
  }
  if (names.size() > listed_names) text += fmt::format(" and {} more", names.size() - listed_names);
  return text;
}

}  // namespace

capture_scope survey_capture_scope(const fs::path& dir, const std::string& collector) {
  capture_scope scope;
  std::set<fs::path> trials;
  std::map<std::uintmax_t, std::vector<fs::path>> by_size;
  std::error_code failure;
  fs::recursive_directory_iterator walker(dir, fs::directory_options::skip_permission_denied,
                                          failure);
  std::size_t looked_at = 0;
  for (; !failure && walker != fs::recursive_directory_iterator(); walker.increment(failure)) {
    if (walker->symlink_status(failure).type() != fs::file_type::regular) continue;
    if (++looked_at > surveyed_file_limit) break;
    const auto* recognised = detail::recognise_capture_file(walker->path());
    if (recognised == nullptr || recognised->name() != collector) continue;
    ++scope.capture_files;
    const fs::path relative = walker->path().lexically_relative(dir);
    if (auto trial = trial_of(relative)) trials.insert(*trial);
    const auto size = walker->file_size(failure);
    if (!failure && size > 0 && size <= compared_file_limit) by_size[size].push_back(relative);
  }
  scope.trials.assign(trials.begin(), trials.end());
  for (auto& [size, files] : by_size) {
    if (files.size() < 2) continue;
    std::sort(files.begin(), files.end());
    std::map<std::uint64_t, fs::path> first_with_hash;
    for (const auto& file : files) {
      const auto hash = content_hash(dir / file);
      if (!hash) continue;
      const auto [seen, inserted] = first_with_hash.emplace(*hash, file);
      if (!inserted) scope.copies.emplace_back(seen->second, file);
    }
  }
  return scope;
}

void require_one_capture(const std::string& path, const std::string& collector, bool aggregate) {
  std::error_code failure;
  if (!fs::is_directory(path, failure)) return;
  const capture_scope scope = survey_capture_scope(path, collector);
  const fs::path root(path);
  if (scope.trials.size() > 1) {
    std::vector<std::string> names;
    for (const auto& trial : scope.trials) names.push_back((root / trial).string());
    if (!aggregate) {
      throw usage_error(fmt::format(
          "{} holds the captures of {} trials ({}); `aorta check` reads one capture, and adding "
          "them up would report the work of {} runs as one run's. Check one trial, e.g. "
          "aorta check {}, or pass --aggregate to sum them on purpose",
          path, scope.trials.size(), name_some(names), scope.trials.size(), names.front()));
    }
    fmt::print(std::cerr, "aorta: note: --aggregate: summing the captures of {} trials ({})\n",
               scope.trials.size(), name_some(names));
  }
  if (!scope.copies.empty()) {
    const auto& [original, copy] = scope.copies.front();
    if (!aggregate) {
      throw usage_error(fmt::format(
          "{} holds identical copies of one capture ({} and {}{}); adding them up would count "
          "it twice. Remove the copy or check one file, e.g. aorta check {}, or pass --aggregate "
          "to sum them on purpose",
          path, (root / original).string(), (root / copy).string(),
          scope.copies.size() > 1 ? fmt::format(", and {} more", scope.copies.size() - 1) : "",
          (root / original).string()));
    }
    fmt::print(std::cerr, "aorta: note: --aggregate: summing identical copies ({} and {})\n",
               (root / original).string(), (root / copy).string());
  }
}

}  // namespace aorta::cli
