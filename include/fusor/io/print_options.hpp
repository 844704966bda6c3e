// fusor/io/print_options.hpp: the options printing follows (numpy.set_printoptions).
#pragma once

#include <mutex>
#include <string>

#include <fusor/config.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>

namespace fusor {

/// How tensors print: the subset of `numpy.set_printoptions` that fusor follows, with NumPy's
/// defaults. Used by `os << t` and `array2string(t, o)` for tensors and views of every element
/// type (`precision` and `suppress` matter for `float` and `double` only).
///
/// - `precision`: at most this many digits after the decimal point (in scientific notation:
///   of the mantissa); fewer when every element needs fewer (NumPy's `floatmode='maxprec'`).
/// - `threshold`: a tensor of more than `threshold` elements is summarised with `...`.
/// - `edgeitems`: how many items a summarised axis shows at each end.
/// - `linewidth`: the number of characters per line before rows wrap.
/// - `suppress`: never switch to scientific notation for small numbers (values that round to
///   zero at `precision` print as `0.`); large ones (>= 1e8) still do.
///
/// Example: `fusor::array2string(t, {.precision = 3, .suppress = true})`.
struct print_options {
    int precision = 8;
    index_t threshold = 1000;
    index_t edgeitems = 3;
    index_t linewidth = 75;
    bool suppress = false;
};

namespace detail {
// The process-wide options, behind a mutex: setting them while another thread prints is not a
// data race (a print reads them once, at its start).
FUSOR_DECL std::mutex& print_options_mutex();
FUSOR_DECL print_options& global_print_options();
// NumPy raises ValueError for a negative precision; a negative edgeitems has no meaning.
FUSOR_DECL void check_print_options(const print_options& o, const char* who);
} // namespace detail

/// Sets the options every later `os << t` uses, as `numpy.set_printoptions(precision=…,
/// threshold=…, edgeitems=…, linewidth=…, suppress=…)` (all five at once: start from
/// `get_print_options()` to change one). The options are process-wide, like NumPy's; setting
/// them from one thread while another prints is safe (each print reads them once, at its start),
/// but the change is seen by every thread. Throws `value_error` for a negative `precision` or
/// `edgeitems`. A negative `threshold` summarises every tensor, as in NumPy.
///
/// Example: `auto o = fusor::get_print_options(); o.precision = 4; fusor::set_print_options(o);`
FUSOR_DECL void set_print_options(const print_options& o);

/// The options `os << t` uses now, as `numpy.get_printoptions()`; initially NumPy's defaults
/// (`precision` 8, `threshold` 1000, `edgeitems` 3, `linewidth` 75, `suppress` false).
///
/// Example: `fusor::get_print_options().precision == 8`.
FUSOR_DECL print_options get_print_options();

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/io/print_options.ipp>
#endif
