// fusor/io/print.hpp: NumPy-style printing of tensors and views.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/core/dtype.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {
// NumPy prints floats with up to 8 significant decimals after the point, trims trailing
// zeros, and keeps a trailing "." on integral values: `1.`, `0.5`, `3.14159265`, `nan`, `inf`.
template <class T>
std::string format_element(T v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v ? "True" : "False";
    } else if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(v))
            return "nan";
        if (std::isinf(v))
            return v > 0 ? "inf" : "-inf";
        char buf[64];
        const double a = std::fabs(static_cast<double>(v));
        if (a != 0 && (a >= 1e16 || a < 1e-4)) {
            auto r = std::to_chars(
                buf, buf + sizeof buf, static_cast<double>(v), std::chars_format::scientific, 8);
            std::string s(buf, r.ptr); // trim mantissa zeros: 1.50000000e+20 -> 1.5e+20
            const auto e = s.find('e');
            std::string m = s.substr(0, e);
            while (m.back() == '0')
                m.pop_back();
            return m + s.substr(e);
        }
        auto r = std::to_chars(
            buf, buf + sizeof buf, static_cast<double>(v), std::chars_format::fixed, 8);
        std::string s(buf, r.ptr);
        while (s.back() == '0')
            s.pop_back();
        return s;
    } else {
        return std::to_string(+v);
    }
}

template <class T>
void print_axis(std::ostream& os,
                const T* data,
                const shape_t& shape,
                const strides_t& strides,
                std::size_t axis,
                const std::vector<std::string>& cells,
                std::size_t& cell,
                std::size_t width,
                bool summarise) {
    const index_t n = shape[axis];
    const index_t edge = 3;
    os << '[';
    for (index_t i = 0; i < n; ++i) {
        if (summarise && n > 2 * edge && i == edge) {
            os << (axis + 1 == shape.size() ? "... " : "...\n" + std::string(axis + 1, ' '));
            i = n - edge;
        }
        if (axis + 1 == shape.size()) {
            const std::string& c = cells[cell++];
            os << std::string(width - c.size(), ' ') << c;
            if (i + 1 < n)
                os << ' ';
        } else {
            print_axis(os,
                       data + i * strides[axis],
                       shape,
                       strides,
                       axis + 1,
                       cells,
                       cell,
                       width,
                       summarise);
            if (i + 1 < n)
                os << std::string(shape.size() - axis - 1, '\n') << std::string(axis + 1, ' ');
        }
    }
    os << ']';
}

template <class T>
void collect_cells(const T* data,
                   const shape_t& shape,
                   const strides_t& strides,
                   std::size_t axis,
                   bool summarise,
                   std::vector<std::string>& cells) {
    const index_t n = shape[axis];
    for (index_t i = 0; i < n; ++i) {
        if (summarise && n > 6 && i == 3)
            i = n - 3;
        if (axis + 1 == shape.size())
            cells.push_back(format_element(data[i * strides[axis]]));
        else
            collect_cells(data + i * strides[axis], shape, strides, axis + 1, summarise, cells);
    }
}

template <class T>
std::ostream&
print_tensor(std::ostream& os, const T* data, const shape_t& shape, const strides_t& strides) {
    using V = std::remove_const_t<T>;
    if (shape.empty())
        return os << format_element<V>(*data);
    if (shape_size(shape) == 0)
        return os << "[]"; // NumPy prints every empty array as []
    // Summarise like NumPy above 1000 elements: three items at each edge of every axis.
    const bool summarise = shape_size(shape) > 1000;
    std::vector<std::string> cells;
    collect_cells(data, shape, strides, 0, summarise, cells);
    // Align as NumPy: floats line up on the decimal point (integer parts padded on the left,
    // fractions on the right); everything else is right-aligned.
    if constexpr (std::is_floating_point_v<V>) {
        std::size_t left = 0, right = 0;
        for (const auto& c : cells) {
            const auto dot = c.find('.');
            if (dot == std::string::npos || c.find('e') != std::string::npos)
                continue;
            left = std::max(left, dot);
            right = std::max(right, c.size() - dot - 1);
        }
        for (auto& c : cells) {
            const auto dot = c.find('.');
            if (dot == std::string::npos || c.find('e') != std::string::npos)
                continue;
            c = std::string(left - dot, ' ') + c + std::string(right - (c.size() - dot - 1), ' ');
        }
    }
    std::size_t width = 0;
    for (const auto& c : cells)
        width = std::max(width, c.size());
    std::size_t cell = 0;
    print_axis(os, data, shape, strides, 0, cells, cell, width, summarise);
    return os;
}
} // namespace detail

/// Prints as NumPy's `print(a)`: nested brackets, one row per line, columns aligned, floats with
/// up to 8 decimals (`1.`, `0.25`), bools as `True`/`False`; more than 1000 elements are
/// summarised with `...` (three items at each edge). A 0-d tensor prints its value.
template <class T>
std::ostream& operator<<(std::ostream& os, const tensor<T>& t) {
    return detail::print_tensor(os, t.data(), t.shape(), t.strides());
}
/// Prints a view as `operator<<` of a tensor does.
template <class T>
std::ostream& operator<<(std::ostream& os, const tensor_view<T>& v) {
    return detail::print_tensor(os, v.data(), v.shape(), v.strides());
}

} // namespace fusor
