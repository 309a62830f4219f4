// The CSV scanner's block masks and plain-row walk, each way the processor may run them, against
// the portable definitions and the byte-at-a-time reference parser: the scanner itself runs only
// the fastest way this processor has, so the others are compared here directly.
#include "captures/csv_block_masks.hpp"
#include "captures/csv_plain_row.hpp"
#include "unit/csv_reference_parser.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace {

using aorta::test::csv_reference::reference_parse;
using aorta::test::csv_reference::row;

TEST(csv_block_masks, avx2_sse2_and_scalar_masks_agree_on_every_byte_value_at_every_position) {
  std::mt19937 rng(21);
  std::string block(aorta::detail::csv_block_bytes, 'x');
  for (int round = 0; round < 2000; ++round) {
    for (char& c : block) c = static_cast<char>(rng() % 256);
    // Make the interesting bytes common, so every bit position sees each of them.
    for (int i = 0; i < 24; ++i) block[rng() % block.size()] = ",\n\r\""[rng() % 4];
    const auto scalar = aorta::detail::csv_block_masks_scalar(block.data());
    const auto expect_scalar = [&](const aorta::detail::csv_block_masks& got, const char* path) {
      ASSERT_EQ(scalar.quotes, got.quotes) << path;
      ASSERT_EQ(scalar.delimiters, got.delimiters) << path;
      ASSERT_EQ(scalar.line_ends, got.line_ends) << path;
    };
    expect_scalar(aorta::detail::csv_block_masks_of(block.data()), "chosen");
#if defined(__SSE2__)
    expect_scalar(aorta::detail::csv_block_masks_sse2(block.data()), "sse2");
#endif
#if defined(AORTA_CSV_AVX2)
    // Every scanner test runs the AVX2 masks where the processor has them; this runs SSE2 too.
    if (aorta::detail::csv_has_avx2) {
      expect_scalar(aorta::detail::csv_block_masks_avx2(block.data()), "avx2");
    }
#endif
  }
  for (std::size_t at = 0; at < block.size(); ++at) {
    std::string ones(aorta::detail::csv_block_bytes, 'a');
    ones[at] = '"';
    EXPECT_EQ(aorta::detail::csv_block_masks_of(ones.data()).quotes, std::uint64_t{1} << at);
  }
}

TEST(csv_block_masks, count_bits_counts_every_bit) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t bits = rng() & rng();
    EXPECT_EQ(aorta::detail::count_bits(bits), static_cast<std::size_t>(std::popcount(bits)));
  }
  EXPECT_EQ(aorta::detail::count_bits(~std::uint64_t{0}), 64U);
}

// Random buffers of the bytes that matter: the one-pass AVX2/PCLMUL masks must equal the block
// masks and the portable plain fill, block for block, however quotes carry across blocks.
TEST(csv_block_masks, one_pass_masks_equal_the_portable_fill) {
#if defined(AORTA_CSV_AVX2)
  if (!aorta::detail::csv_has_avx2_clmul) GTEST_SKIP() << "no AVX2 and PCLMUL here";
  std::mt19937 rng(2223);
  const std::string alphabet = "ab,,\"\"\n\r";
  constexpr std::size_t blocks = 9;
  std::string text(blocks * aorta::detail::csv_block_bytes, 'x');
  for (int round = 0; round < 500; ++round) {
    for (char& c : text) c = alphabet[rng() % alphabet.size()];
    std::vector<aorta::detail::csv_block_masks> masks(blocks);
    std::vector<aorta::detail::csv_plain_masks> plain(blocks);
    aorta::detail::csv_block_masks_fill(text.data(), blocks, masks.data());
    aorta::detail::csv_plain_masks_fill(masks.data(), blocks, plain.data());
    std::vector<aorta::detail::csv_block_masks> both_masks(blocks);
    std::vector<aorta::detail::csv_plain_masks> both_plain(blocks);
    aorta::detail::csv_masks_fill_both_avx2(text.data(), blocks, both_masks.data(),
                                            both_plain.data());
    for (std::size_t b = 0; b < blocks; ++b) {
      ASSERT_EQ(both_masks[b].quotes, masks[b].quotes) << "round " << round << " block " << b;
      ASSERT_EQ(both_masks[b].delimiters, masks[b].delimiters) << "block " << b;
      ASSERT_EQ(both_masks[b].line_ends, masks[b].line_ends) << "block " << b;
      ASSERT_EQ(both_plain[b].commas, plain[b].commas) << "round " << round << " block " << b;
      ASSERT_EQ(both_plain[b].line_ends, plain[b].line_ends) << "block " << b;
      ASSERT_EQ(both_plain[b].irregular, plain[b].irregular) << "block " << b;
    }
  }
#else
  GTEST_SKIP() << "no AVX2 path in this build";
#endif
}

// The plain-row walk with portable counting and selecting, and with popcnt/pdep, against the
// reference parser, from every row start of random rows with up to 70 fields (past one block's
// worth of commas) and several wanted sets: the scanner runs only the one the processor has.
TEST(csv_plain_row, portable_and_bmi2_walks_match_the_reference) {
  std::mt19937 rng(2224);
  const std::vector<std::string> fields{"", "7", "12345", "\"q\"", "\"a,b\"", "\"\"",
                                        std::string(40, 'w')};
  std::string text;
  for (int r = 0; r < 60; ++r) {
    const std::size_t count = 1 + rng() % 70;
    for (std::size_t f = 0; f < count; ++f) text += (f > 0 ? "," : "") + fields[rng() % 7];
    text += r % 2 == 0 ? "\n" : "\r\n";
  }
  const std::vector<row> reference = reference_parse(text);
  const std::size_t blocks = text.size() / aorta::detail::csv_block_bytes + 1;
  text.resize(blocks * aorta::detail::csv_block_bytes, '\0');  // the scanner's zeroed slack
  std::vector<aorta::detail::csv_block_masks> masks(blocks);
  std::vector<aorta::detail::csv_plain_masks> plain(blocks);
  aorta::detail::csv_block_masks_fill(text.data(), blocks, masks.data());
  aorta::detail::csv_plain_masks_fill(masks.data(), blocks, plain.data());
  const std::vector<std::uint64_t> wanted_sets{1, 0x681, 0x3, ~std::uint64_t{0},
                                               (std::uint64_t{1} << 63) | 1, 0xF0F0F0F0F0F0F0F1};
  std::size_t pos = 0;
  for (const row& want : reference) {
    for (const std::uint64_t wanted : wanted_sets) {
      const aorta::detail::csv_plain_row_input in{plain.data(), text.data(), pos,
                                                   text.size(), wanted};
      std::vector<std::string_view> portable(64);
      const auto got = aorta::detail::csv_read_plain_row<aorta::detail::csv_portable_bits>(
          in, portable.data());
      ASSERT_EQ(got.field_count, want.fields.size()) << "row at " << pos;
      for (std::size_t c = 0; c < 64 && c < want.fields.size(); ++c) {
        if (((wanted >> c) & 1) != 0) {
          EXPECT_EQ(portable[c], want.fields[c]) << "row at " << pos << " column " << c;
        }
      }
#if defined(AORTA_CSV_AVX2)
      if (aorta::detail::csv_has_bmi2) {
        std::vector<std::string_view> bmi2(64);
        const auto fast = aorta::detail::csv_read_plain_row_bmi2(in, bmi2.data());
        EXPECT_EQ(fast.field_count, got.field_count);
        EXPECT_EQ(fast.line_end, got.line_end);
        EXPECT_EQ(bmi2, portable) << "row at " << pos;
      }
#endif
    }
    const std::size_t line_end = text.find_first_of("\r\n", pos);
    pos = line_end + (text[line_end] == '\r' ? 2 : 1);
  }
}

}  // namespace
