// libFuzzer target for the .npy reader (clang: -fsanitize=fuzzer,address,undefined). Any input
// must either load or throw fusor::io_error: no crash, no undefined behaviour, no allocation
// larger than the input justifies (the reader checks sizes against the stream first).
// Run: bash .ci/dev fuzz   (60 s from a NumPy-written seed corpus)
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include <fusor/fusor.hpp>

namespace {
template <class T>
void try_load(const std::string& bytes) {
    std::istringstream in(bytes, std::ios::binary);
    try {
        const fusor::tensor<T> t = fusor::load_npy<T>(in, "fuzz-input");
        // A loaded tensor must be fully readable.
        volatile std::size_t sum = 0;
        for (const T& v : t)
            sum = sum + static_cast<std::size_t>(v != T{});
    } catch (const fusor::io_error&) {
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try_load<bool>(bytes);
    try_load<std::uint8_t>(bytes);
    try_load<std::int16_t>(bytes);
    try_load<std::int32_t>(bytes);
    try_load<std::uint64_t>(bytes);
    try_load<float>(bytes);
    try_load<double>(bytes);
    return 0;
}
