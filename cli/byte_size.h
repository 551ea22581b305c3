// Byte counts as the command line takes and prints them: "2000000000", "2GB", "500MiB" in, and
// "4.94 GB" out (decimal units, as transformers' max_shard_size and disk sizes are given).
#pragma once

#include <cstdint>
#include <string>

namespace halogen {

// A positive count of bytes: digits, then optionally a unit B, KB, MB, GB, TB (powers of 1000) or
// KiB, MiB, GiB, TiB (powers of 1024), any case, as transformers reads max_shard_size. An Error
// naming `flag` and the text otherwise (not a count, zero, more than 2^64).
uint64_t parse_byte_size(const std::string &text, const std::string &flag);

// Three significant digits and a decimal unit: "512 B", "985 kB", "4.94 GB".
std::string format_byte_size(uint64_t bytes);

}  // namespace halogen
