// fusor/core/child_slots.hpp: the children of an element-wise node or evaluator, one slot each.
#pragma once

#include <cstddef>
#include <utility>

#include <fusor/config.hpp>

namespace fusor::detail {

/// Child `I` of child_slots, of type `C`.
template <std::size_t I, class C>
struct child_slot {
    C value;
};
template <class Indices, class... Cs>
struct children_of;
template <std::size_t... I, class... Cs>
struct children_of<std::index_sequence<I...>, Cs...> : child_slot<I, Cs>... {};

/// The children `Cs...` of an element-wise node or evaluator: an aggregate of one slot per
/// child, built from a braced list (`{{c0}, {c1}, ...}`, evaluated left to right) and read by
/// slot_value<I>, which is always inlined. A slot initialised from a prvalue holds that object
/// itself (C++17's guaranteed elision): a leaf made for a node is made in its slot, not moved
/// there. Not a hana::tuple, whose constructor moves every element in, and whose at_c,
/// for_each and unpack g++ emits as functions of their own at -O0 (docs/performance.md,
/// "Compile time").
template <class... Cs>
using child_slots = children_of<std::index_sequence_for<Cs...>, Cs...>;

/// Child `I` of child_slots `s`.
template <std::size_t I, class C>
FUSOR_FORWARD C& slot_value(child_slot<I, C>& s) {
    return s.value;
}
template <std::size_t I, class C>
FUSOR_FORWARD const C& slot_value(const child_slot<I, C>& s) {
    return s.value;
}

} // namespace fusor::detail
