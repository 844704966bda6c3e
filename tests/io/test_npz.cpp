// .npz archives with NumPy in both directions, and every way an archive can be bad.
// tests/io/npz_reference.py writes NumPy's archives before this test (ctest fixture), with each
// array also alone as a .npy file to compare with; after this test it reads the archives this
// test wrote into from_fusor/ (values, CRCs, and numpy.savez's exact bytes).
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include <fusor/fusor.hpp>

#include "element_types.hpp"

using fusor::index_t;
using fusor::shape_t;
using io_test::for_each_type;
using io_test::same_bits;

namespace {
namespace fs = std::filesystem;

const fs::path reference_dir = fs::path(FUSOR_BINARY_DIR) / "tests" / "npz";

// npy_reference.py's SHAPES, named as there.
const std::vector<std::string> shapes = {"scalar", "0", "2x0x3", "5", "3x4", "2x3x4"};

template <class T>
std::string array_name(const std::string& shape) {
    return std::string(fusor::dtype_name<T>()) + "_" + shape;
}

template <class T>
fusor::tensor<T> reference(const std::string& name) {
    return fusor::load_npy<T>((reference_dir / (name + ".npy")).string());
}

template <class T>
void check_equal(const fusor::tensor<T>& got,
                 const fusor::tensor<T>& want,
                 const std::string& what) {
    INFO(what);
    REQUIRE(got.shape() == want.shape());
    index_t bad = 0;
    for (index_t k = 0; k < got.size(); ++k)
        bad += !same_bits(got.data()[k], want.data()[k]);
    CHECK(bad == 0);
}

std::string read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void write_bytes(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
}

std::uint32_t get32(const std::string& s, std::size_t at) {
    std::uint32_t v = 0;
    for (int b = 0; b < 4; ++b)
        v |= std::uint32_t{static_cast<unsigned char>(s[at + b])} << (8 * b);
    return v;
}

void put32(std::string& s, std::size_t at, std::uint32_t v) {
    for (int b = 0; b < 4; ++b)
        s[at + b] = static_cast<char>((v >> (8 * b)) & 0xff);
}
} // namespace

TEST_CASE("CRC-32 as the zip format computes it") {
    using fusor::detail::zip::crc32;
    CHECK(crc32("123456789", 9) == 0xCBF43926u); // the standard check value
    CHECK(crc32("", 0) == 0u);
    CHECK(crc32("6789", 4, crc32("12345", 5)) == 0xCBF43926u); // continued
}

TEST_CASE("load_npz reads what numpy.savez writes: every dtype and shape in one archive") {
    REQUIRE_MESSAGE(fs::exists(reference_dir / "all_types.npz"),
                    "run the ctest fixture io.npz_numpy_writes first (ctest -R io)");
    const fusor::npz_archive npz = fusor::load_npz((reference_dir / "all_types.npz").string());
    std::vector<std::string> names;
    for_each_type([&](auto v) {
        using T = decltype(v);
        for (const std::string& shape : shapes) {
            const std::string name = array_name<T>(shape);
            names.push_back(name);
            CHECK(npz.contains(name));
            CHECK(npz.contains(name + ".npy"));
            check_equal(npz.get<T>(name), reference<T>(name), name);
        }
    });
    CHECK(npz.names() == names); // archive order
    CHECK_FALSE(npz.contains("float64"));
    CHECK(npz.path() == (reference_dir / "all_types.npz").string());
    // "x" and "x.npy" name the same member, as in NumPy.
    check_equal(npz.get<float>("float32_3x4.npy"), reference<float>("float32_3x4"), "x.npy");
}

TEST_CASE("load_npz reads Fortran order, UTF-8 names, data descriptors, comments, empty") {
    const auto fortran = fusor::load_npz((reference_dir / "fortran.npz").string());
    check_equal(fortran.get<double>("float64_3x4"), reference<double>("float64_3x4"), "F order");
    check_equal(
        fortran.get<std::int16_t>("int16_2x3x4"), reference<std::int16_t>("int16_2x3x4"), "F");
    const auto unicode = fusor::load_npz((reference_dir / "unicode.npz").string());
    CHECK(unicode.names() == std::vector<std::string>{"π"});
    check_equal(unicode.get<float>("π"), reference<float>("float32_5"), "π");
    // Written to a stream that cannot seek: local headers carry no sizes; the central directory
    // does, and it is what load_npz reads.
    const auto streamed = fusor::load_npz((reference_dir / "streamed.npz").string());
    CHECK(streamed.names() == std::vector<std::string>{"uint16_3x4", "bool_5"});
    check_equal(
        streamed.get<std::uint16_t>("uint16_3x4"), reference<std::uint16_t>("uint16_3x4"), "");
    check_equal(streamed.get<bool>("bool_5"), reference<bool>("bool_5"), "streamed bool");
    // An archive comment, and a shell script before the archive.
    const auto commented = fusor::load_npz((reference_dir / "commented.npz").string());
    check_equal(commented.get<std::int32_t>("int32_3x4"), reference<std::int32_t>("int32_3x4"), "");
    CHECK(fusor::load_npz((reference_dir / "empty.npz").string()).names().empty());
    // A member that is not a .npy file is listed with its full name, and get says what it is.
    const std::string text = (reference_dir / "text_member.npz").string();
    const auto mixed = fusor::load_npz(text);
    CHECK(mixed.names() == std::vector<std::string>{"float64_5", "readme.txt"});
    check_equal(mixed.get<double>("float64_5"), reference<double>("float64_5"), "");
    CHECK_THROWS_WITH_AS(
        mixed.get<double>("readme.txt"),
        (text + "[readme.txt]: not a .npy file: wrong magic string (expected \\x93NUMPY)").c_str(),
        fusor::io_error);
}

TEST_CASE("save_npz writes numpy.savez's bytes (checked again by npz_reference.py check)") {
    const fs::path out = reference_dir / "from_fusor";
    fs::create_directories(out);
    // One archive of every dtype: entries in a vector, referring to tensors kept alive beside it.
    std::vector<std::shared_ptr<const void>> keep;
    std::vector<fusor::npz_entry> entries;
    for_each_type([&](auto v) {
        using T = decltype(v);
        for (const std::string& shape : shapes) {
            const std::string name = array_name<T>(shape);
            auto t = std::make_shared<const fusor::tensor<T>>(reference<T>(name));
            entries.emplace_back(name, *t);
            keep.push_back(std::move(t));
        }
    });
    const fs::path all = out / "all_types.npz";
    fusor::save_npz(all.string(), entries);
    CHECK(read_bytes(all) == read_bytes(reference_dir / "all_types.npz"));
    CHECK_FALSE(fs::exists(all.string() + ".tmp~"));
    // Views and expressions of several types in one braced list, evaluated when written.
    const fusor::tensor<double> x = reference<double>("float64_2x3x4");
    const fusor::tensor<double> y = reference<double>("float64_3x4");
    const fusor::tensor<std::int32_t> i = reference<std::int32_t>("int32_3x4");
    const fs::path mixed = out / "mixed.npz";
    fusor::save_npz(mixed.string(),
                    {{"float64_2x3x4", fusor::transpose(fusor::transpose(x))},
                     {"int32_3x4", i + 0},
                     {"float64_3x4", fusor::transpose(fusor::tensor<double>(fusor::transpose(y)))},
                     {"bool_scalar", fusor::tensor<bool>(fusor::full(shape_t{}, true))}});
    const auto back = fusor::load_npz(mixed.string());
    CHECK(back.names()
          == std::vector<std::string>{"float64_2x3x4", "int32_3x4", "float64_3x4", "bool_scalar"});
    check_equal(back.get<double>("float64_2x3x4"), x, "transposed twice");
    check_equal(back.get<std::int32_t>("int32_3x4"), i, "i + 0");
    check_equal(back.get<double>("float64_3x4"), y, "a strided view");
    CHECK(back.get<bool>("bool_scalar").item() == true);
    // numpy.savez with no arrays.
    const fs::path empty = out / "empty.npz";
    fusor::save_npz(empty.string(), {});
    CHECK(read_bytes(empty) == read_bytes(reference_dir / "empty.npz"));
    // A non-ASCII name sets the UTF-8 flag, as zipfile does.
    const fs::path unicode = out / "unicode.npz";
    const fusor::tensor<float> pi = reference<float>("float32_5");
    fusor::save_npz(unicode.string(), {{"π", pi}});
    CHECK(read_bytes(unicode) == read_bytes(reference_dir / "unicode.npz"));
    fs::remove(unicode); // its name is not <dtype>_<shape>, which the check step expects
}

TEST_CASE("bad archives throw io_error naming the archive and the member") {
    const fs::path dir = reference_dir / "bad";
    fs::create_directories(dir);
    const std::string d = (dir / "").string();
    // A one-member archive whose layout is known: local header (30 bytes), "x.npy" (5), the
    // ZIP64 extra field (20), then the .npy file (a 128-byte header and 12 doubles).
    const fusor::tensor<double> x = reference<double>("float64_3x4");
    fusor::save_npz(d + "good.npz", {{"x", x}});
    const std::string good = read_bytes(d + "good.npz");
    const std::size_t npy_at = 55, data_at = npy_at + 128, central_at = data_at + 96;
    REQUIRE(good.size() == central_at + 46 + 5 + 22);
    REQUIRE(get32(good, central_at) == 0x02014b50u);
    auto archive = [&](const std::string& name, const std::string& bytes) {
        write_bytes(d + name, bytes);
        return fusor::load_npz(d + name);
    };

    CHECK_THROWS_WITH_AS(fusor::load_npz(d + "missing.npz"),
                         (d + "missing.npz: cannot open the file for reading").c_str(),
                         fusor::io_error);
    const std::string not_zip =
        ": not an .npz archive: no zip end-of-central-directory record (the file is truncated, "
        "or not a zip archive)";
    CHECK_THROWS_WITH_AS(archive("truncated.npz", good.substr(0, good.size() / 2)),
                         (d + "truncated.npz" + not_zip).c_str(),
                         fusor::io_error);
    CHECK_THROWS_WITH_AS(archive("npy.npz", read_bytes(reference_dir / "float64_3x4.npy")),
                         (d + "npy.npz" + not_zip).c_str(),
                         fusor::io_error);
    CHECK_THROWS_WITH_AS(
        archive("nothing.npz", ""), (d + "nothing.npz" + not_zip).c_str(), fusor::io_error);

    // Members: missing, another dtype, compressed.
    const auto ok = fusor::load_npz(d + "good.npz");
    CHECK_THROWS_WITH_AS(ok.get<double>("y"),
                         (d + "good.npz: no array named 'y'; the archive holds 'x'").c_str(),
                         fusor::io_error);
    CHECK_THROWS_WITH_AS(ok.get<float>("x"),
                         (d + "good.npz[x.npy]: holds <f8 data, not <f4 (float32)").c_str(),
                         fusor::io_error);
    const std::string compressed = (reference_dir / "compressed.npz").string();
    const auto deflated = fusor::load_npz(compressed);
    CHECK(deflated.names() == std::vector<std::string>{"float64_3x4", "int8_5"});
    CHECK_THROWS_WITH_AS(
        deflated.get<double>("float64_3x4"),
        (compressed
         + "[float64_3x4.npy]: the member is compressed (deflate, as numpy.savez_compressed "
           "writes), which fusor does not read yet; re-save the archive uncompressed: python3 -c "
           "\"import numpy as np; np.savez('out.npz', **np.load('in.npz'))\"")
            .c_str(),
        fusor::io_error);

    // A flipped bit in the data: the CRC catches it. In the header: the CRC is reported rather
    // than what the damage looks like (here a dtype '<f9').
    std::string bytes = good;
    bytes[data_at + 10] ^= 0x10;
    const auto flipped = archive("crc.npz", bytes);
    CHECK(flipped.names() == std::vector<std::string>{"x"}); // the directory is intact
    const std::string crc_message = d + "crc.npz[x.npy]: CRC-32 mismatch: the archive records 0x";
    CHECK_THROWS_AS(flipped.get<double>("x"), fusor::io_error);
    try {
        (void)flipped.get<double>("x");
    } catch (const fusor::io_error& e) {
        CHECK(std::string(e.what()).starts_with(crc_message));
        CHECK(std::string(e.what()).ends_with(" (a corrupt archive)"));
    }
    bytes = good;
    const std::size_t f8 = bytes.find("<f8");
    REQUIRE(f8 > npy_at);
    REQUIRE(f8 < data_at);
    bytes[f8 + 2] = '9';
    const auto header = archive("crc_header.npz", bytes);
    try {
        (void)header.get<double>("x");
        FAIL("no exception");
    } catch (const fusor::io_error& e) {
        CHECK(std::string(e.what()).starts_with(d + "crc_header.npz[x.npy]: CRC-32 mismatch"));
    }

    // A member that runs past the end of the file.
    bytes = good;
    put32(bytes, central_at + 20, 100000); // its compressed size
    put32(bytes, central_at + 24, 100000); // and size
    CHECK_THROWS_WITH_AS(archive("short.npz", bytes).get<double>("x"),
                         (d
                          + "short.npz[x.npy]: truncated archive: the member needs bytes up to "
                            "offset 100055, the file has 352")
                             .c_str(),
                         fusor::io_error);

    // ZIP64, encryption, a damaged directory.
    const std::string zip64 = ": a ZIP64 archive (4 GiB or more, or more than 65535 members), "
                              "which fusor does not read";
    bytes = good;
    put32(bytes, bytes.size() - 6, 0xffffffffu); // the central directory's offset
    CHECK_THROWS_WITH_AS(
        archive("zip64.npz", bytes), (d + "zip64.npz" + zip64).c_str(), fusor::io_error);
    // A ZIP64 end of central directory locator before the end record.
    std::string locator("PK\x06\x07", 4);
    locator.append(16, '\0');
    bytes = good.substr(0, good.size() - 22) + locator + good.substr(good.size() - 22);
    CHECK_THROWS_WITH_AS(archive("zip64_locator.npz", bytes),
                         (d + "zip64_locator.npz" + zip64).c_str(),
                         fusor::io_error);
    bytes = good;
    put32(bytes, central_at + 42, 0xffffffffu); // the member's offset
    CHECK_THROWS_WITH_AS(archive("zip64_member.npz", bytes),
                         (d
                          + "zip64_member.npz[x.npy]: a ZIP64 member (4 GiB or more, or past "
                            "4 GiB), which fusor does not read")
                             .c_str(),
                         fusor::io_error);
    bytes = good;
    bytes[central_at + 8] |= 1; // encrypted
    CHECK_THROWS_WITH_AS(archive("encrypted.npz", bytes).get<double>("x"),
                         (d
                          + "encrypted.npz[x.npy]: the member is encrypted, which fusor does "
                            "not read")
                             .c_str(),
                         fusor::io_error);
    bytes = good;
    bytes[central_at] = 'Q';
    CHECK_THROWS_WITH_AS(
        archive("directory.npz", bytes),
        (d + "directory.npz: corrupt central directory: entry 1 of 1 is missing").c_str(),
        fusor::io_error);
    bytes = good;
    bytes[0] = 'Q'; // the local header's signature
    CHECK_THROWS_WITH_AS(
        archive("local.npz", bytes).get<double>("x"),
        (d + "local.npz[x.npy]: corrupt archive: no local file header at offset 0").c_str(),
        fusor::io_error);
}

TEST_CASE("save_npz: bad arguments and failed saves leave nothing behind") {
    const fs::path dir = reference_dir / "save_fail";
    fs::create_directories(dir);
    const fusor::tensor<double> t = {1.0, 2.0};
    const fusor::tensor<std::int8_t> u = {1, 2, 3};
    const fs::path p = dir / "twice.npz";
    CHECK_THROWS_WITH_AS(fusor::save_npz(p.string(), {{"a", t}, {"b", u}, {"a", u}}),
                         ("save_npz: " + p.string() + ": two arrays are named 'a'").c_str(),
                         fusor::value_error);
    CHECK_FALSE(fs::exists(p));
    CHECK_FALSE(fs::exists(p.string() + ".tmp~"));
    // More than 65535 arrays would need ZIP64: refused before the file is created.
    std::vector<fusor::npz_entry> many;
    for (int k = 0; k <= 0xffff; ++k)
        many.emplace_back("a" + std::to_string(k), t);
    const fs::path big = dir / "many.npz";
    CHECK_THROWS_WITH_AS(fusor::save_npz(big.string(), many),
                         (big.string()
                          + ": the archive would need ZIP64 (4 GiB or more, or more than 65535 "
                            "arrays), which fusor does not write; save the arrays with save_npy")
                             .c_str(),
                         fusor::io_error);
    CHECK_FALSE(fs::exists(big));
    many.pop_back(); // 65535 is fine
    fusor::save_npz(big.string(), many);
    CHECK(fusor::load_npz(big.string()).names().size() == 0xffff);
    fs::remove(big);
    // The target is an existing directory: the rename fails, the directory stays.
    const fs::path target = dir / "is_a_directory";
    fs::create_directories(target);
    CHECK_THROWS_AS(fusor::save_npz(target.string(), {{"t", t}}), fusor::io_error);
    CHECK(fs::is_directory(target));
    CHECK_FALSE(fs::exists(target.string() + ".tmp~"));
    // A successful save replaces an archive whole.
    const fs::path r = dir / "replace.npz";
    fusor::save_npz(r.string(), {{"t", t}, {"u", u}});
    fusor::save_npz(r.string(), {{"u", u}});
    CHECK(fusor::load_npz(r.string()).names() == std::vector<std::string>{"u"});
}
