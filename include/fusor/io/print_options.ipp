// fusor/io/print_options.ipp: the definitions of print_options.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/io/print_options.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF std::mutex& print_options_mutex() {
    static std::mutex m;
    return m;
}

FUSOR_DEF print_options& global_print_options() {
    static print_options o;
    return o;
}

FUSOR_DEF void check_print_options(const print_options& o, const char* who) {
    if (o.precision < 0)
        throw value_error(std::string(who) + ": precision must be >= 0, not "
                          + std::to_string(o.precision));
    if (o.edgeitems < 0)
        throw value_error(std::string(who) + ": edgeitems must be >= 0, not "
                          + std::to_string(o.edgeitems));
}

} // namespace detail
} // namespace fusor

namespace fusor {

FUSOR_DEF void set_print_options(const print_options& o) {
    detail::check_print_options(o, "set_print_options");
    const std::lock_guard<std::mutex> lock(detail::print_options_mutex());
    detail::global_print_options() = o;
}

FUSOR_DEF print_options get_print_options() {
    const std::lock_guard<std::mutex> lock(detail::print_options_mutex());
    return detail::global_print_options();
}

} // namespace fusor
