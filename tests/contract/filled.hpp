// The contraction tests' operands: uniform values in [-1, 1) of type T, reproducible by seed.
#pragma once

#include <cstdint>

#include <fusor/fusor.hpp>

namespace contract_tests {
template <class T>
fusor::tensor<T> filled(const fusor::shape_t& s, std::uint64_t seed) {
    auto rng = fusor::random::default_rng(seed);
    return fusor::eval(fusor::cast<T>(rng.uniform(-1.0, 1.0, s)));
}
} // namespace contract_tests
