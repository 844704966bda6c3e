// fusor/exec/single_element.hpp: the single-element operand (MNN BinaryOp's fast path for an
// operand of one element). Under the broadcast kernel an operand that stands still in the
// inner loop is read from a splat buffer, one more load stream beside the moving operands:
// measured on W5 ((4096, 1) * (1, 4096)), that costs 10-30 % of a store-bound loop. When an
// element-wise expression over tensors and scalars has exactly one such operand, it is held in
// a register instead (re-read at the start of each inner loop) and the other operands, all at
// unit stride, run the plain contiguous loop.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include <fusor/core/shape.hpp>
#include <fusor/exec/evaluator.hpp>

namespace fusor::exec {

/// A tensor operand that stands still in the inner loop, held in a register: `bind` reads its
/// one element for this inner loop.
template <class T>
struct still_leaf_evaluator {
    const T* base;
    std::size_t operand;
    T value{};
    FUSOR_INLINE void bind(const index_t* offsets) { value = base[offsets[operand]]; }
    void own_buffers(scratch&) {}
    FUSOR_INLINE void stage(const index_t*, index_t, index_t, index_t) {}
    FUSOR_INLINE void bind_block(const index_t* offsets, index_t, index_t) { bind(offsets); }
    template <bool Contiguous>
    FUSOR_INLINE T get(index_t) const {
        return value;
    }
};

namespace detail {
// Tensor operands of an evaluator made only of element-wise nodes, tensor leaves and scalars;
// -1 when it holds anything else (temporaries, reshapes, vector math: no single-element path).
template <class Ev>
struct flat_leaf_count : std::integral_constant<int, -1> {};
template <class T>
struct flat_leaf_count<leaf_evaluator<T>> : std::integral_constant<int, 1> {};
template <class T>
struct flat_leaf_count<scalar_evaluator<T>> : std::integral_constant<int, 0> {};
template <class Op, class... Cs>
struct flat_leaf_count<elementwise_evaluator<Op, Cs...>>
    : std::integral_constant<
          int,
          ((flat_leaf_count<Cs>::value < 0) || ...) ? -1 : (0 + ... + flat_leaf_count<Cs>::value)> {
};

// `ev` with tensor leaf I (depth-first; its leaves are numbered from `First`) held in a
// register.
template <int I, int First = 0, class Ev>
auto hold_leaf(const Ev& ev);

template <class... Cs>
constexpr int leaves_before(std::size_t k) {
    constexpr int counts[] = {flat_leaf_count<Cs>::value..., 0};
    int sum = 0;
    for (std::size_t j = 0; j < k; ++j)
        sum += counts[j];
    return sum;
}

template <int I, int First, class Op, class... Cs, std::size_t... K>
auto hold_children(const elementwise_evaluator<Op, Cs...>& ev, std::index_sequence<K...>) {
    return elementwise_evaluator<Op,
                                 decltype(hold_leaf<I, First + leaves_before<Cs...>(K)>(
                                     std::declval<const Cs&>()))...>{
        {{hold_leaf<I, First + leaves_before<Cs...>(K)>(slot_value<K>(ev.children))}...}};
}

template <int I, int First, class Ev>
auto hold_leaf(const Ev& ev) {
    if constexpr (requires { ev.children; }) {
        return [&]<class Op, class... Cs>(const elementwise_evaluator<Op, Cs...>& e) {
            return hold_children<I, First>(e, std::index_sequence_for<Cs...>{});
        }(ev);
    } else if constexpr (flat_leaf_count<Ev>::value == 1 && I == First) {
        using T = std::remove_cvref_t<decltype(*ev.base)>;
        return still_leaf_evaluator<T>{ev.base, ev.operand};
    } else {
        return ev;
    }
}
} // namespace detail
} // namespace fusor::exec
