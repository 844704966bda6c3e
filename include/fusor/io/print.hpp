// fusor/io/print.hpp: NumPy-style printing of tensors and views (numpy.array2string, print(a)).
// The element formats are in io/print_format.hpp, the options in io/print_options.hpp; this
// file picks the shown elements, builds one format per array and lays the words out as
// NumPy 1.24's _formatArray does (numpy/core/arrayprint.py).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include <fusor/core/shape.hpp>
#include <fusor/io/print_format.hpp>
#include <fusor/io/print_options.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace detail {

// The elements the format is computed from, in row-major order (NumPy's _leading_trailing):
// all of them, or when summarising only the first and last `edge` along every axis longer than
// 2 * edge. (With edge == 0 NumPy's `a[-0:]` is the whole axis, so every element counts.)
template <class T, class V>
void shown_elements(const T* p,
                    const shape_t& shape,
                    const strides_t& strides,
                    std::size_t axis,
                    index_t edge,
                    bool summarise,
                    std::vector<V>& out) {
    if (axis == shape.size()) {
        out.push_back(*p);
        return;
    }
    const index_t n = shape[axis];
    const bool cut = summarise && edge > 0 && n > 2 * edge;
    for (index_t i = 0; i < n; ++i) {
        if (cut && i == edge)
            i = n - edge;
        shown_elements(p + i * strides[axis], shape, strides, axis + 1, edge, summarise, out);
    }
}

// NumPy's _formatArray with separator ' ' and legacy=False: nested brackets, rows wrapped
// before `width` columns, `...` for the hidden middle of a summarised axis, and between the
// blocks of an axis as many newlines as axes remain below it.
template <class T, class Format>
class array_layout {
public:
    array_layout(const shape_t& shape,
                 const strides_t& strides,
                 const Format& format,
                 index_t edge,
                 bool summarise)
        : shape_(shape), strides_(strides), format_(format), edge_(edge), summarise_(summarise) {}

    // `hanging` is the indent of continuation lines (one space per open bracket), `width` the
    // line width left for this axis (one less per open bracket, for its closing `]`).
    std::string
    format(const T* p, std::size_t axis, const std::string& hanging, index_t width) const {
        const std::size_t rank = shape_.size();
        const index_t n = shape_[axis];
        const bool show_summary = summarise_ && 2 * edge_ < n;
        const index_t leading = show_summary ? edge_ : 0;
        const index_t trailing = show_summary ? edge_ : n;
        const std::string next_hanging = hanging + ' ';
        // Item i of this axis, negative i from the end (NumPy indexes the trailing ones so).
        auto item = [&](index_t i) {
            const T* q = p + (i < 0 ? n + i : i) * strides_[axis];
            return axis + 1 == rank ? std::string(format_(*q))
                                    : format(q, axis + 1, next_hanging, width - 1);
        };
        std::string s;
        if (axis + 1 == rank) {
            // Last axis: words joined by ' ', wrapped when a word would pass `width - 1`
            // (room for the separator or the closing bracket).
            const index_t elem_width = width - 1;
            std::string line = hanging;
            for (index_t i = 0; i < leading; ++i) {
                extend_line(s, line, item(i), elem_width, hanging);
                line += ' ';
            }
            if (show_summary) {
                extend_line(s, line, "...", elem_width, hanging);
                line += ' ';
            }
            for (index_t i = trailing; i > 1; --i) {
                extend_line(s, line, item(-i), elem_width, hanging);
                line += ' ';
            }
            extend_line(s, line, item(-1), elem_width, hanging);
            s += line;
        } else {
            // Outer axes: one block per item, separated by (axes left - 1) newlines.
            const std::string line_sep(rank - axis - 1, '\n');
            for (index_t i = 0; i < leading; ++i)
                s += hanging + item(i) + line_sep;
            if (show_summary)
                s += hanging + "..." + line_sep;
            for (index_t i = trailing; i > 1; --i)
                s += hanging + item(-i) + line_sep;
            s += hanging + item(-1);
        }
        return '[' + s.substr(hanging.size()) + ']';
    }

private:
    // NumPy's _extendLine: a word that would pass the width starts a new line (the old one
    // right-trimmed), unless the line holds nothing but the indent (wrapping would not help).
    static void extend_line(std::string& s,
                            std::string& line,
                            const std::string& word,
                            index_t width,
                            const std::string& hanging) {
        const auto len = static_cast<index_t>(line.size() + word.size());
        if (len > width && line.size() > hanging.size()) {
            const auto end = line.find_last_not_of(' ');
            s.append(line, 0, end == std::string::npos ? 0 : end + 1);
            s += '\n';
            line = hanging;
        }
        line += word;
    }

    const shape_t& shape_;
    const strides_t& strides_;
    const Format& format_;
    index_t edge_;
    bool summarise_;
};

// numpy.array2string(a, ...) of the elements at `data` with `shape` and `strides` (in
// elements, any sign): `[]` when empty, summarised above `o.threshold` elements.
template <class T>
std::string array_to_string(const T* data,
                            const shape_t& shape,
                            const strides_t& strides,
                            const print_options& o) {
    using V = std::remove_const_t<T>;
    check_print_options(o, "array2string");
    const index_t size = shape_size(shape);
    if (size == 0)
        return "[]"; // NumPy prints every empty array so, whatever its shape
    const bool summarise = size > o.threshold;
    std::vector<V> shown;
    shown_elements(data, shape, strides, 0, o.edgeitems, summarise, shown);
    const auto format = make_element_format(shown, o.precision, o.suppress, shape.empty());
    if (shape.empty())
        return format(*data);
    const array_layout<T, decltype(format)> layout(shape, strides, format, o.edgeitems, summarise);
    return layout.format(data, 0, " ", o.linewidth);
}

// print(a) of NumPy: array2string with the current options, except that a 0-d array prints
// as str() of its scalar (all its digits, whatever the precision).
template <class T>
std::ostream&
print_tensor(std::ostream& os, const T* data, const shape_t& shape, const strides_t& strides) {
    if (shape.empty())
        return os << scalar_str<std::remove_const_t<T>>(*data);
    return os << array_to_string(data, shape, strides, get_print_options());
}

} // namespace detail

/// The text NumPy's `numpy.array2string(a, precision=…, threshold=…, edgeitems=…,
/// max_line_width=…, suppress_small=…)` returns for a tensor of any element type, with the
/// options `o` (by default the current ones, `get_print_options()`):
/// - one format per tensor: integers right-aligned to the widest, bools as ` True`/`False`,
///   floats either all fixed-point (`[ 0.5  -1.25 10.  ]`: aligned on the point, at most
///   `precision` digits after it, unique digits in the element type) or all scientific
///   (`[1.0e-06 5.0e-01 2.5e-01]`) — scientific when the largest magnitude is >= 1e8, or
///   (unless `suppress`) the smallest non-zero one is < 1e-4 or the ratio is > 1000;
///   `nan`, `inf` right-aligned in the same width;
/// - rows wrapped at `linewidth` columns; blank lines between the blocks of 3-d and higher
///   tensors; more than `threshold` elements summarised with `...`, `edgeitems` at each end;
/// - `[]` for any empty tensor; a 0-d tensor formats its one value the same way (`0.12345679`:
///   `os << t` prints a 0-d tensor as NumPy's `print` does instead, with all its digits).
///
/// Throws `value_error` for a negative `o.precision` or `o.edgeitems`.
///
/// Example: `fusor::array2string(fusor::tensor<double>{1e-6, 0.5, 0.25})` is
/// `"[1.0e-06 5.0e-01 2.5e-01]"`.
template <class T>
std::string array2string(const tensor<T>& t, const print_options& o = get_print_options()) {
    return detail::array_to_string(t.data(), t.shape(), t.strides(), o);
}
/// `array2string` of a view: its elements as its shape and strides lay them out.
template <class T>
std::string array2string(const tensor_view<T>& v, const print_options& o = get_print_options()) {
    return detail::array_to_string(v.data(), v.shape(), v.strides(), o);
}

/// Prints as NumPy's `print(a)`: `array2string(t)` with the current options
/// (`set_print_options`), e.g. `[[ 1  2]\n [30 40]]`; a 0-d tensor prints as `print` of a NumPy
/// scalar, with the unique digits of its element type (`0.9921580365105283`, float32
/// `0.99215806`, `1e+20`, `True`).
///
/// Example: `std::cout << fusor::tensor<float>{1.5f, -2.0f}` prints `[ 1.5 -2. ]`.
template <class T>
std::ostream& operator<<(std::ostream& os, const tensor<T>& t) {
    return detail::print_tensor(os, t.data(), t.shape(), t.strides());
}
/// Prints a view as `operator<<` of a tensor does (`os << v`).
template <class T>
std::ostream& operator<<(std::ostream& os, const tensor_view<T>& v) {
    return detail::print_tensor(os, v.data(), v.shape(), v.strides());
}

} // namespace fusor
