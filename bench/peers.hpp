// bench/peers.hpp: xtensor (with xsimd) and Eigen's Tensor module over fusor's buffers, when
// CMake found them (FUSOR_BENCH_XTENSOR, FUSOR_BENCH_EIGEN). Both peers read and write the
// same memory as fusor and the hand-written loop: adaptors, no copies.
#pragma once

#include <array>
#include <cstddef>

#include <fusor/fusor.hpp>

#if FUSOR_BENCH_XTENSOR
#include <xtensor/xadapt.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xmath.hpp>
#include <xtensor/xnoalias.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xsort.hpp>
#endif

#if FUSOR_BENCH_EIGEN
#include <unsupported/Eigen/CXX11/Tensor>
#endif

// A peer's code where it was found, nullptr where not: `BENCH_XTENSOR([](auto& a) {...})`.
#if FUSOR_BENCH_XTENSOR
#define BENCH_XTENSOR(...) __VA_ARGS__
#else
#define BENCH_XTENSOR(...) nullptr
#endif
#if FUSOR_BENCH_EIGEN
#define BENCH_EIGEN(...) __VA_ARGS__
#else
#define BENCH_EIGEN(...) nullptr
#endif

namespace bench {

#if FUSOR_BENCH_XTENSOR
/// An xtensor adaptor of rank N over a fusor tensor's buffer (row-major, no ownership).
template <std::size_t N, class T>
auto xt_of(const fusor::tensor<T>& t) {
    std::array<std::size_t, N> shape{};
    for (std::size_t k = 0; k < N; ++k)
        shape[k] = static_cast<std::size_t>(t.shape()[k]);
    return xt::adapt(
        const_cast<T*>(t.data()), static_cast<std::size_t>(t.size()), xt::no_ownership(), shape);
}
#endif

#if FUSOR_BENCH_EIGEN
template <class T, int N>
using eigen_map = Eigen::TensorMap<Eigen::Tensor<T, N, Eigen::RowMajor, Eigen::Index>>;

/// An Eigen TensorMap of rank N over a fusor tensor's buffer (row-major).
template <int N, class T>
eigen_map<T, N> eigen_of(const fusor::tensor<T>& t) {
    std::array<Eigen::Index, N> dims{};
    for (int k = 0; k < N; ++k)
        dims[static_cast<std::size_t>(k)] = t.shape()[static_cast<std::size_t>(k)];
    return eigen_map<T, N>(const_cast<T*>(t.data()), dims);
}

template <class... I>
std::array<Eigen::Index, sizeof...(I)> dims(I... i) {
    return {static_cast<Eigen::Index>(i)...};
}
#endif

} // namespace bench
