// fusor/algo/diag.hpp: diag, as numpy.diag: a vector onto a diagonal of a new square matrix, or
// a matrix's diagonal copied out.
#pragma once

#include <type_traits>

#include <fusor/core/error.hpp>
#include <fusor/core/expression.hpp>
#include <fusor/core/shape.hpp>
#include <fusor/exec/assign.hpp>
#include <fusor/expr/views.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

/// `diag(v, k = 0)` as numpy.diag. A 1-d `v` of n elements gives the (n + |k|, n + |k|) matrix of
/// zeros with `v` on its k-th diagonal (`j - i == k`: above the main one for k > 0, below for
/// k < 0); a 2-d `v` gives a copy of its k-th diagonal, (min(rows, cols - k),) elements or none
/// when `k` lies outside (NumPy returns a read-only view there; `diagonal(v, k)` is fusor's view).
/// Element type: `v`'s. `v` is evaluated once. Throws `value_error` for any other rank ("Input
/// must be 1- or 2-d.").
template <class E>
    requires expression<E> tensor<value_type_t<E>> diag(const E& v, index_t k = 0) {
        using T = value_type_t<E>;
        const shape_t& s = detail::checked_shape_of(v);
        if (s.rank() == 2)
            return tensor<T>(diagonal(v, k));
        if (s.rank() != 1)
            throw value_error("diag: Input must be 1- or 2-d. (shape " + to_string(s) + ")");
        const tensor<T> values = eval(v);
        const index_t n = s[0], m = n + (k < 0 ? -k : k);
        tensor<T> out(shape_t{m, m}); // zeros
        const index_t row = k < 0 ? -k : 0, col = k > 0 ? k : 0;
        for (index_t i = 0; i < n; ++i)
            out(row + i, col + i) = values.data()[i];
        return out;
    }

} // namespace fusor
