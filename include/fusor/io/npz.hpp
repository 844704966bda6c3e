// fusor/io/npz.hpp: NumPy's .npz archives, as numpy.savez writes them and numpy.load reads them:
// a zip archive holding one .npy file per array ("x.npy"), stored without compression.
//
// The zip container is written and read here from PKWARE's APPNOTE.TXT: a local file header
// (4.3.7) before each member's bytes, then the central directory (4.3.12), then the end of
// central directory record (4.3.16); CRC-32 as in 4.4.7. Only what .npz files use: stored
// members, one disk, no ZIP64 (an archive under 4 GiB with at most 65535 members).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <istream>
#include <streambuf>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/io/npy.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

namespace detail::zip {

// CRC-32 of the zip format (APPNOTE 4.4.7, ISO-HDLC): the reflected polynomial 0xEDB88320,
// initial value and final xor 0xFFFFFFFF; one table of 256 remainders made at compile time and a
// byte per step. As zlib's crc32(crc, data, n): pass the previous result to continue a sum.
inline constexpr std::array<std::uint32_t, 256> crc_table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
        std::uint32_t c = n;
        for (int k = 0; k < 8; ++k)
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[n] = c;
    }
    return t;
}();

FUSOR_DECL std::uint32_t crc32(const void* data, std::size_t n, std::uint32_t previous = 0);

inline constexpr std::uint32_t local_signature = 0x04034b50;   // "PK\3\4"
inline constexpr std::uint32_t central_signature = 0x02014b50; // "PK\1\2"
inline constexpr std::uint32_t end_signature = 0x06054b50;     // "PK\5\6"
inline constexpr std::uint32_t zip64_locator_signature = 0x07064b50;
inline constexpr std::uint32_t max32 = 0xffffffff; // "see the ZIP64 record" in a 32-bit field
inline constexpr std::size_t local_size = 30, central_size = 46, end_size = 22;

// Little-endian fields, whatever the machine's byte order.
FUSOR_DECL void put(std::string& out, std::uint64_t v, int bytes);
FUSOR_DECL std::uint32_t get(const char* p, int bytes);

[[noreturn]] inline void fail(const std::string& where, const std::string& why) {
    throw io_error(where + ": " + why);
}

// One member as the central directory describes it.
struct member {
    std::string name;
    std::uint16_t flags = 0, method = 0;
    std::uint32_t crc = 0;
    std::uint64_t compressed = 0, size = 0, offset = 0; // offset of the local header
};

// Writes an archive member by member, byte for byte as Python's zipfile does for numpy.savez
// (`zipf.open(name, 'w', force_zip64=True)` on a seekable file): version 2.0 headers dated
// 1980-01-01 00:00 (ZipInfo's default), made by Unix with permissions 0600, a UTF-8 flag on
// non-ASCII names, and in each local header the 20-byte ZIP64 extra field with the sizes that
// numpy forces (gh-10776); the central directory has no extra fields.
class writer {
public:
    explicit writer(std::ostream& out) : out_(out) {}

    FUSOR_LAZY void
    add(const std::string& name, std::string_view head, const char* data, std::uint64_t n) {
        const std::uint32_t crc =
            crc32(data, static_cast<std::size_t>(n), crc32(head.data(), head.size()));
        const std::uint64_t size = head.size() + n;
        const bool ascii = std::all_of(
            name.begin(), name.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
        const std::uint16_t flags = ascii ? 0 : 0x800;
        std::string h;
        put(h, local_signature, 4);
        put(h, 20, 2); // version needed to extract: 2.0
        put(h, flags, 2);
        put(h, 0, 2);    // method: stored
        put(h, 0, 2);    // time 00:00:00
        put(h, 0x21, 2); // date 1980-01-01: (1980 - 1980) << 9 | 1 << 5 | 1
        put(h, crc, 4);
        put(h, size, 4);
        put(h, size, 4);
        put(h, name.size(), 2);
        put(h, 20, 2); // the ZIP64 extra field: id 1, 16 bytes, size and compressed size
        h += name;
        put(h, 1, 2);
        put(h, 16, 2);
        put(h, size, 8);
        put(h, size, 8);
        out_.write(h.data(), static_cast<std::streamsize>(h.size()));
        out_.write(head.data(), static_cast<std::streamsize>(head.size()));
        out_.write(data, static_cast<std::streamsize>(n));

        put(central_, central_signature, 4);
        put(central_, 3 << 8 | 20, 2); // made by Unix, 2.0
        put(central_, 20, 2);
        put(central_, flags, 2);
        put(central_, 0, 2);
        put(central_, 0, 2);
        put(central_, 0x21, 2);
        put(central_, crc, 4);
        put(central_, size, 4);
        put(central_, size, 4);
        put(central_, name.size(), 2);
        put(central_, 0, 2); // extra field
        put(central_, 0, 2); // comment
        put(central_, 0, 2); // disk
        put(central_, 0, 2); // internal attributes
        put(central_, 0600u << 16, 4);
        put(central_, offset_, 4);
        central_ += name;
        offset_ += h.size() + size;
        ++count_;
    }

    FUSOR_LAZY void finish() {
        std::string end;
        put(end, end_signature, 4);
        put(end, 0, 2); // this disk
        put(end, 0, 2); // the disk with the central directory
        put(end, count_, 2);
        put(end, count_, 2);
        put(end, central_.size(), 4);
        put(end, offset_, 4);
        put(end, 0, 2); // comment
        out_.write(central_.data(), static_cast<std::streamsize>(central_.size()));
        out_.write(end.data(), static_cast<std::streamsize>(end.size()));
    }

    // The bytes a member takes in the archive: local header, ZIP64 extra, data; central entry.
    static std::uint64_t local_bytes(std::size_t name, std::uint64_t size) {
        return local_size + name + 20 + size;
    }
    static std::uint64_t central_bytes(std::size_t name) { return central_size + name; }

private:
    std::ostream& out_;
    std::string central_;
    std::uint64_t offset_ = 0, count_ = 0;
};

// A read-only view of bytes [begin, begin + size) of a file as a seekable stream (what load_npy
// reads a member from), which also sums the CRC-32 of the bytes it hands out from the start on:
// load_npy reads a member front to back once, so checking the CRC costs no second pass.
class member_buf : public std::streambuf {
public:
    member_buf(std::istream& file, std::uint64_t begin, std::uint64_t size)
        : file_(file), begin_(begin), size_(size) {}

    // The CRC-32 of the whole member: of what was read so far, then of the rest, read now.
    // Returns false when the file cannot be read to the member's end.
    bool crc(std::uint32_t& out) {
        pos_ -= static_cast<std::uint64_t>(egptr() - gptr()); // the buffer is reused below
        setg(nullptr, nullptr, nullptr);
        while (summed_ < size_) {
            const auto n =
                static_cast<std::size_t>(std::min<std::uint64_t>(size_ - summed_, chunk));
            if (!read_at(summed_, buffer_.data(), n))
                return false;
        }
        out = crc_;
        return true;
    }

protected:
    int_type underflow() override {
        if (gptr() < egptr())
            return traits_type::to_int_type(*gptr());
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(size_ - pos_, chunk));
        if (n == 0 || !read_at(pos_, buffer_.data(), n))
            return traits_type::eof();
        setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
        pos_ += n;
        return traits_type::to_int_type(*gptr());
    }

    // What the buffer holds, then straight from the file: an array's data is not copied twice.
    std::streamsize xsgetn(char* s, std::streamsize count) override {
        std::streamsize done = std::min<std::streamsize>(count, egptr() - gptr());
        if (done > 0) {
            std::memcpy(s, gptr(), static_cast<std::size_t>(done));
            gbump(static_cast<int>(done));
        }
        const auto n =
            std::min<std::uint64_t>(static_cast<std::uint64_t>(count - done), size_ - pos_);
        if (n > 0 && read_at(pos_, s + done, static_cast<std::size_t>(n))) {
            pos_ += n;
            done += static_cast<std::streamsize>(n);
        }
        return done;
    }

    pos_type seekoff(off_type off, std::ios_base::seekdir dir, std::ios_base::openmode) override {
        const auto here = static_cast<off_type>(pos_) - (egptr() - gptr());
        const off_type base = dir == std::ios_base::beg   ? 0
                              : dir == std::ios_base::cur ? here
                                                          : static_cast<off_type>(size_);
        return seekpos(pos_type(base + off), std::ios_base::in);
    }

    pos_type seekpos(pos_type p, std::ios_base::openmode) override {
        const auto to = static_cast<off_type>(p);
        if (to < 0 || static_cast<std::uint64_t>(to) > size_)
            return pos_type(off_type(-1));
        setg(nullptr, nullptr, nullptr);
        pos_ = static_cast<std::uint64_t>(to);
        return p;
    }

private:
    static constexpr std::size_t chunk = 1 << 16;
    std::istream& file_;
    std::uint64_t begin_, size_;
    std::uint64_t pos_ = 0;    // the member offset just after the buffer's bytes
    std::uint64_t summed_ = 0; // the CRC covers bytes [0, summed_)
    std::uint32_t crc_ = 0;
    std::array<char, chunk> buffer_{};

    bool read_at(std::uint64_t at, char* out, std::size_t n) {
        file_.clear();
        file_.seekg(static_cast<std::streamoff>(begin_ + at));
        file_.read(out, static_cast<std::streamsize>(n));
        if (!file_ || static_cast<std::size_t>(file_.gcount()) != n)
            return false;
        if (at <= summed_ && at + n > summed_) {
            crc_ = crc32(out + (summed_ - at), static_cast<std::size_t>(at + n - summed_), crc_);
            summed_ = at + n;
        }
        return true;
    }
};

} // namespace detail::zip

// Declared ahead of the classes that befriend them (a friend declaration cannot be the first
// declaration of a function template that has a default argument: config.hpp, FUSOR_DECL).
class npz_entry;
class npz_archive;
FUSOR_DECL void save_npz(const std::string& path, const std::vector<npz_entry>& arrays);
FUSOR_DECL npz_archive load_npz(const std::string& path);

/// One array for `save_npz`: a name and a reference to a tensor, a view or any expression, of
/// any element type, so that one braced list holds arrays of different types:
/// `fusor::save_npz("model.npz", {{"w", w}, {"b", b}, {"mask", x > 0}})`. The array is evaluated
/// when `save_npz` writes it.
///
/// An entry refers to its array, it does not copy it: an entry made in the call's braced list is
/// safe (temporaries such as `x > 0` live until the call returns); an entry kept beyond the
/// statement that made it must refer to arrays that outlive it, as any expression must.
class npz_entry {
public:
    template <class E>
        requires(expression<E>)
    npz_entry(std::string name, const E& e)
        : name_(std::move(name)), array_(&e), write_(&write<E>), shape_(e.shape()),
          bytes_(static_cast<std::uint64_t>(e.size()) * sizeof(value_type_t<E>)),
          descr_(npy::descr<value_type_t<E>>()) {}

    /// The array's name in the archive, without the `.npy` the member's name adds.
    const std::string& name() const { return name_; }

private:
    FUSOR_FRIEND void save_npz(const std::string& path, const std::vector<npz_entry>& arrays);

    std::string name_;
    const void* array_;
    void (*write_)(const void*, const npz_entry&, detail::zip::writer&);
    shape_t shape_;
    std::uint64_t bytes_;
    std::string descr_;

    // The member's .npy header: dtype and shape, known without evaluating the array.
    FUSOR_LAZY std::string npy_header() const {
        return npy::format_header({descr_, false, shape_});
    }
    // The member's size: header and elements.
    FUSOR_LAZY std::uint64_t member_bytes() const { return npy_header().size() + bytes_; }
    // Evaluates the array and appends it to `zip` as the member `name() + ".npy"`.
    void write_to(detail::zip::writer& zip) const { write_(array_, *this, zip); }

    template <class E>
    static void write(const void* array, const npz_entry& self, detail::zip::writer& zip) {
        using T = value_type_t<E>;
        const E& e = *static_cast<const E*>(array);
        // A tensor is written from its own storage; anything else is evaluated first.
        const auto write_tensor = [&](const tensor<T>& t) {
            const std::string head = self.npy_header();
            if constexpr (std::endian::native == std::endian::little || sizeof(T) == 1) {
                zip.add(self.name_ + ".npy",
                        head,
                        reinterpret_cast<const char*>(t.data()),
                        static_cast<std::uint64_t>(t.size()) * sizeof(T));
            } else {
                tensor<T> le(t.shape(), uninitialized);
                for (index_t k = 0; k < t.size(); ++k)
                    le.data()[k] = npy::detail::byteswapped(t.data()[k]);
                zip.add(self.name_ + ".npy",
                        head,
                        reinterpret_cast<const char*>(le.data()),
                        static_cast<std::uint64_t>(le.size()) * sizeof(T));
            }
        };
        if constexpr (std::is_same_v<E, tensor<T>>)
            write_tensor(e);
        else
            write_tensor(tensor<T>(e));
    }
};

/// Writes arrays of any element types into one `.npz` archive, as `numpy.savez(path, x=t, y=u)`:
/// a zip archive of stored (uncompressed) members `x.npy`, `y.npy`, … in the order given, each
/// what `save_npy` writes; the bytes are those numpy.savez writes for the same arrays (see
/// docs/io.md). `numpy.load(path)["x"]` gives the array back. Unlike numpy.savez, `.npz` is not
/// appended to a path without it (as `save_npy` does not append `.npy`).
///
/// Throws `value_error` for two arrays of one name or a name longer than 65531 bytes, `io_error`
/// naming the path when the archive would need ZIP64 (4 GiB or more, or more than 65535 arrays:
/// save those arrays with `save_npy`) or cannot be written. All checks happen before the file is
/// created; the archive is written under a temporary name and renamed into place, so an error
/// never leaves a half-written `path`.
///
/// ```cpp
/// fusor::save_npz("model.npz", {{"w", w}, {"b", b}, {"steps", fusor::arange<int>(10)}});
/// ```
FUSOR_DEF void save_npz(const std::string& path, const std::vector<npz_entry>& arrays);

/// `save_npz(path, {{"x", t}, {"y", u}})`: the braced-list form of `save_npz`.
FUSOR_DECL void save_npz(const std::string& path, std::initializer_list<npz_entry> arrays);

/// An `.npz` archive opened by `load_npz`: its table of contents, read when it is opened, and
/// `get<T>(name)`, which reads one array from the file, as numpy.load's `NpzFile`. The file is
/// opened again by every `get` (the object holds no open file; copies are independent).
class npz_archive {
public:
    /// The archive's path, as given to `load_npz`.
    const std::string& path() const { return path_; }

    /// The arrays' names in archive order, `.npy` removed (members of other names kept whole),
    /// as `NpzFile.files`.
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const auto& m : members_)
            out.push_back(stem(m.name));
        return out;
    }

    /// Whether `get(name)` finds a member: `name`, or `name + ".npy"`.
    bool contains(std::string_view name) const { return find(name) != nullptr; }

    /// Reads the array `name` (or the member `name`, `"x"` and `"x.npy"` alike) as a `tensor<T>`
    /// of its shape; as `numpy.load(path)[name]`. Its dtype must be `T`'s, as for `load_npy`.
    /// Throws `io_error` naming the archive and the member: no such array (the message lists the
    /// names there are), another dtype (`model.npz[w.npy]: holds <f8 data, not <f4 (float32)`),
    /// a CRC-32 that does not match the data, a member compressed with deflate (as
    /// numpy.savez_compressed writes: not read yet, re-save it with numpy.savez), an encrypted
    /// member, a truncated file, or any reason `load_npy` gives.
    template <class T>
        requires(element_type<T>)
    tensor<T> get(std::string_view name)
    const {
        namespace zip = detail::zip;
        const zip::member* m = find(name);
        if (!m) {
            std::string there;
            for (const std::string& n : names())
                there += (there.empty() ? "'" : ", '") + n + "'";
            zip::fail(path_,
                      "no array named '" + std::string(name) + "'; the archive holds "
                          + (there.empty() ? "nothing" : there));
        }
        const std::string where = path_ + "[" + m->name + "]";
        if (m->flags & 1)
            zip::fail(where, "the member is encrypted, which fusor does not read");
        if (m->method == 8)
            zip::fail(
                where,
                "the member is compressed (deflate, as numpy.savez_compressed writes), "
                "which fusor does not read yet; re-save the archive uncompressed: "
                "python3 -c \"import numpy as np; np.savez('out.npz', **np.load('in.npz'))\"");
        if (m->method != 0)
            zip::fail(where,
                      "the member is compressed with method " + std::to_string(m->method)
                          + ", which fusor does not read (only stored members)");
        if (m->compressed != m->size)
            zip::fail(where, "corrupt archive: a stored member of two different sizes");

        std::ifstream in(path_, std::ios::binary);
        if (!in)
            zip::fail(path_, "cannot open the file for reading");
        char h[zip::local_size];
        in.seekg(static_cast<std::streamoff>(shift_ + m->offset));
        if (!in.read(h, sizeof h) || zip::get(h, 4) != zip::local_signature)
            zip::fail(where,
                      "corrupt archive: no local file header at offset "
                          + std::to_string(shift_ + m->offset));
        const std::uint64_t data =
            shift_ + m->offset + zip::local_size + zip::get(h + 26, 2) + zip::get(h + 28, 2);
        in.seekg(0, std::ios::end);
        const auto file_size = static_cast<std::uint64_t>(in.tellg());
        if (data > file_size || m->size > file_size - data)
            zip::fail(where,
                      "truncated archive: the member needs bytes up to offset "
                          + std::to_string(data + m->size) + ", the file has "
                          + std::to_string(file_size));

        zip::member_buf buf(in, data, m->size);
        std::istream member(&buf);
        const auto check_crc = [&] {
            std::uint32_t crc = 0;
            if (!buf.crc(crc))
                zip::fail(where, "read error");
            if (crc != m->crc)
                zip::fail(where,
                          "CRC-32 mismatch: the archive records " + hex(m->crc)
                              + ", the member's bytes give " + hex(crc) + " (a corrupt archive)");
        };
        tensor<T> t;
        try {
            t = load_npy<T>(member, where);
        } catch (const io_error&) {
            check_crc(); // a damaged member is reported as such, not as what the damage looks like
            throw;
        }
        check_crc();
        return t;
    }

private:
    FUSOR_FRIEND npz_archive load_npz(const std::string& path);

    std::string path_;
    std::vector<detail::zip::member> members_;
    std::uint64_t shift_ = 0; // bytes before the archive (a self-extracting stub, say)

    static std::string stem(const std::string& member) {
        return member.size() >= 4 && member.ends_with(".npy") ? member.substr(0, member.size() - 4)
                                                              : member;
    }
    // As NpzFile.__getitem__: the member's full name first, then with ".npy" added; of members
    // with one name the last, as Python's zipfile.
    const detail::zip::member* find(std::string_view name) const {
        for (const std::string& full : {std::string(name), std::string(name) + ".npy"})
            for (auto m = members_.rbegin(); m != members_.rend(); ++m)
                if (m->name == full)
                    return &*m;
        return nullptr;
    }
    static std::string hex(std::uint32_t v) {
        const char* digits = "0123456789abcdef";
        std::string s = "0x";
        for (int b = 28; b >= 0; b -= 4)
            s += digits[(v >> b) & 0xf];
        return s;
    }
};

/// Opens an `.npz` archive (what `numpy.savez` and `save_npz` write) and reads its table of
/// contents; `get<T>(name)` then reads one array, as `numpy.load(path)` does for an `.npz` file.
/// Throws `io_error` naming the path: the file cannot be opened, is not a zip archive or is
/// truncated (no end-of-central-directory record), needs ZIP64 (4 GiB or more, more than 65535
/// members: not read), spans several disks, or has a corrupt central directory. Compressed
/// members (numpy.savez_compressed) are listed; `get` refuses them.
///
/// ```cpp
/// auto npz = fusor::load_npz("model.npz");
/// auto w = npz.get<float>("w");                   // io_error if w is not float32
/// for (const auto& name : npz.names()) std::cout << name << '\n';
/// ```
FUSOR_DEF npz_archive load_npz(const std::string& path);

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/io/npz.ipp>
#endif
