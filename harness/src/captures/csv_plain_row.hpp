// One plain CSV row read from its blocks' plain masks (csv_block_masks.hpp): a block's commas
// are counted at once and only the commas around wanted fields are located, so a 22-column
// kernel trace row costs a few operations per block and per wanted field, not a turn of a loop
// per comma. Two ways to count and locate: portable bit tricks, and popcnt/pdep where the
// processor has BMI2 (csv_has_bmi2), the same row walk compiled for each.
#pragma once

#include "captures/csv_block_masks.hpp"

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

#if defined(AORTA_CSV_AVX2)
#include <immintrin.h>
#endif

namespace aorta::detail {

// Counting and selecting with baseline x86-64 (or any target) instructions.
struct csv_portable_bits {
  static constexpr bool deposits = false;
  static std::size_t count(std::uint64_t bits) noexcept { return count_bits(bits); }
  // The position of set bit `nth` (0-based) of `bits`, which holds more than `nth` set bits.
  static std::size_t select(std::uint64_t bits, std::size_t nth) noexcept {
    for (; nth != 0; --nth) bits &= bits - 1;
    return static_cast<std::size_t>(std::countr_zero(bits));
  }
};

#if defined(AORTA_CSV_AVX2)
inline bool csv_detect_bmi2() noexcept {
  __builtin_cpu_init();
  // AMD before Zen 3 (families 15h and 17h) runs pdep in microcode, hundreds of cycles per
  // call: slower there than the portable clear-lowest-bit select.
  const bool slow_deposit =
      __builtin_cpu_is("amdfam15h") != 0 || __builtin_cpu_is("amdfam17h") != 0;
  return !slow_deposit && __builtin_cpu_supports("bmi2") != 0 &&
         __builtin_cpu_supports("popcnt") != 0;
}
inline const bool csv_has_bmi2 = csv_detect_bmi2();

// Call only where csv_has_bmi2.
struct csv_bmi2_bits {
  static constexpr bool deposits = true;
  // pdep: bit j of `bits` moved to the position of the j-th set bit of `mask`.
  __attribute__((target("bmi2"))) static std::uint64_t deposit(std::uint64_t bits,
                                                               std::uint64_t mask) noexcept {
    return _pdep_u64(bits, mask);
  }
  __attribute__((target("popcnt"))) static std::size_t count(std::uint64_t bits) noexcept {
    return static_cast<std::size_t>(_mm_popcnt_u64(bits));
  }
  __attribute__((target("bmi,bmi2"))) static std::size_t select(std::uint64_t bits,
                                                                 std::size_t nth) noexcept {
    return static_cast<std::size_t>(_tzcnt_u64(_pdep_u64(std::uint64_t{1} << nth, bits)));
  }
};
#endif

// A plain row's field [start, end): a quoted one's quotes are its first and last bytes. An
// empty field's first byte is the delimiter after it, so buf[start] always lies in the row.
inline std::string_view csv_plain_field(const char* buf, std::size_t start,
                                        std::size_t end) noexcept {
  if (buf[start] == '"') return std::string_view(buf + start + 1, end - start - 2);
  return std::string_view(buf + start, end - start);
}

struct csv_plain_row_input {
  const csv_plain_masks* masks;  // of every block below `end`, from the buffer's start
  const char* buf;
  std::size_t pos;  // the row's first byte, after an outside line end or at the buffer's start
  std::size_t end;  // one past the last buffered byte
  std::uint64_t wanted;  // bit i: column i is stored; no bit at or past `fields`' size
};

struct csv_plain_row_result {
  std::size_t line_end = 0;     // the row's '\n' or '\r'
  std::size_t field_count = 0;  // 0: not a plain row, or its line end is not buffered
};

// Stores the wanted fields of the plain row at `in.pos` into `fields` (the others untouched) and
// returns where it ends; field_count 0 (fields may be partly written) for any other row.
template <class Bits>
[[gnu::always_inline]] inline csv_plain_row_result
csv_read_plain_row(const csv_plain_row_input& in, std::string_view* fields) noexcept {
  // Field w lies between commas w - 1 and w: only those commas are located.
  std::uint64_t needed = in.wanted | (in.wanted >> 1);
  // Where field k - 1 ends, by k: the row's start less one, then each needed comma, then (set
  // once known) the line end when the row has fewer than 64 commas.
  std::size_t field_end[65];
  field_end[0] = in.pos - 1;
  std::size_t base = in.pos & ~(csv_block_bytes - 1);
  std::uint64_t live = ~std::uint64_t{0} << (in.pos - base);
  std::size_t commas_before = 0;  // the row's commas in the blocks before `base`
  for (; base < in.end; base += csv_block_bytes, live = ~std::uint64_t{0}) {
    const csv_plain_masks& plain = in.masks[base / csv_block_bytes];
    const std::uint64_t line_ends = plain.line_ends & live;
    // Through the row's line end, or the whole block when the row goes on.
    const std::uint64_t row =
        live & (line_ends == 0 ? ~std::uint64_t{0} : line_ends ^ (line_ends - 1));
    if ((plain.irregular & row) != 0) return {};
    const std::uint64_t commas = plain.commas & row;
    const std::size_t commas_through = commas_before + Bits::count(commas);
    if constexpr (Bits::deposits) {
      // The needed commas of this block at once: bit j of the shifted ordinals lands on the
      // block's j-th comma, and those past its last comma fall away.
      std::uint64_t here = commas_before < 64 ? Bits::deposit(needed >> commas_before, commas) : 0;
      for (; here != 0; here &= here - 1, needed &= needed - 1) {
        field_end[std::countr_zero(needed) + 1] =
            base + static_cast<std::size_t>(std::countr_zero(here));
      }
    } else {
      for (; needed != 0; needed &= needed - 1) {
        const auto ordinal = static_cast<std::size_t>(std::countr_zero(needed));
        if (ordinal >= commas_through) break;
        field_end[ordinal + 1] = base + Bits::select(commas, ordinal - commas_before);
      }
    }
    commas_before = commas_through;
    if (line_ends != 0) {
      const std::size_t line_end = base + static_cast<std::size_t>(std::countr_zero(line_ends));
      if (commas_before < 64) field_end[commas_before + 1] = line_end;
      // Columns past the row's last field stay as they are: the scanner empties them.
      for (std::uint64_t left = in.wanted; left != 0; left &= left - 1) {
        const auto w = static_cast<std::size_t>(std::countr_zero(left));
        if (w > commas_before) break;
        fields[w] = csv_plain_field(in.buf, field_end[w] + 1, field_end[w + 1]);
      }
      return {line_end, commas_before + 1};
    }
  }
  return {};
}

#if defined(AORTA_CSV_AVX2)
__attribute__((target("popcnt,bmi,bmi2"))) inline csv_plain_row_result
csv_read_plain_row_bmi2(const csv_plain_row_input& in, std::string_view* fields) noexcept {
  return csv_read_plain_row<csv_bmi2_bits>(in, fields);
}
#endif

}  // namespace aorta::detail
