// The history store in one SQLite file (docs/history.md): the embedded default. Writers take the
// write lock up front (BEGIN IMMEDIATE) and wait for it, so concurrent `aorta history add`
// processes on one file queue instead of failing or losing a run.
#pragma once

#include "history/history_store.hpp"

#include <filesystem>
#include <memory>

namespace aorta::detail {

[[nodiscard]] std::unique_ptr<history_store> open_sqlite_history(const std::filesystem::path& file,
                                                                 store_access access);

}  // namespace aorta::detail
