// fusor/core/lifetime.ipp: the definitions of lifetime.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/core/lifetime.hpp>

namespace fusor::detail {

#if FUSOR_CHECKED
FUSOR_DEF lifetime_stamp stamp_of(const std::shared_ptr<storage_token>& token, bool follows_shape) {
    lifetime_stamp s;
    if (!token)
        return s;
    s.token = token;
    s.buffer_epoch = token->buffer_epoch;
    s.shape_epoch = token->shape_epoch;
    s.follows_shape = follows_shape;
    return s;
}
#endif

FUSOR_DEF void check_stamp([[maybe_unused]] const lifetime_stamp& stamp,
                           [[maybe_unused]] int position,
                           [[maybe_unused]] std::string_view dtype,
                           [[maybe_unused]] std::string_view kind) {
#if FUSOR_CHECKED
    std::string p = stamp.problem();
    if (!p.empty())
        throw lifetime_error("fusor: operand " + std::to_string(position) + " of the expression (a "
                             + (dtype.empty() ? "" : std::string(dtype) + " ") + std::string(kind)
                             + "; tensors and views counted from the left) " + p
                             + " after the expression was built: an expression refers to its "
                               "operands, it does not copy them (see 'auto' in docs/semantics.md)");
#endif
}

} // namespace fusor::detail
