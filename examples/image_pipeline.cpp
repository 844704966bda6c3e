// An 8-bit RGB image as an (H, W, 3) uint8 tensor, through three fused steps:
//
//   gray    = sum(rgb * (0.299, 0.587, 0.114), axis 2)        ITU-R BT.601 luma, (H, W)
//   norm    = (gray - min(gray)) / (max(gray) - min(gray))    contrast stretch to [0, 1]
//   blurred = the mean of the 9 shifted (H-2, W-2) slices       3x3 box blur, valid region
//
// The weights broadcast along the last axis (stride 0 over H and W); the blur is nine views
// of one tensor added in one loop, with no padded copy and no per-shift temporary. Every
// result is checked against a hand-written loop; each step's explain() is printed.
//
// Usage: image_pipeline [in.ppm [out.pgm]]
//   in.ppm   a binary PPM (P6, maxval 255); without it, a generated 96x128 test card
//   out.pgm  where to write the blurred image as a binary PGM (P5)
// Exit code 0 when every check passes, 1 when one fails, 2 for an unreadable input file.
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include <fusor/fusor.hpp>

namespace {

using fusor::index_t;

// A binary PPM (P6): "P6", width, height, maxval separated by whitespace or # comments, one
// whitespace byte, then height * width * 3 bytes. Throws std::runtime_error naming the file.
fusor::tensor<std::uint8_t> read_ppm(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error(path + ": cannot open");
    auto fail = [&](const std::string& why) {
        return std::runtime_error(path + ": " + why);
    };
    auto next_token = [&]() {
        std::string tok;
        char c;
        while (in.get(c)) {
            if (c == '#') {
                std::string comment;
                std::getline(in, comment);
            } else if (std::isspace(static_cast<unsigned char>(c))) {
                if (!tok.empty())
                    return tok;
            } else {
                tok += c;
            }
        }
        return tok;
    };
    if (next_token() != "P6")
        throw fail("not a binary PPM (the file must start with P6)");
    long w = 0, h = 0, maxval = 0;
    try {
        w = std::stol(next_token());
        h = std::stol(next_token());
        maxval = std::stol(next_token());
    } catch (const std::exception&) {
        throw fail("malformed header (width, height and maxval must be numbers)");
    }
    if (w < 3 || h < 3 || w > 1 << 15 || h > 1 << 15)
        throw fail("unsupported size " + std::to_string(w) + "x" + std::to_string(h)
                   + " (3 to 32768 pixels each way)");
    if (maxval != 255)
        throw fail("maxval " + std::to_string(maxval) + " (only 8-bit images, maxval 255)");
    fusor::tensor<std::uint8_t> rgb(fusor::shape_t{h, w, 3}, fusor::uninitialized);
    in.read(reinterpret_cast<char*>(rgb.data()), static_cast<std::streamsize>(rgb.size()));
    if (in.gcount() != static_cast<std::streamsize>(rgb.size()))
        throw fail("truncated: expected " + std::to_string(rgb.size()) + " bytes of pixels, found "
                   + std::to_string(in.gcount()));
    return rgb;
}

// A test card: colour bars on top, a diagonal gradient below, a white frame.
fusor::tensor<std::uint8_t> test_card(index_t h, index_t w) {
    static const std::uint8_t bars[8][3] = {{255, 255, 255},
                                            {255, 255, 0},
                                            {0, 255, 255},
                                            {0, 255, 0},
                                            {255, 0, 255},
                                            {255, 0, 0},
                                            {0, 0, 255},
                                            {0, 0, 0}};
    fusor::tensor<std::uint8_t> rgb(fusor::shape_t{h, w, 3}, fusor::uninitialized);
    for (index_t i = 0; i < h; ++i)
        for (index_t j = 0; j < w; ++j)
            for (index_t c = 0; c < 3; ++c) {
                std::uint8_t v;
                if (i == 0 || j == 0 || i == h - 1 || j == w - 1)
                    v = 255;
                else if (i < h / 2)
                    v = bars[j * 8 / w][c];
                else
                    v = static_cast<std::uint8_t>((i * 3 + j * 2 + c * 40) % 256);
                rgb(i, j, c) = v;
            }
    return rgb;
}

void write_pgm(const std::string& path, const fusor::tensor<float>& img) {
    std::ofstream out(path, std::ios::binary);
    out << "P5\n" << img.shape()[1] << ' ' << img.shape()[0] << "\n255\n";
    for (const float v : img)
        out.put(static_cast<char>(static_cast<std::uint8_t>(std::lround(v * 255.0f))));
    if (!out)
        throw std::runtime_error(path + ": cannot write");
}

} // namespace

int main(int argc, char** argv) {
    fusor::tensor<std::uint8_t> rgb;
    try {
        rgb = argc > 1 ? read_ppm(argv[1]) : test_card(96, 128);
    } catch (const std::exception& e) {
        std::cerr << "image_pipeline: " << e.what() << '\n';
        return 2;
    }
    const index_t h = rgb.shape()[0], w = rgb.shape()[1];
    std::printf("input: %s, (%td, %td, 3) uint8\n", argc > 1 ? argv[1] : "test card", h, w);

    // 1. Grayscale: the (3,) weights broadcast over (H, W, 3); the sum over axis 2 fuses the
    //    cast, the multiply and the reduction into one loop with no (H, W, 3) float temporary.
    const fusor::tensor<float> luma = {0.299f, 0.587f, 0.114f};
    auto gray_expr = fusor::sum(fusor::cast<float>(rgb) * luma, 2);
    std::cout << "== explain(gray)\n" << fusor::explain(gray_expr) << '\n';
    const fusor::tensor<float> gray = gray_expr;

    // 2. Normalise to [0, 1]: min and max are two small boundaries, computed once each.
    auto lo = fusor::min(gray);
    auto hi = fusor::max(gray);
    auto norm_expr = (gray - lo) / (hi - lo);
    std::cout << "== explain(norm)\n" << fusor::explain(norm_expr) << '\n';
    const fusor::tensor<float> norm = norm_expr;

    // 3. 3x3 box blur over the valid region: nine shifted views of `norm`, one loop.
    using fusor::slice;
    auto at = [&](index_t di, index_t dj) {
        return fusor::view(norm, slice(di, h - 2 + di), slice(dj, w - 2 + dj));
    };
    auto blur_expr = (at(0, 0) + at(0, 1) + at(0, 2) + at(1, 0) + at(1, 1) + at(1, 2) + at(2, 0)
                      + at(2, 1) + at(2, 2))
                     / 9.0f;
    std::cout << "== explain(blurred)\n" << fusor::explain(blur_expr) << '\n';
    const fusor::tensor<float> blurred = blur_expr;

    // The same three steps as hand-written loops.
    double gray_err = 0, norm_err = 0, blur_err = 0;
    float gmin = INFINITY, gmax = -INFINITY;
    fusor::tensor<float> g(fusor::shape_t{h, w}, fusor::uninitialized);
    for (index_t i = 0; i < h; ++i)
        for (index_t j = 0; j < w; ++j) {
            float s = 0;
            for (index_t c = 0; c < 3; ++c)
                s += static_cast<float>(rgb(i, j, c)) * luma(c);
            g(i, j) = s;
            gmin = std::fmin(gmin, s);
            gmax = std::fmax(gmax, s);
            gray_err = std::fmax(gray_err, std::fabs(s - gray(i, j)));
        }
    for (index_t i = 0; i < h; ++i)
        for (index_t j = 0; j < w; ++j)
            norm_err =
                std::fmax(norm_err, std::fabs((g(i, j) - gmin) / (gmax - gmin) - norm(i, j)));
    for (index_t i = 0; i + 2 < h; ++i)
        for (index_t j = 0; j + 2 < w; ++j) {
            float s = 0;
            for (index_t di = 0; di < 3; ++di)
                for (index_t dj = 0; dj < 3; ++dj)
                    s += norm(i + di, j + dj);
            blur_err = std::fmax(blur_err, std::fabs(s / 9.0f - blurred(i, j)));
        }
    // Tolerances: the luma sum is accumulated in a different order (fusor sums float32 terms
    // pairwise in double): a few ulp of 255; the stretch and the blur differ only by the sum
    // order of nine terms in [0, 1]: a few ulp of 1.
    std::printf("gray (%td, %td): range [%.3f, %.3f], max |fused - loop| = %.3g\n",
                h,
                w,
                static_cast<double>(gmin),
                static_cast<double>(gmax),
                gray_err);
    std::printf("normalised: max |fused - loop| = %.3g\n", norm_err);
    std::printf("blurred (%td, %td): mean %.4f, max |fused - loop| = %.3g\n",
                blurred.shape()[0],
                blurred.shape()[1],
                static_cast<double>(fusor::eval(fusor::mean(blurred)).item()),
                blur_err);
    if (argc > 2) {
        write_pgm(argv[2], blurred);
        std::printf("wrote %s\n", argv[2]);
    }
    const bool ok = gray_err <= 1e-4 && norm_err <= 1e-6 && blur_err <= 1e-6;
    std::printf("matches the hand-written loops: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
