// fusor/ops/cast.hpp: the element-wise type conversion behind `cast<U>(e)`.
#pragma once

#include <string_view>

#include <fusor/config.hpp>
#include <fusor/core/convert.hpp>

namespace fusor::ops {

/// numpy's `astype(U)` as an element-wise operation: each value converted by `convert<U>`
/// (modular between integers, truncation from floating to integer, never undefined behaviour).
template <class U>
struct cast {
    static constexpr std::string_view name = "cast";
    template <class A>
    using result = U;
    template <class A>
    FUSOR_INLINE constexpr U operator()(A a) const {
        return convert<U>(a);
    }
};

} // namespace fusor::ops
