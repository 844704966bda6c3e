// fusor/io/npy.hpp: NumPy's .npy files (format versions 1.0, 2.0 and 3.0), as specified in
// numpy/lib/format.py: a magic string, a version, a little-endian header length, a Python dict
// literal {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), } padded with spaces to a
// multiple of 64 bytes and ended by '\n', then the raw elements.
#pragma once

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/tensor/tensor.hpp>
#include <fusor/tensor/tensor_view.hpp>

namespace fusor {

namespace npy {

/// The six bytes every .npy file starts with.
inline constexpr std::string_view magic = "\x93NUMPY";

/// The dtype string NumPy writes for `T`: `|b1`, `|i1`, `|u1`, `<i2` … `<u8`, `<f4`, `<f8`.
template <class T>
std::string descr() {
    const char kind = std::is_same_v<T, bool>       ? 'b'
                      : std::is_floating_point_v<T> ? 'f'
                      : std::is_signed_v<T>         ? 'i'
                                                    : 'u';
    return std::string(sizeof(T) == 1 ? "|" : "<") + kind + std::to_string(sizeof(T));
}

/// What a .npy header says.
struct header {
    std::string descr;
    bool fortran_order = false;
    shape_t shape;
};

/// The header as NumPy's `_write_array_header` writes it, version 1.0 (2.0 when the dict is
/// longer than 65535 bytes), padded so that the data starts at a multiple of 64 bytes.
FUSOR_DECL std::string format_header(const header& h);

namespace detail {
[[noreturn]] inline void fail(const std::string& path, const std::string& why) {
    throw io_error(path + ": " + why);
}

// A recursive-descent reader of the header's dict literal, accepting what NumPy's reader
// (`ast.literal_eval`, then its key and value checks) accepts of the three keys' values:
// strings (with an optional u or r prefix), True/False, and tuples of non-negative Python
// integers (`()`, `(6,)`, `(2, 3)`; `(6)` is the integer 6, not a tuple; no leading zeros;
// `_` between digits). Python's whitespace and `#` comments may stand between tokens; a repeated
// key keeps its last value, as a dict literal does. Anything else is an error naming the offset.
class dict_parser {
public:
    dict_parser(std::string_view text, const std::string& path) : s_(text), path_(path) {}

    header parse() {
        header h;
        bool have_descr = false, have_order = false, have_shape = false;
        expect('{');
        while (true) {
            skip_space();
            if (peek() == '}') {
                ++i_;
                break;
            }
            const std::string key = string_literal();
            skip_space();
            expect(':');
            skip_space();
            if (key == "descr") {
                have_descr = true;
                if (peek() == '[') // numpy.save of a record array: a valid header, not a dtype here
                    fail(path_,
                         "holds a structured dtype (a list of fields), which fusor does not "
                         "read: save each field as an array of its own");
                h.descr = string_literal();
            } else if (key == "fortran_order") {
                have_order = true;
                h.fortran_order = boolean();
            } else if (key == "shape") {
                have_shape = true;
                h.shape = tuple();
            } else {
                bad("unexpected key '" + key + "'");
            }
            skip_space();
            if (peek() == ',')
                ++i_;
            else if (peek() != '}')
                bad("expected ',' or '}'");
        }
        skip_space();
        if (i_ != s_.size())
            bad("text after the dict");
        if (!have_descr || !have_order || !have_shape)
            fail(path_,
                 "malformed header: it must have the keys 'descr', 'fortran_order' and "
                 "'shape'");
        return h;
    }

private:
    std::string_view s_;
    const std::string& path_;
    std::size_t i_ = 0;

    [[noreturn]] void bad(const std::string& why) const {
        fail(path_,
             "malformed header: " + why + " at offset " + std::to_string(i_) + " of "
                 + std::string(s_));
    }
    char peek(std::size_t ahead = 0) const {
        return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0';
    }
    static bool is_digit(char c) { return c >= '0' && c <= '9'; }
    // Python's whitespace between tokens inside brackets, and comments to the end of a line.
    void skip_space() {
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f')
                ++i_;
            else if (c == '#')
                while (i_ < s_.size() && s_[i_] != '\n' && s_[i_] != '\r')
                    ++i_;
            else
                break;
        }
    }
    void expect(char c) {
        skip_space();
        if (peek() != c)
            bad(std::string("expected '") + c + "'");
        ++i_;
    }
    std::string string_literal() {
        if (peek() == 'u' || peek() == 'U' || peek() == 'r' || peek() == 'R')
            ++i_; // u'<f8' is the same str in Python 3; no descr holds a backslash
        const char q = peek();
        if (q != '\'' && q != '"')
            bad("expected a string");
        const std::size_t end = s_.find(q, i_ + 1);
        if (end == std::string_view::npos)
            bad("unterminated string");
        std::string out(s_.substr(i_ + 1, end - i_ - 1));
        i_ = end + 1;
        return out;
    }
    bool word(std::string_view w) {
        const char after = peek(w.size());
        if (s_.substr(i_, w.size()) != w || after == '_'
            || std::isalnum(static_cast<unsigned char>(after)))
            return false;
        i_ += w.size();
        return true;
    }
    bool boolean() {
        if (word("True"))
            return true;
        if (word("False"))
            return false;
        bad("expected True or False");
    }
    // A Python decimal integer: no leading zeros but for 0 itself, `_` only between digits
    // (and Python 2's `L` suffix, in files written long ago).
    index_t integer() {
        if (!is_digit(peek()))
            bad("expected a non-negative integer");
        const bool zero = peek() == '0';
        index_t v = 0;
        while (true) {
            const index_t d = peek() - '0';
            if (zero && d != 0)
                bad("leading zeros in an integer");
            if (v > (std::numeric_limits<index_t>::max() - d) / 10)
                bad("extent too large");
            v = v * 10 + d;
            ++i_;
            if (peek() == '_' && is_digit(peek(1)))
                ++i_;
            else if (!is_digit(peek()))
                break;
        }
        if (peek() == 'L')
            ++i_;
        if (peek() == '_' || std::isalpha(static_cast<unsigned char>(peek())))
            bad("expected a non-negative integer");
        return v;
    }
    shape_t tuple() {
        shape_t out;
        expect('(');
        while (true) {
            skip_space();
            if (peek() == ')') {
                ++i_;
                return out;
            }
            out.push_back(integer());
            skip_space();
            if (peek() == ',')
                ++i_;
            else if (peek() != ')')
                bad("expected ',' or ')' in the shape");
            else if (out.size() == 1)
                bad("the shape is not a tuple (a one-element tuple needs a trailing comma)");
        }
    }
};

template <class T>
T byteswapped(T v) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    std::reverse(b, b + sizeof(T));
    std::memcpy(&v, b, sizeof(T));
    return v;
}
} // namespace detail

/// Parses the dict literal of a .npy header (the text between the length field and the data).
/// Throws `io_error` naming `path` and what is wrong.
FUSOR_DECL header parse_header(std::string_view text, const std::string& path);

} // namespace npy

namespace detail {
// How every writer in io/ (save_npy, save_npz, save_csv) creates a file: `write(out)` fills a
// temporary file beside `path` (`path.tmp~`), which is then renamed over `path`, so an error
// (a throwing `write`, a full disk) never leaves a half-written `path`, and an existing file is
// replaced whole or not at all. Throws `io_error` "path: reason".
template <class F>
void write_atomically(const std::string& path, F&& write) {
    const std::string tmp = path + ".tmp~";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            npy::detail::fail(path, "cannot open " + tmp + " for writing");
        try {
            write(static_cast<std::ostream&>(out));
        } catch (...) {
            out.close();
            std::remove(tmp.c_str());
            throw;
        }
        out.close();
        if (!out) {
            std::remove(tmp.c_str());
            npy::detail::fail(path, "write failed (disk full?)");
        }
    }
    // <cstdio>'s rename and remove, not <filesystem>'s: the same POSIX calls, and <filesystem>
    // (with <locale> and <codecvt>) is the heaviest header fusor.hpp would otherwise include.
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string reason = std::generic_category().message(errno);
        std::remove(tmp.c_str());
        npy::detail::fail(path, "cannot rename the temporary file into place: " + reason);
    }
}
} // namespace detail

/// Writes `e` (a tensor, a view or any expression, evaluated first) to `path` as a NumPy
/// `.npy` file, format 1.0, C order, little-endian; `numpy.load(path)` gives an array of the
/// same shape and dtype (`bool` → `|b1`, `int32_t` → `<i4`, `double` → `<f8`, …; 0-d and
/// empty tensors included). The file is written under a temporary name in the same directory
/// and renamed into place, so an error never leaves a half-written `path`. Throws `io_error`
/// naming the path and the reason. As numpy.save.
template <class E>
    requires expression<E>
void save_npy(const std::string& path, const E& e) {
    using T = value_type_t<E>;
    const tensor<T> t(e);
    const std::string head = npy::format_header({npy::descr<T>(), false, t.shape()});
    detail::write_atomically(path, [&](std::ostream& out) {
        out.write(head.data(), static_cast<std::streamsize>(head.size()));
        if constexpr (std::endian::native == std::endian::little || sizeof(T) == 1) {
            out.write(reinterpret_cast<const char*>(t.data()),
                      static_cast<std::streamsize>(t.size() * static_cast<index_t>(sizeof(T))));
        } else {
            for (const T& v : t) {
                const T le = npy::detail::byteswapped(v);
                out.write(reinterpret_cast<const char*>(&le), sizeof(T));
            }
        }
    });
}

/// Reads a NumPy `.npy` file (format 1.0, 2.0 or 3.0; C or Fortran order; little- or big-endian,
/// converted to the machine's order) holding elements of exactly type `T`; Fortran-ordered
/// data is returned in fusor's row-major layout. As numpy.load for a single array.
/// Throws `io_error` naming the path and the reason: the file cannot be opened, wrong magic
/// string, unknown version, truncated header or data, malformed header dict, a shape whose
/// size overflows, or another dtype (`holds <i4 (int32) data, not <f8 (float64)`; a structured
/// dtype, a record array's list of fields, is not read either). The file's
/// size is checked against the header before any allocation.
template <class T>
tensor<T> load_npy(const std::string& path);

/// As `load_npy(path)`, from a seekable binary stream (a `std::ifstream`, or a
/// `std::istringstream` holding a file's bytes); `path` only names it in messages.
template <class T>
tensor<T> load_npy(std::istream& in, const std::string& path) {
    using npy::detail::fail;
    in.seekg(0, std::ios::end);
    const auto end = in.tellg();
    if (!in || end < 0)
        fail(path, "cannot read the file's size (not a seekable stream)");
    const auto file_size = static_cast<std::uint64_t>(end);
    in.seekg(0);
    char pre[12] = {};
    if (file_size < 10 || !in.read(pre, 10))
        fail(path, "not a .npy file: shorter than the 10-byte preamble");
    if (std::string_view(pre, 6) != npy::magic)
        fail(path, "not a .npy file: wrong magic string (expected \\x93NUMPY)");
    const int major = static_cast<unsigned char>(pre[6]),
              minor = static_cast<unsigned char>(pre[7]);
    if (major < 1 || major > 3 || minor != 0)
        fail(path,
             "unsupported .npy format version " + std::to_string(major) + "."
                 + std::to_string(minor) + " (1.0, 2.0 and 3.0 are supported)");
    std::uint64_t header_len = 0, preamble = 10;
    if (major == 1) {
        header_len = static_cast<unsigned char>(pre[8]) | static_cast<unsigned char>(pre[9]) << 8;
    } else {
        if (file_size < 12 || !in.read(pre + 10, 2))
            fail(path, "truncated header length");
        for (int b = 0; b < 4; ++b)
            header_len |= std::uint64_t{static_cast<unsigned char>(pre[8 + b])} << (8 * b);
        preamble = 12;
    }
    if (header_len > file_size - preamble)
        fail(path,
             "truncated header: " + std::to_string(header_len) + " bytes announced, "
                 + std::to_string(file_size - preamble) + " in the file");
    std::string text(header_len, '\0');
    in.read(text.data(), static_cast<std::streamsize>(header_len));
    const npy::header h = npy::parse_header(text, path);

    // The dtype: byte order first ('<' little, '>' big, '|' not applicable, '=' native).
    const std::string want = npy::descr<T>();
    std::string got = h.descr;
    bool swap = false;
    if (!got.empty() && (got[0] == '>' || got[0] == '<' || got[0] == '|' || got[0] == '=')) {
        swap = sizeof(T) > 1
               && ((got[0] == '>' && std::endian::native == std::endian::little)
                   || (got[0] == '<' && std::endian::native == std::endian::big));
        got = got.substr(1);
    }
    if (got != want.substr(1))
        fail(path,
             "holds " + h.descr + " data, not " + want + " (" + std::string(dtype_name<T>()) + ")");

    // As NumPy: the product of the non-zero extents must not overflow even when another
    // extent is 0 (a (0, 2^40, 2^40) array would have overflowing strides).
    index_t count = 1, nonzero = 1;
    for (index_t n : h.shape) {
        if (n != 0 && nonzero > std::numeric_limits<index_t>::max() / n)
            fail(path, "shape " + to_string(h.shape) + " overflows the element count");
        nonzero *= n == 0 ? 1 : n;
        count *= n;
    }
    if (nonzero > std::numeric_limits<index_t>::max() / static_cast<index_t>(sizeof(T)))
        fail(path, "shape " + to_string(h.shape) + " overflows the element count");
    const std::uint64_t data_bytes = static_cast<std::uint64_t>(count) * sizeof(T);
    if (count > std::numeric_limits<index_t>::max() / static_cast<index_t>(sizeof(T))
        || data_bytes > file_size - preamble - header_len)
        fail(path,
             "truncated data: shape " + to_string(h.shape) + " needs " + std::to_string(data_bytes)
                 + " bytes, the file has " + std::to_string(file_size - preamble - header_len));

    // Fortran order: the file holds the transpose in C order.
    shape_t stored = h.shape;
    if (h.fortran_order)
        std::reverse(stored.begin(), stored.end());
    tensor<T> t(stored, uninitialized);
    if constexpr (std::is_same_v<T, bool>) {
        std::vector<unsigned char> bytes(static_cast<std::size_t>(count));
        in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(count));
        for (index_t k = 0; k < count; ++k)
            t.data()[k] = bytes[static_cast<std::size_t>(k)] != 0; // any byte is a valid bool
    } else {
        in.read(reinterpret_cast<char*>(t.data()), static_cast<std::streamsize>(data_bytes));
        if (swap)
            for (index_t k = 0; k < count; ++k)
                t.data()[k] = npy::detail::byteswapped(t.data()[k]);
    }
    if (!in)
        fail(path, "read error");
    if (!h.fortran_order)
        return t;
    const tensor_view<const T> v = t.view();
    return tensor<T>(tensor_view<const T>(v.data(), h.shape, [&] {
        strides_t s = v.strides();
        std::reverse(s.begin(), s.end());
        return s;
    }()));
}

template <class T>
tensor<T> load_npy(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        npy::detail::fail(path, "cannot open the file for reading");
    return load_npy<T>(in, path);
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/io/npy.ipp>
#endif
