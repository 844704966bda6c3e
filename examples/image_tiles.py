#!/usr/bin/python3
"""The NumPy program examples/image_tiles.cpp reproduces: pad, a 3x3 filter by slicing, tiles
stacked into a batch, a mask of bright pixels counted and selected.

    image_tiles.py

img (64, 96) float32 is two bright blobs on a gradient, computed in float64 from integer pixel
coordinates, cast to float32, plus numpy.random.default_rng(7) uniform float32 noise scaled by
1/16. It is reflect-padded by one pixel, filtered by a 3x3 Gaussian (1-2-1 x 1-2-1, / 16) written
as nine shifted slices, cut into 16x16 tiles that np.stack makes a (24, 16, 16) batch, and the
pixels above 0.5 are counted and selected by boolean indexing.

Every float32 value is made by the same operations in the same order as in the C++ program, and
the statistics are float64 means of float32 values (exact sums, so the summation order does not
matter): the output is the C++ program's, digit for digit (image_tiles.cpp says why).
"""
import numpy as np

HEIGHT, WIDTH, TILE = 64, 96, 16
THRESHOLD = np.float32(0.5)


def make_image():
    i = np.arange(HEIGHT)[:, np.newaxis]
    j = np.arange(WIDTH)
    r1 = (i - 20) * (i - 20) + (j - 28) * (j - 28)
    r2 = (i - 44) * (i - 44) + (j - 70) * (j - 70)
    base = 0.55 / (1.0 + r1 / 60.0) + 0.45 / (1.0 + r2 / 120.0) + j / 384.0 + 0.1
    noise = np.random.default_rng(7).random((HEIGHT, WIDTH), dtype=np.float32)
    return base.astype(np.float32) + np.float32(0.0625) * noise


def gaussian3x3(padded):
    h, w = padded.shape[0] - 2, padded.shape[1] - 2

    def at(di, dj):
        return padded[di:di + h, dj:dj + w]

    f = np.float32
    return (at(0, 0) + f(2) * at(0, 1) + at(0, 2) + f(2) * at(1, 0) + f(4) * at(1, 1)
            + f(2) * at(1, 2) + at(2, 0) + f(2) * at(2, 1) + at(2, 2)) * f(0.0625)


def mean64(x, axis=None):
    return x.astype(np.float64).mean(axis=axis)


def main():
    img = make_image()
    print(f"image {img.shape} float32: min {img.min():.6f}  max {img.max():.6f}  "
          f"mean {mean64(img):.6f}")

    padded = np.pad(img, 1, mode="reflect")
    print(f"padded {padded.shape}, reflect: padded[0, :4] = "
          + " ".join(f"{v:.6f}" for v in padded[0, :4])
          + " (img[1, 1], img[1, 0], img[1, 1], img[1, 2])")

    filtered = gaussian3x3(padded)
    assert filtered.dtype == np.float32
    print(f"filtered {filtered.shape}, 3x3 Gaussian: min {filtered.min():.6f}  "
          f"max {filtered.max():.6f}  mean {mean64(filtered):.6f}")

    tiles = [filtered[r:r + TILE, c:c + TILE]
             for r in range(0, HEIGHT, TILE) for c in range(0, WIDTH, TILE)]
    batch = np.stack(tiles, 0)
    tile_means = mean64(batch, (1, 2))
    rows, cols = HEIGHT // TILE, WIDTH // TILE
    print(f"batch {batch.shape} float32; tile means, {rows} rows of {cols} tiles:")
    for r in range(rows):
        print("  " + " ".join(f"{m:.6f}" for m in tile_means[r * cols:(r + 1) * cols]))
    brightest = int(tile_means.argmax())
    print(f"brightest tile: {brightest} (row {brightest // cols}, column {brightest % cols})")

    mask = filtered > THRESHOLD
    count = np.count_nonzero(mask)
    bright = filtered[mask]
    print(f"bright pixels (filtered > {THRESHOLD:.1f}): {count} of {filtered.size}")
    print(f"selected ({bright.shape[0]},) float32: min {bright.min():.6f}  "
          f"max {bright.max():.6f}  mean {mean64(bright):.6f}")


if __name__ == "__main__":
    main()
