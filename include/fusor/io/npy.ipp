// fusor/io/npy.ipp: the definitions of npy.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/io/npy.hpp>

namespace fusor {
namespace npy {

FUSOR_DEF std::string format_header(const header& h) {
    std::string dict = "{'descr': '" + h.descr + "', 'fortran_order': "
                       + (h.fortran_order ? "True" : "False") + ", 'shape': (";
    for (std::size_t k = 0; k < h.shape.size(); ++k)
        dict += (k ? ", " : "") + std::to_string(h.shape[k]);
    dict += h.shape.size() == 1 ? ",), }" : "), }";
    const bool v2 = dict.size() + 1 + 10 > 65535;
    const std::size_t preamble = v2 ? 12 : 10; // magic, version, length field
    const std::size_t total = (preamble + dict.size() + 1 + 63) / 64 * 64;
    dict.append(total - preamble - dict.size() - 1, ' ');
    dict += '\n';
    std::string out(magic);
    out += static_cast<char>(v2 ? 2 : 1);
    out += '\0';
    const std::size_t n = dict.size();
    for (std::size_t b = 0; b < (v2 ? 4u : 2u); ++b)
        out += static_cast<char>((n >> (8 * b)) & 0xff);
    return out + dict;
}

FUSOR_DEF header parse_header(std::string_view text, const std::string& path) {
    return detail::dict_parser(text, path).parse();
}

} // namespace npy
} // namespace fusor
