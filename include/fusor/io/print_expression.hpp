// fusor/io/print_expression.hpp: `std::cout << expr` for lazy expressions.
#pragma once

#include <ostream>

#include <fusor/core/expression.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/io/print.hpp>

namespace fusor {

/// Prints an expression as the tensor it evaluates to would print (`numpy.array2string`):
/// `std::cout << a * 2.0 + 1.0;`. Evaluates `e` (one fused loop into a temporary tensor); in
/// checked mode throws `lifetime_error` when an operand changed since `e` was built. An advanced
/// view (`view(x, mask)`) prints its selected elements, as NumPy's `print(x[mask])`.
template <class E>
    requires(node<E> || gathered_like<E>)
std::ostream& operator<<(std::ostream& os, const E& e) {
    return os << eval(e);
}

} // namespace fusor
