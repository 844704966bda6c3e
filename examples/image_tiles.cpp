// image_tiles: NumPy's everyday toolbox on a grayscale image (issue 18). It prints what
// examples/image_tiles.py (the same program in NumPy) prints, then how fusor plans the filter
// (ctest runs both programs and compares the numbers).
//
//   image_tiles [--no-explain]
//
//   img       (64, 96)  float32: two bright blobs on a gradient, computed from integer pixel
//                       coordinates, plus default_rng(7) uniform noise of amplitude 1/16
//   padded    (66, 98)  pad(img, 1, pad_mode::reflect): mirrored about the edge, as np.pad
//   filtered  (64, 96)  a 3x3 Gaussian (weights 1-2-1 x 1-2-1, / 16) as nine shifted views of
//                       `padded`, weighted and added in one fused loop: no temporaries
//   batch     (24, 16, 16) the filtered image cut into 16x16 tiles (views), stacked
//   bright    (n,)      view(filtered, filtered > 0.5): the bright pixels, a copy as x[mask]
//
// Why the two programs print the same digits:
// - every float32 value is made by the same IEEE operations in the same order (element-wise
//   arithmetic rounds each operation once, in fusor as in NumPy); the only products are by
//   powers of two (exact), so a compiler that fuses a multiply and an add changes nothing;
// - the statistics are computed in float64 from float32 values in [0.1, 1]: a float64 sum of up
//   to 2^13 such values is exact (the terms' bits span 2^13 down to 2^-27, 40 < 53 bits), so
//   fusor's compensated sums and NumPy's pairwise sums give the same bits, and so does the
//   division by the count. (The float32 means would not agree: fusor accumulates float32 in
//   double, NumPy in float32 pairwise.)
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <fusor/fusor.hpp>

namespace {

using fusor::index_t;
using fusor::slice;

constexpr index_t height = 64, width = 96, tile = 16;
constexpr float threshold = 0.5f;

// The test image: base(i, j) in float64 from integer coordinates (exact squared distances), cast
// to float32, plus uniform float32 noise in [0, 1/16).
fusor::tensor<float> make_image() {
    const fusor::tensor<std::int64_t> i = fusor::view(fusor::arange(height),
                                                      fusor::all,
                                                      fusor::newaxis); // (64, 1)
    const fusor::tensor<std::int64_t> j = fusor::arange(width);        // (96,)
    const fusor::tensor<std::int64_t> r1 = (i - 20) * (i - 20) + (j - 28) * (j - 28);
    const fusor::tensor<std::int64_t> r2 = (i - 44) * (i - 44) + (j - 70) * (j - 70);
    const fusor::tensor<double> base =
        0.55 / (1.0 + r1 / 60.0) + 0.45 / (1.0 + r2 / 120.0) + j / 384.0 + 0.1;
    auto rng = fusor::random::default_rng(7);
    const fusor::tensor<float> noise = rng.random<float>({height, width});
    return fusor::cast<float>(base) + 0.0625f * noise;
}

// The 3x3 Gaussian of `padded` (H + 2, W + 2) as one lazy expression of shape (H, W): the view
// at (di, dj) is the neighbour at offset (di - 1, dj - 1) of every output pixel.
auto gaussian3x3(const fusor::tensor<float>& padded) {
    const index_t h = padded.shape()[0] - 2, w = padded.shape()[1] - 2;
    auto at = [&](index_t di, index_t dj) {
        return fusor::view(padded, slice(di, di + h), slice(dj, dj + w));
    };
    return (at(0, 0) + 2.0f * at(0, 1) + at(0, 2) + 2.0f * at(1, 0) + 4.0f * at(1, 1)
            + 2.0f * at(1, 2) + at(2, 0) + 2.0f * at(2, 1) + at(2, 2))
           * 0.0625f;
}

} // namespace

int main(int argc, char** argv) {
    bool show_explain = true;
    for (int k = 1; k < argc; ++k) {
        if (std::string(argv[k]) == "--no-explain") {
            show_explain = false;
        } else {
            std::cerr << "usage: image_tiles [--no-explain]\n";
            return 2;
        }
    }

    const fusor::tensor<float> img = make_image();
    std::printf("image (%td, %td) float32: min %.6f  max %.6f  mean %.6f\n",
                img.shape()[0],
                img.shape()[1],
                static_cast<double>(fusor::min(img).item()),
                static_cast<double>(fusor::max(img).item()),
                fusor::mean(fusor::cast<double>(img)).item());

    // 1. Reflect-pad by one pixel on every side: row -1 is row 1, column -1 is column 1.
    const fusor::tensor<float> padded = fusor::pad(img, 1, fusor::pad_mode::reflect);
    std::printf("padded (%td, %td), reflect: padded[0, :4] = %.6f %.6f %.6f %.6f"
                " (img[1, 1], img[1, 0], img[1, 1], img[1, 2])\n",
                padded.shape()[0],
                padded.shape()[1],
                static_cast<double>(padded(0, 0)),
                static_cast<double>(padded(0, 1)),
                static_cast<double>(padded(0, 2)),
                static_cast<double>(padded(0, 3)));

    // 2. The filter: nine strided reads of `padded` in one loop, straight into `filtered`.
    const fusor::tensor<float> filtered = gaussian3x3(padded);
    std::printf("filtered (%td, %td), 3x3 Gaussian: min %.6f  max %.6f  mean %.6f\n",
                filtered.shape()[0],
                filtered.shape()[1],
                static_cast<double>(fusor::min(filtered).item()),
                static_cast<double>(fusor::max(filtered).item()),
                fusor::mean(fusor::cast<double>(filtered)).item());

    // 3. Tiles: 16x16 views of `filtered` (no copies), stacked into one (N, 16, 16) batch.
    std::vector<fusor::tensor_view<const float>> tiles;
    for (index_t r = 0; r < height; r += tile)
        for (index_t c = 0; c < width; c += tile)
            tiles.push_back(fusor::view(filtered, slice(r, r + tile), slice(c, c + tile)));
    const fusor::tensor<float> batch = fusor::stack(tiles, 0);
    const fusor::tensor<double> tile_means = fusor::mean(fusor::cast<double>(batch), {1, 2});
    std::printf("batch (%td, %td, %td) float32; tile means, %td rows of %td tiles:\n",
                batch.shape()[0],
                batch.shape()[1],
                batch.shape()[2],
                height / tile,
                width / tile);
    for (index_t r = 0; r < height / tile; ++r) {
        for (index_t c = 0; c < width / tile; ++c)
            std::printf("%s%.6f", c ? " " : "  ", tile_means(r * (width / tile) + c));
        std::printf("\n");
    }
    const std::int64_t brightest = fusor::argmax(tile_means).item();
    std::printf("brightest tile: %lld (row %lld, column %lld)\n",
                static_cast<long long>(brightest),
                static_cast<long long>(brightest / (width / tile)),
                static_cast<long long>(brightest % (width / tile)));

    // 4. The bright pixels: a mask counted in one fused loop, then selected (a copy, as x[mask]).
    const std::int64_t count = fusor::count_nonzero(filtered > threshold).item();
    const fusor::tensor<float> bright = fusor::view(filtered, filtered > threshold);
    std::printf("bright pixels (filtered > %.1f): %lld of %td\n",
                static_cast<double>(threshold),
                static_cast<long long>(count),
                filtered.size());
    std::printf("selected (%td,) float32: min %.6f  max %.6f  mean %.6f\n",
                bright.shape()[0],
                static_cast<double>(fusor::min(bright).item()),
                static_cast<double>(fusor::max(bright).item()),
                fusor::mean(fusor::cast<double>(bright)).item());

    if (show_explain) {
        std::cout << "\nThe 3x3 Gaussian, nine weighted views of the padded image, as fusor plans"
                     " it:\n"
                  << fusor::explain(gaussian3x3(padded));
        std::cout << "\nThe bright-pixel count, count_nonzero(filtered > 0.5):\n"
                  << fusor::explain(fusor::count_nonzero(filtered > threshold));
    }
    return 0;
}
