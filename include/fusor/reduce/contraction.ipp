// fusor/reduce/contraction.ipp: the definitions of contraction.hpp's non-template functions,
// included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/reduce/contraction.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF label_list own_labels(index_t rank, int base) {
    label_list l;
    for (index_t i = 0; i < rank; ++i)
        l.push_back(base + static_cast<int>(i));
    return l;
}

FUSOR_DEF contraction_spec outer_spec(const shape_t& a, const shape_t& b, std::string label) {
    label_list la = own_labels(a.rank(), label_a), lb = own_labels(b.rank(), label_b);
    label_list out = la;
    out.insert(out.end(), lb.begin(), lb.end());
    return make_contraction_spec({a, b}, {la, lb}, out, std::move(label));
}

FUSOR_DEF contraction_spec matmul_spec(const shape_t& a, const shape_t& b) {
    const char* signature = "(n?,k),(k,m?)->(n?,m?)";
    for (int k = 0; k < 2; ++k)
        if ((k == 0 ? a : b).rank() == 0)
            throw value_error("matmul: Input operand " + std::to_string(k)
                              + " does not have enough dimensions (has 0, gufunc core with "
                                "signature "
                              + signature + " requires 1)");
    const index_t ra = a.rank(), rb = b.rank();
    const index_t ka = a[static_cast<std::size_t>(ra - 1)];
    const index_t kb = b[static_cast<std::size_t>(rb == 1 ? 0 : rb - 2)];
    if (ka != kb)
        throw value_error("matmul: Input operand 1 has a mismatch in its core dimension 0, with "
                          "gufunc signature "
                          + std::string(signature) + " (size " + std::to_string(kb)
                          + " is different from " + std::to_string(ka) + "); shapes "
                          + to_compact_string(a) + " " + to_compact_string(b));
    const index_t ba = ra >= 2 ? ra - 2 : 0, bb = rb >= 2 ? rb - 2 : 0;
    const index_t batch = std::max(ba, bb);
    for (index_t p = 0; p < batch; ++p) { // right-aligned, as broadcasting aligns
        const index_t ea = p >= batch - ba ? a[static_cast<std::size_t>(p - (batch - ba))] : 1;
        const index_t eb = p >= batch - bb ? b[static_cast<std::size_t>(p - (batch - bb))] : 1;
        if (ea != eb && ea != 1 && eb != 1)
            throw broadcast_error("matmul: operands could not be broadcast together: batch "
                                  "shapes of "
                                  + to_compact_string(a) + " " + to_compact_string(b)
                                  + " (the axes before the last two)");
    }
    const int n = label_a, m = label_b;
    label_list la, lb, out;
    for (index_t p = batch - ba; p < batch; ++p)
        la.push_back(label_batch + static_cast<int>(p));
    for (index_t p = batch - bb; p < batch; ++p)
        lb.push_back(label_batch + static_cast<int>(p));
    for (index_t p = 0; p < batch; ++p)
        out.push_back(label_batch + static_cast<int>(p));
    if (ra >= 2) {
        la.push_back(n);
        out.push_back(n);
    }
    la.push_back(label_k);
    lb.push_back(label_k);
    if (rb >= 2) {
        lb.push_back(m);
        out.push_back(m);
    }
    return make_contraction_spec({a, b}, {la, lb}, out, "matmul");
}

FUSOR_DEF bool direct_product_applies(const shape_t& a, const shape_t& b) {
    const index_t ra = a.rank(), rb = b.rank();
    if (ra < 1 || ra > 2 || rb < 1 || rb > 2)
        return false;
    return a[static_cast<std::size_t>(ra - 1)] == b[0];
}

FUSOR_DEF std::string not_aligned(const shape_t& a, const shape_t& b, index_t da, index_t db) {
    return "shapes " + to_compact_string(a) + " and " + to_compact_string(b)
           + " not aligned: " + std::to_string(a[static_cast<std::size_t>(da)]) + " (dim "
           + std::to_string(da) + ") != " + std::to_string(b[static_cast<std::size_t>(db)])
           + " (dim " + std::to_string(db) + ")";
}

FUSOR_DEF contraction_spec
pair_spec(const shape_t& a, const shape_t& b, index_t da, index_t db, std::string label) {
    if (a[static_cast<std::size_t>(da)] != b[static_cast<std::size_t>(db)])
        throw value_error(label + ": " + not_aligned(a, b, da, db));
    label_list la = own_labels(a.rank(), label_a), lb = own_labels(b.rank(), label_b);
    la[static_cast<std::size_t>(da)] = label_k;
    lb[static_cast<std::size_t>(db)] = label_k;
    label_list out;
    for (int l : la)
        if (l != label_k)
            out.push_back(l);
    for (int l : lb)
        if (l != label_k)
            out.push_back(l);
    return make_contraction_spec({a, b}, {la, lb}, out, std::move(label));
}

FUSOR_DEF contraction_spec dot_spec(const shape_t& a, const shape_t& b) {
    if (a.rank() == 0 || b.rank() == 0)
        return outer_spec(a, b, "dot");
    return pair_spec(a, b, a.rank() - 1, b.rank() == 1 ? 0 : b.rank() - 2, "dot");
}

FUSOR_DEF contraction_spec inner_spec(const shape_t& a, const shape_t& b) {
    if (a.rank() == 0 || b.rank() == 0)
        return outer_spec(a, b, "inner");
    return pair_spec(a, b, a.rank() - 1, b.rank() - 1, "inner");
}

FUSOR_DEF contraction_spec tensordot_spec(const shape_t& a,
                                          const shape_t& b,
                                          shape_t axes_a,
                                          shape_t axes_b) {
    if (axes_a.size() != axes_b.size())
        throw value_error("tensordot: shape-mismatch for sum: " + std::to_string(axes_a.size())
                          + " axes of the first operand against " + std::to_string(axes_b.size())
                          + " of the second");
    // Normalised in place, not sorted: axes_a[i] pairs with axes_b[i].
    for (std::size_t i = 0; i < axes_a.size(); ++i) {
        axes_a[i] = normalize_axis(axes_a[i], a.rank());
        axes_b[i] = normalize_axis(axes_b[i], b.rank());
        for (std::size_t j = 0; j < i; ++j)
            if (axes_a[j] == axes_a[i] || axes_b[j] == axes_b[i])
                throw value_error("tensordot: repeated axis in the axes to sum");
    }
    label_list la = own_labels(a.rank(), label_a), lb = own_labels(b.rank(), label_b);
    for (std::size_t i = 0; i < axes_a.size(); ++i) {
        const auto x = static_cast<std::size_t>(axes_a[i]), y = static_cast<std::size_t>(axes_b[i]);
        if (a[x] != b[y])
            throw value_error("tensordot: shape-mismatch for sum: axis " + std::to_string(x)
                              + " of " + to_compact_string(a) + " has size " + std::to_string(a[x])
                              + ", axis " + std::to_string(y) + " of " + to_compact_string(b)
                              + " has size " + std::to_string(b[y]));
        la[x] = label_k + static_cast<int>(i);
        lb[y] = label_k + static_cast<int>(i);
    }
    label_list out;
    for (int l : la)
        if (l >= label_a)
            out.push_back(l);
    for (int l : lb)
        if (l >= label_a)
            out.push_back(l);
    return make_contraction_spec({a, b}, {la, lb}, out, "tensordot");
}

} // namespace detail
} // namespace fusor
