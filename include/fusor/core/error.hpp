// fusor/core/error.hpp: the exception types every fusor operation throws.
#pragma once

#include <stdexcept>
#include <string>

namespace fusor {

/// Mixin base of every fusor exception; not itself a `std::exception`, so both
/// `catch (const fusor::error&)` and `catch (const std::exception&)` work.
struct error {
    virtual ~error() = default;
};

/// Shapes that do not broadcast together (NumPy's "operands could not be broadcast").
/// `what()` names every operand's shape, e.g. `(3,4) (2,)`.
struct broadcast_error : std::invalid_argument, error {
    using std::invalid_argument::invalid_argument;
};

/// A bad argument value: duplicate axes, a reduction with no identity over an empty axis,
/// slice step 0, a scalar that does not fit the tensor's integer type, ...
struct value_error : std::invalid_argument, error {
    using std::invalid_argument::invalid_argument;
};

/// An axis outside `[-rank, rank)`, as NumPy's AxisError.
struct axis_error : std::out_of_range, error {
    using std::out_of_range::out_of_range;
};

/// An integer index outside its axis (in `view` or `at`), as NumPy's IndexError.
struct index_error : std::out_of_range, error {
    using std::out_of_range::out_of_range;
};

/// An expression evaluated after one of its operands was destroyed, moved from, reallocated
/// or reshaped (checked mode only, see `FUSOR_CHECKED`): `what()` names the operand by its
/// position and says what happened to it. Release builds do not check, and read freed memory.
struct lifetime_error : std::logic_error, error {
    using std::logic_error::logic_error;
};

/// A file that cannot be read or written as asked (`.npy` input/output).
struct io_error : std::runtime_error, error {
    using std::runtime_error::runtime_error;
};

} // namespace fusor
