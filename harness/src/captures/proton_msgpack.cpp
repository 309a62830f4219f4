#include "captures/proton_msgpack.hpp"

#include "aorta/error.hpp"
#include "bounded_input.hpp"
#include "json_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>

#include <fmt/format.h>

namespace aorta::detail {
namespace {

constexpr std::size_t input_buffer_bytes = std::size_t{64} << 10;
constexpr std::size_t string_piece_bytes = std::size_t{64} << 10;

// Length of the UTF-8 sequence `lead` starts (0: not a lead byte).
std::size_t utf8_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

bool utf8_valid(const unsigned char* s, std::size_t n) {
  for (std::size_t i = 1; i < n; ++i)
    if ((s[i] & 0xc0) != 0x80) return false;
  if (n == 3 && s[0] == 0xe0 && s[1] < 0xa0) return false;  // overlong
  if (n == 3 && s[0] == 0xed && s[1] >= 0xa0) return false;  // surrogate
  if (n == 4 && s[0] == 0xf0 && s[1] < 0x90) return false;  // overlong
  if (n == 4 && s[0] == 0xf4 && s[1] >= 0x90) return false;  // beyond U+10FFFF
  return true;
}

// Appends `text` as the inside of a JSON string; invalid UTF-8 becomes U+FFFD (as dump_json
// writes it). Returns how many bytes were used: an incomplete sequence at the end is left for the
// next piece unless `last`.
std::size_t escape_piece(std::string_view text, bool last, std::string& out) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  std::size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = s[i];
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      out += static_cast<char>(c);
      ++i;
    } else if (c < 0x80) {
      if (c == '"' || c == '\\') {
        out += '\\';
        out += static_cast<char>(c);
      } else {
        out += fmt::format("\\u{:04x}", c);
      }
      ++i;
    } else {
      const std::size_t n = utf8_length(c);
      if (n != 0 && i + n > text.size() && !last) return i;
      if (n == 0 || i + n > text.size() || !utf8_valid(s + i, n)) {
        out += "\xef\xbf\xbd";
        ++i;
      } else {
        out.append(text.data() + i, n);
        i += n;
      }
    }
  }
  return i;
}

}  // namespace

struct msgpack_json_stream::state {
  struct frame {
    bool map = false;
    std::uint64_t total = 0;  // values inside (a map's keys and values both count)
    std::uint64_t done = 0;
  };

  std::function<std::size_t(char*, std::size_t)> source;
  std::uint64_t size = 0;
  std::string name;
  std::vector<char> in;
  std::size_t in_at = 0;
  std::size_t in_end = 0;
  bool source_done = false;
  std::uint64_t consumed = 0;
  std::string pending;
  std::size_t pending_at = 0;
  std::vector<frame> stack;
  std::optional<bool> trace;
  bool finished = false;
  bool in_string = false;
  std::uint64_t string_left = 0;
  std::string carry;  // an incomplete UTF-8 sequence between pieces of one string

  // Past one of aorta's limits (nesting, a length beyond the file).
  [[noreturn]] void fail(const std::string& why) const {
    throw capture_error(fmt::format("{}: MessagePack byte {}: {}; the file is truncated, damaged "
                                    "or not Proton's hatchet_msgpack output",
                                    name, consumed, why));
  }
  [[noreturn]] void malformed(const std::string& why) const {
    throw capture_error(fmt::format("{}: not valid MessagePack (byte {}: {}); the file is "
                                    "truncated or is not Proton's hatchet_msgpack output",
                                    name, consumed, why));
  }
  [[noreturn]] void not_proton(const std::string& why) const {
    throw capture_error(fmt::format("{}: valid MessagePack but not a Proton document ({}, byte {})",
                                    name, why, consumed));
  }

  std::uint64_t left() const { return consumed > size ? 0 : size - consumed; }

  // At least `n` bytes buffered, or false at the end of the input.
  bool fill(std::size_t n) {
    while (in_end - in_at < n) {
      if (source_done) return false;
      if (in_at != 0) {
        std::memmove(in.data(), in.data() + in_at, in_end - in_at);
        in_end -= in_at;
        in_at = 0;
      }
      const std::size_t got = source(in.data() + in_end, in.size() - in_end);
      if (got == 0) source_done = true;
      in_end += got;
    }
    return true;
  }

  void need(std::size_t n) {
    if (!fill(n)) malformed("the document ends in the middle of a value");
  }

  unsigned char take_byte() {
    need(1);
    ++consumed;
    return static_cast<unsigned char>(in[in_at++]);
  }

  std::uint64_t take_big_endian(std::size_t n) {
    need(n);
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(in[in_at + i]);
    in_at += n;
    consumed += n;
    return v;
  }

  void open(bool map, std::uint64_t count) {
    // Every value takes at least one byte, so a count beyond the bytes left is a lie; checked
    // before anything is believed.
    if (count > left() || (map && count > left() / 2))
      fail(fmt::format("a {} declares {} entries but only {} bytes follow", map ? "map" : "array",
                       count, left()));
    if (stack.size() >= static_cast<std::size_t>(max_json_depth))
      fail(fmt::format("nested deeper than {} levels (aorta's limit on nesting, max_json_depth)",
                       max_json_depth));
    pending += map ? '{' : '[';
    stack.push_back({map, map ? count * 2 : count, 0});
  }

  void begin_string(std::uint64_t length) {
    if (length > left())
      fail(fmt::format("a string declares {} bytes but only {} follow", length, left()));
    pending += '"';
    in_string = true;
    string_left = length;
  }

  void number(double v) {
    // NaN and infinity have no JSON spelling: null, which the tree reader reports as unusable.
    pending += std::isfinite(v) ? fmt::format("{}", v) : std::string("null");
  }

  void value(bool is_key);
  void string_piece();
  void step();
};

void msgpack_json_stream::state::value(bool is_key) {
  const unsigned char b = take_byte();
  const bool string_header = (b >= 0xa0 && b <= 0xbf) || (b >= 0xd9 && b <= 0xdb);
  if (is_key && !string_header) not_proton("a map key is not a string");
  if (b <= 0x7f) {
    pending += fmt::format("{}", b);
  } else if (b <= 0x8f) {
    open(true, b & 0x0fU);
  } else if (b <= 0x9f) {
    open(false, b & 0x0fU);
  } else if (b <= 0xbf) {
    begin_string(b & 0x1fU);
  } else if (b >= 0xe0) {
    pending += fmt::format("{}", static_cast<int>(static_cast<signed char>(b)));
  } else {
    switch (b) {
    case 0xc0: pending += "null"; break;
    case 0xc2: pending += "false"; break;
    case 0xc3: pending += "true"; break;
    case 0xca: {
      const auto bits = static_cast<std::uint32_t>(take_big_endian(4));
      float f = 0;
      std::memcpy(&f, &bits, sizeof f);
      number(static_cast<double>(f));
      break;
    }
    case 0xcb: {
      const std::uint64_t bits = take_big_endian(8);
      double d = 0;
      std::memcpy(&d, &bits, sizeof d);
      number(d);
      break;
    }
    case 0xcc: case 0xcd: case 0xce: case 0xcf:
      pending += fmt::format("{}", take_big_endian(std::size_t{1} << (b - 0xcc)));
      break;
    case 0xd0: pending += fmt::format("{}", static_cast<std::int8_t>(take_big_endian(1))); break;
    case 0xd1: pending += fmt::format("{}", static_cast<std::int16_t>(take_big_endian(2))); break;
    case 0xd2: pending += fmt::format("{}", static_cast<std::int32_t>(take_big_endian(4))); break;
    case 0xd3: pending += fmt::format("{}", static_cast<std::int64_t>(take_big_endian(8))); break;
    case 0xd9: case 0xda: case 0xdb:
      begin_string(take_big_endian(std::size_t{1} << (b - 0xd9)));
      break;
    case 0xdc: case 0xdd: open(false, take_big_endian(b == 0xdc ? 2 : 4)); break;
    case 0xde: case 0xdf: open(true, take_big_endian(b == 0xde ? 2 : 4)); break;
    default:
      not_proton(fmt::format("type byte 0x{:02x}: binary, extension or never-used types are not in "
                             "a Proton document",
                             b));
    }
  }
}

void msgpack_json_stream::state::string_piece() {
  if (string_left != 0) need(1);
  const std::size_t n = static_cast<std::size_t>(
      std::min<std::uint64_t>({string_left, in_end - in_at, string_piece_bytes}));
  carry.append(in.data() + in_at, n);
  in_at += n;
  consumed += n;
  string_left -= n;
  const bool last = string_left == 0;
  const std::size_t used = escape_piece(carry, last, pending);
  carry.erase(0, used);
  if (last) {
    pending += '"';
    in_string = false;
  }
}

void msgpack_json_stream::state::step() {
  if (in_string) {
    string_piece();
    return;
  }
  if (stack.empty()) {
    if (fill(1) || consumed != size) malformed("bytes follow the end of the document");
    finished = true;
    return;
  }
  frame& top = stack.back();
  if (top.done == top.total) {
    pending += top.map ? '}' : ']';
    stack.pop_back();
    return;
  }
  const bool key = top.map && top.done % 2 == 0;
  if (top.map && !key)
    pending += ':';
  else if (top.done != 0)
    pending += ',';
  ++top.done;
  value(key);
}

msgpack_json_stream::msgpack_json_stream(std::function<std::size_t(char*, std::size_t)> source,
                                         std::uint64_t size, std::string display_name)
    : m(std::make_unique<state>()) {
  m->source = std::move(source);
  m->size = size;
  m->name = std::move(display_name);
  m->in.resize(static_cast<std::size_t>(
      std::min<std::uint64_t>(input_buffer_bytes, std::max<std::uint64_t>(size, 16))));
}

msgpack_json_stream::~msgpack_json_stream() = default;

bool msgpack_json_stream::is_trace() {
  if (m->trace) return *m->trace;
  if (!m->fill(1)) m->malformed("the file is empty");
  const auto b = static_cast<unsigned char>(m->in[m->in_at]);
  const bool string = (b >= 0xa0 && b <= 0xbf) || (b >= 0xd9 && b <= 0xdb);
  const bool array = (b >= 0x90 && b <= 0x9f) || b == 0xdc || b == 0xdd;
  if (b == 0xc1) m->malformed("type byte 0xc1 is never used");
  if (!string && !array)
    m->not_proton("expected an array [root node, device table] or a string holding a chrome "
                  "trace");
  m->value(false);
  m->trace = string;
  if (string) {
    m->pending.clear();  // the opening quote: a trace is its string's bytes, unquoted
    return true;
  }
  const auto next = m->fill(1) ? static_cast<unsigned char>(m->in[m->in_at]) : 0;
  const bool map = (next >= 0x80 && next <= 0x8f) || next == 0xde || next == 0xdf;
  if (m->stack.back().total == 0 || !map)
    m->not_proton("expected an array whose first entry is the root node, a map");
  return false;
}

std::size_t msgpack_json_stream::read(char* data, std::size_t size) {
  if (is_trace()) {
    if (m->string_left == 0) {
      if (!m->finished && (m->fill(1) || m->consumed != m->size))
        m->malformed("bytes follow the end of the document");
      m->finished = true;
      return 0;
    }
    m->need(1);
    const std::size_t n = static_cast<std::size_t>(
        std::min<std::uint64_t>({m->string_left, m->in_end - m->in_at, size}));
    std::memcpy(data, m->in.data() + m->in_at, n);
    m->in_at += n;
    m->consumed += n;
    m->string_left -= n;
    return n;
  }
  while (m->pending.size() - m->pending_at < size && !m->finished) m->step();
  const std::size_t n = std::min(size, m->pending.size() - m->pending_at);
  std::memcpy(data, m->pending.data() + m->pending_at, n);
  m->pending_at += n;
  if (m->pending_at == m->pending.size()) {
    m->pending.clear();
    m->pending_at = 0;
  }
  return n;
}

std::unique_ptr<msgpack_json_stream> open_proton_msgpack(const std::filesystem::path& file) {
  auto opened = std::make_shared<input_file>([&] {
    try {
      return open_input_file(file);
    } catch (const input_error& e) {
      throw capture_error(e.what());
    }
  }());
  if (opened->size() > proton_msgpack_max_bytes)
    throw capture_error(fmt::format(
        "{}: {} bytes of MessagePack is more than aorta reads ({} MiB, "
        "proton_msgpack_max_bytes); write proton's format: hatchet (JSON) for captures this large",
        file.string(), opened->size(), proton_msgpack_max_bytes >> 20));
  auto source = [opened](char* data, std::size_t size) {
    try {
      return opened->read_some(data, size);
    } catch (const input_error& e) {
      throw capture_error(e.what());
    }
  };
  return std::make_unique<msgpack_json_stream>(source, opened->size(), file.string());
}

std::unique_ptr<msgpack_json_stream> proton_msgpack_from_memory(const std::string& bytes,
                                                                const std::string& display_name) {
  auto source = [&bytes, at = std::size_t{0}](char* data, std::size_t size) mutable {
    const std::size_t n = std::min(size, bytes.size() - at);
    std::memcpy(data, bytes.data() + at, n);
    at += n;
    return n;
  };
  return std::make_unique<msgpack_json_stream>(source, bytes.size(), display_name);
}

proton_msgpack_document decode_proton_msgpack(const std::string& bytes,
                                              const std::string& display_name) {
  auto stream = proton_msgpack_from_memory(bytes, display_name);
  proton_msgpack_document doc;
  doc.is_trace = stream->is_trace();
  char chunk[4096];
  while (const std::size_t n = stream->read(chunk, sizeof chunk)) doc.json.append(chunk, n);
  return doc;
}

void scan_msgpack_json(msgpack_json_stream& stream, const std::filesystem::path& file,
                       const std::function<void(json_chunk_reader)>& scan) {
  try {
    scan([&stream](char* data, std::size_t size) { return stream.read(data, size); });
  } catch (const json_error& e) {
    throw capture_error(fmt::format("{}: decoded MessagePack, byte {} of its JSON: {}",
                                    file.string(), e.offset(), e.what()));
  }
}

}  // namespace aorta::detail
