// Broadcasting as stride 0: the seeds' cases, with the stride table each operand is read with.
//
// NumPy's rule: shapes align on the right; an axis of extent 1 (or a missing leading axis)
// stretches to the other operand's extent. fusor never copies the stretched operand: it reads
// it with stride 0 on every broadcast axis, so one loop walks the output and every operand
// advances by its own stride (MNN BinaryOp's stride-0 broadcast). For each case this prints
// the table of strides (in elements) per output axis, checks the values against a
// hand-written loop, and shows `explain`'s loop nest after coalescing.
//
// Usage: broadcasting_tour     (exit 1 if any value differs from the hand-written loop)
#include <cstdio>
#include <iostream>
#include <string>

#include <fusor/fusor.hpp>

namespace {
using fusor::index_t;
using fusor::shape_t;

fusor::tensor<float> numbered(const shape_t& shape, float scale) {
    fusor::tensor<float> t(shape);
    for (index_t k = 0; k < t.size(); ++k)
        t.data()[k] = scale * static_cast<float>(k);
    return t;
}

// The stride table: one row per operand, one column per output axis, 0 = broadcast.
void print_strides(const fusor::explanation& ex) {
    const fusor::loop_plan& plan = ex.plan;
    std::printf("  %-6s", "");
    for (std::size_t j = 0; j < plan.iter_shape.size(); ++j)
        std::printf("  axis%-2zu", j);
    std::printf("\n");
    for (std::size_t k = 0; k < plan.operands.size(); ++k) {
        const auto& o = plan.operands[k];
        if (o.kind == fusor::operand_plan::role::scalar)
            continue;
        std::printf("  %-6s", ex.notes.names[k].c_str()); // out, t0, t1: explain's names
        std::string note;
        for (std::size_t j = 0; j < o.iter_strides.size(); ++j) {
            std::printf("  %6td", o.iter_strides[j]);
            if (o.iter_strides[j] == 0 && plan.iter_shape[j] > 1)
                note += (note.empty() ? "   broadcast on axis " : ", ") + std::to_string(j);
        }
        std::printf("%s\n", note.c_str());
    }
}

// out[i] = a[i] + b[i] through explicit index arithmetic: the reference.
bool matches_hand_loop(const fusor::tensor<float>& out,
                       const fusor::tensor<float>& a,
                       const fusor::tensor<float>& b) {
    const shape_t& s = out.shape();
    const auto r = s.size();
    for (index_t k = 0; k < out.size(); ++k) {
        index_t rest = k, ia = 0, ib = 0, sa = 1, sb = 1;
        for (std::size_t d = r; d-- > 0;) {
            const index_t i = rest % s[d];
            rest /= s[d];
            const std::size_t da = d - (r - a.shape().size()), db = d - (r - b.shape().size());
            if (d >= r - a.shape().size()) {
                ia += (a.shape()[da] == 1 ? 0 : i) * sa;
                sa *= a.shape()[da];
            }
            if (d >= r - b.shape().size()) {
                ib += (b.shape()[db] == 1 ? 0 : i) * sb;
                sb *= b.shape()[db];
            }
        }
        if (out.data()[k] != a.data()[ia] + b.data()[ib])
            return false;
    }
    return true;
}
} // namespace

int main() {
    const shape_t cases[][2] = {
        {{8}, {8}},             // one dimension, same shape
        {{8}, {1}},             // one dimension, a single element
        {{3, 8}, {8}},          // two dimensions: a row added to every row
        {{3, 8}, {3, 1}},       // a column added to every column
        {{3, 1}, {1, 8}},       // the outer sum
        {{3, 4, 8}, {3, 4, 8}}, // the seeds' three-dimensional cases
        {{3, 4, 8}, {1, 1, 1}},
        {{3, 4, 8}, {1, 4, 8}},
        {{3, 4, 8}, {3, 1, 1}},
    };
    bool all_ok = true;
    for (const auto& [sa, sb] : cases) {
        const auto a = numbered(sa, 1.0f), b = numbered(sb, 1000.0f);
        const auto e = a + b;
        const fusor::tensor<float> out = e;
        const bool ok = matches_hand_loop(out, a, b);
        all_ok = all_ok && ok;
        const auto ex = fusor::explain(e);
        std::cout << "== " << sa << " + " << sb << " -> " << out.shape()
                  << (ok ? "   values: ok" : "   values: DIFFER") << '\n';
        std::cout << "strides in elements per output axis (t0 = a, t1 = b):\n";
        print_strides(ex);
        std::cout << "the loop that runs (after coalescing):\n" << ex << '\n';
    }
    std::cout << (all_ok ? "all cases match the hand-written loop\n" : "MISMATCH\n");
    return all_ok ? 0 : 1;
}
