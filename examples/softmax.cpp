// Numerically stable row softmax and log-softmax of a (4096, 1024) float32 tensor.
//
//   softmax(x)[i, j]     = exp(x[i, j] - m[i]) / sum_k exp(x[i, k] - m[i]),  m[i] = max_k x[i, k]
//   log_softmax(x)[i, j] = (x[i, j] - m[i]) - log(sum_k exp(x[i, k] - m[i]))
//
// Subtracting the row maximum keeps exp() from overflowing (row 0 below holds values near 1000,
// where exp(x) is inf in float32). softmax reads p = exp(x - max) twice, in the row sum and in
// the division: it runs by blocks of 32 rows, each storing p once in a small buffer that both
// read (compute_at, `explain` shows the store and the expression loops of a block).
// log_softmax reads p only inside its sum: one fused loop over (4096, 1024) reading two small
// materialised reductions, max and sum, of shape (4096, 1); `explain` shows both boundaries,
// and that the sum's own loop reuses the max instead of computing it again.
//
// Usage: softmax            (prints both explain() outputs and the checks; exit 1 on failure)
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <iostream>

#include <fusor/fusor.hpp>

int main() {
    const fusor::index_t rows = 4096, cols = 1024;
    fusor::tensor<float> x(fusor::shape_t{rows, cols}, fusor::uninitialized);
    for (fusor::index_t i = 0; i < rows; ++i)
        for (fusor::index_t j = 0; j < cols; ++j)
            x(i, j) = static_cast<float>((i * 31 + j * 17) % 101) * 0.1f - 5.0f;
    for (fusor::index_t j = 0; j < cols; ++j) // logits where a naive exp() overflows
        x(0, j) = 1000.0f - static_cast<float>(j % 7);

    // The expressions: nothing is computed until they are assigned.
    auto shifted = x - fusor::max(x, 1, fusor::keepdims);
    auto p = fusor::exp(shifted);
    auto softmax = p / fusor::sum(p, 1, fusor::keepdims);
    auto log_softmax = shifted - fusor::log(fusor::sum(p, 1, fusor::keepdims));

    std::cout << "== explain(softmax)\n" << fusor::explain(softmax) << '\n';
    std::cout << "== explain(log_softmax)\n" << fusor::explain(log_softmax) << '\n';

    const fusor::tensor<float> s = softmax;
    const fusor::tensor<float> ls = log_softmax;

    // Checks. Each softmax element carries a few float32 roundings (exp, the division), so a
    // row sum (accumulated in double) is within ~1e-6 of 1; exp(log_softmax) equals softmax to
    // the same order; logsumexp, the one-pass form, agrees with the two-pass log-softmax to a
    // few float32 ulp of the logits' magnitude (both round a value near max|x| to float32).
    const double row_error = fusor::eval(fusor::max(fusor::abs(fusor::sum(s, 1) - 1.0f))).item();
    const double exp_error = fusor::eval(fusor::max(fusor::abs(fusor::exp(ls) - s))).item();
    const double lse_error =
        fusor::eval(fusor::max(fusor::abs(x - fusor::logsumexp(x, 1, fusor::keepdims) - ls)))
            .item();
    const double lse_bound = 4 * FLT_EPSILON * fusor::eval(fusor::max(fusor::abs(x))).item();
    const bool finite = fusor::eval(fusor::all(fusor::abs(ls) < INFINITY)).item();

    std::printf("softmax of (%td, %td) float32\n", rows, cols);
    std::printf("row 0 (logits near 1000): softmax[0, 0] = %.6f, log_softmax[0, 0] = %.6f\n",
                static_cast<double>(s(0, 0)),
                static_cast<double>(ls(0, 0)));
    std::printf("max |row sum - 1|               = %.3g\n", row_error);
    std::printf("max |exp(log_softmax) - softmax| = %.3g\n", exp_error);
    std::printf("max |x - logsumexp(x) - log_softmax| = %.3g (bound 4 ulp of max|x|: %.3g)\n",
                lse_error,
                lse_bound);
    const bool ok = row_error <= 1e-6 && exp_error <= 1e-6 && lse_error <= lse_bound && finite;
    std::printf("rows sum to 1: %s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
