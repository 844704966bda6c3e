// Diagonals of a batch of matrices with offsets (the CANN Diagonal kernel's job), and other
// views, none of which copies: each is a new (shape, strides, offset) over the same memory.
//
// numpy.diagonal's rule: diagonal(x, offset, axis1, axis2) removes both axes and appends the
// diagonal as the last one; offset > 0 is above the main diagonal. For a (B, N, N) batch and
// axes (1, 2), element k of the diagonal of matrix b is x[b, k - min(offset, 0),
// k + max(offset, 0)]: one stride of N + 1 elements, and a base offset of `offset` elements
// (or -offset * N below the diagonal). On a tensor it is writable.
//
// Usage: diagonal_and_views     (exit 1 if a value differs from the hand-written loop)
#include <cstdio>
#include <iostream>

#include <fusor/fusor.hpp>

int main() {
    using fusor::index_t;
    const index_t B = 3, N = 5;
    fusor::tensor<double> x(fusor::shape_t{B, N, N});
    for (index_t k = 0; k < x.size(); ++k)
        x.data()[k] = static_cast<double>(k);

    bool ok = true;
    for (index_t offset : {-2, 0, 1, 4}) {
        const auto d = fusor::diagonal(x, offset, 1, 2); // a view: (B, N - |offset|)
        std::printf("diagonal(x, offset=%td, axis1=1, axis2=2): shape (%td, %td), strides "
                    "(%td, %td), first element x.data()[%td]\n",
                    offset,
                    d.shape()[0],
                    d.shape()[1],
                    d.strides()[0],
                    d.strides()[1],
                    d.data() - x.data());
        for (index_t b = 0; b < B; ++b)
            for (index_t k = 0; k < d.shape()[1]; ++k) {
                const index_t i = k - (offset < 0 ? offset : 0), j = k + (offset > 0 ? offset : 0);
                ok = ok && d(b, k) == x(b, i, j);
            }
    }

    // Views of an expression are lazy index maps: the trace of every matrix of (x + x^T) / 2,
    // with no temporary for the transpose or the sum.
    const auto sym = (x + fusor::transpose(x, {0, 2, 1})) * 0.5;
    const auto trace = fusor::sum(fusor::diagonal(sym, 0, 1, 2), 1);
    std::cout << "\n== explain(sum(diagonal((x + transpose(x, {0, 2, 1})) * 0.5, 0, 1, 2), 1))\n"
              << fusor::explain(trace) << '\n';
    const fusor::tensor<double> tr = trace;
    for (index_t b = 0; b < B; ++b) {
        double t = 0;
        for (index_t i = 0; i < N; ++i)
            t += x(b, i, i);
        ok = ok && tr(b) == t;
        std::printf("trace of matrix %td: %g\n", b, tr(b));
    }

    // Writing through views: zero the main diagonals, negate the first superdiagonal, and
    // reverse the rows of the last matrix with a negative-step slice of itself (the right side
    // overlaps the destination, so fusor evaluates it first, as NumPy does).
    fusor::diagonal(x, 0, 1, 2) = 0.0;
    fusor::diagonal(x, 1, 1, 2) *= -1.0;
    auto last = fusor::view(x, -1);
    last = fusor::view(last, fusor::slice(fusor::none, fusor::none, -1));
    std::cout << "\nx[0] after writing through its diagonals:\n" << fusor::view(x, 0) << '\n';
    std::cout << "x[2] with its rows reversed:\n" << fusor::view(x, 2) << '\n';
    ok = ok && x(0, 2, 2) == 0.0 && x(0, 1, 2) == -7.0 && x(2, 0, 0) == 70.0 && x(2, 4, 0) == 0.0
         && x(2, 4, 1) == -51.0;

    std::printf("%s\n", ok ? "views match the hand-written index arithmetic: ok" : "MISMATCH");
    return ok ? 0 : 1;
}
