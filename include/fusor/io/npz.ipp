// fusor/io/npz.ipp: the definitions of npz.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/io/npz.hpp>

namespace fusor {
namespace detail::zip {

FUSOR_DEF std::uint32_t crc32(const void* data, std::size_t n, std::uint32_t previous) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::uint32_t c = ~previous;
    for (std::size_t k = 0; k < n; ++k)
        c = crc_table[(c ^ p[k]) & 0xff] ^ (c >> 8);
    return ~c;
}

FUSOR_DEF void put(std::string& out, std::uint64_t v, int bytes) {
    for (int b = 0; b < bytes; ++b)
        out += static_cast<char>((v >> (8 * b)) & 0xff);
}

FUSOR_DEF std::uint32_t get(const char* p, int bytes) {
    std::uint32_t v = 0;
    for (int b = 0; b < bytes; ++b)
        v |= std::uint32_t{static_cast<unsigned char>(p[b])} << (8 * b);
    return v;
}

} // namespace detail::zip
} // namespace fusor

namespace fusor {

FUSOR_DEF void save_npz(const std::string& path, const std::vector<npz_entry>& arrays) {
    namespace zip = detail::zip;
    std::vector<std::string_view> names;
    for (const npz_entry& a : arrays)
        names.push_back(a.name());
    std::sort(names.begin(), names.end());
    if (const auto twice = std::adjacent_find(names.begin(), names.end()); twice != names.end())
        throw value_error("save_npz: " + path + ": two arrays are named '" + std::string(*twice)
                          + "'");
    std::uint64_t end = 0, central = 0; // the offsets of the central directory and of its end
    bool too_big = arrays.size() > 0xffff;
    for (const npz_entry& a : arrays) {
        const std::size_t name = a.name().size() + 4; // "x.npy"
        if (name > 0xffff)
            throw value_error("save_npz: " + path + ": an array name longer than 65531 bytes");
        too_big = too_big || a.member_bytes() >= zip::max32 || end >= zip::max32;
        end += zip::writer::local_bytes(name, a.member_bytes());
        central += zip::writer::central_bytes(name);
    }
    if (too_big || end >= zip::max32 || central >= zip::max32)
        zip::fail(path,
                  "the archive would need ZIP64 (4 GiB or more, or more than 65535 arrays), "
                  "which fusor does not write; save the arrays with save_npy");
    detail::write_atomically(path, [&](std::ostream& out) {
        zip::writer w(out);
        for (const npz_entry& a : arrays)
            a.write_to(w);
        w.finish();
    });
}

FUSOR_DEF void save_npz(const std::string& path, std::initializer_list<npz_entry> arrays) {
    save_npz(path, std::vector<npz_entry>(arrays));
}

FUSOR_DEF npz_archive load_npz(const std::string& path) {
    namespace zip = detail::zip;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        zip::fail(path, "cannot open the file for reading");
    in.seekg(0, std::ios::end);
    const auto file_size = static_cast<std::uint64_t>(in.tellg());

    // The end record is the last 22 bytes, or fewer than 65535 + 22 from the end when the
    // archive has a comment: the last signature whose record fits.
    const std::uint64_t tail_size = std::min<std::uint64_t>(file_size, zip::end_size + 0xffff);
    std::string tail(tail_size, '\0');
    in.seekg(static_cast<std::streamoff>(file_size - tail_size));
    in.read(tail.data(), static_cast<std::streamsize>(tail_size));
    std::size_t e = std::string::npos;
    for (std::size_t i = tail_size >= zip::end_size ? tail_size - zip::end_size + 1 : 0; i-- > 0;)
        if (zip::get(&tail[i], 4) == zip::end_signature
            && i + zip::end_size + zip::get(&tail[i + 20], 2) <= tail_size) {
            e = i;
            break;
        }
    if (!in || e == std::string::npos)
        zip::fail(path,
                  "not an .npz archive: no zip end-of-central-directory record (the file is "
                  "truncated, or not a zip archive)");
    const char* r = &tail[e];
    const std::uint32_t disk = zip::get(r + 4, 2), cd_disk = zip::get(r + 6, 2),
                        here = zip::get(r + 8, 2), count = zip::get(r + 10, 2),
                        cd_size = zip::get(r + 12, 4), cd_offset = zip::get(r + 16, 4);
    // ZIP64: a locator before the end record, or its 32-bit fields saying "see the ZIP64 record"
    // (0xffff members alone is not: zipfile writes up to 65535 without ZIP64).
    if ((e >= 20 && zip::get(&tail[e - 20], 4) == zip::zip64_locator_signature)
        || cd_size == zip::max32 || cd_offset == zip::max32)
        zip::fail(path,
                  "a ZIP64 archive (4 GiB or more, or more than 65535 members), which fusor "
                  "does not read");
    if (disk != 0 || cd_disk != 0 || here != count)
        zip::fail(path, "an archive split across several disks, which fusor does not read");
    const std::uint64_t end_at = file_size - tail_size + e;
    if (std::uint64_t{cd_offset} + cd_size > end_at)
        zip::fail(path,
                  "corrupt archive: the central directory (offset " + std::to_string(cd_offset)
                      + ", " + std::to_string(cd_size) + " bytes) does not end before the end "
                      + "record at offset " + std::to_string(end_at));

    npz_archive a;
    a.path_ = path;
    a.shift_ = end_at - cd_size - cd_offset; // Python's zipfile calls it "concat"
    std::string cd(cd_size, '\0');
    in.seekg(static_cast<std::streamoff>(a.shift_ + cd_offset));
    if (!in.read(cd.data(), static_cast<std::streamsize>(cd_size)))
        zip::fail(path, "read error");
    std::size_t at = 0;
    for (std::uint32_t k = 0; k < count; ++k) {
        const auto bad = [&](const std::string& why) {
            zip::fail(path,
                      "corrupt central directory: entry " + std::to_string(k + 1) + " of "
                          + std::to_string(count) + " " + why);
        };
        if (cd_size - at < zip::central_size || zip::get(&cd[at], 4) != zip::central_signature)
            bad("is missing");
        const char* c = &cd[at];
        const std::size_t name_len = zip::get(c + 28, 2),
                          rest = name_len + zip::get(c + 30, 2) + zip::get(c + 32, 2);
        if (cd_size - at - zip::central_size < rest)
            bad("runs past the directory's end");
        zip::member m;
        m.flags = static_cast<std::uint16_t>(zip::get(c + 8, 2));
        m.method = static_cast<std::uint16_t>(zip::get(c + 10, 2));
        m.crc = zip::get(c + 16, 4);
        m.compressed = zip::get(c + 20, 4);
        m.size = zip::get(c + 24, 4);
        m.offset = zip::get(c + 42, 4);
        m.name.assign(c + zip::central_size, name_len);
        if (m.compressed == zip::max32 || m.size == zip::max32 || m.offset == zip::max32)
            zip::fail(path + "[" + m.name + "]",
                      "a ZIP64 member (4 GiB or more, or past 4 GiB), which fusor does not read");
        a.members_.push_back(std::move(m));
        at += zip::central_size + rest;
    }
    return a;
}

} // namespace fusor
