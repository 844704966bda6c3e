// fusor/core/contraction_spec.ipp: the definitions of contraction_spec.hpp's non-template
// functions, included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/core/contraction_spec.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF std::string label_text(int label) {
    if (label < 128)
        return std::string(1, static_cast<char>(label));
    return "axis " + std::to_string(label - first_made_label);
}

FUSOR_DEF contraction_spec make_contraction_spec(const shape_list& shapes,
                                                 const label_lists& labels,
                                                 const label_list& out_labels,
                                                 std::string label) {
    label_list order; // every label: the result's first, then summed ones as met
    boost::container::small_vector<index_t, 8> extents; // per label of `order`
    label_list owner; // the operand that fixed the extent (-1: none yet)
    auto position = [&](int l) {
        const auto it = std::find(order.begin(), order.end(), l);
        if (it != order.end())
            return static_cast<std::size_t>(it - order.begin());
        order.push_back(l);
        extents.push_back(1);
        owner.push_back(-1);
        return order.size() - 1;
    };
    for (int l : out_labels)
        position(l);
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        for (std::size_t a = 0; a < labels[k].size(); ++a) {
            const int l = labels[k][a];
            const index_t n = shapes[k][a];
            // The diagonal: the same label twice in one operand needs equal extents.
            for (std::size_t b = 0; b < a; ++b)
                if (labels[k][b] == l && shapes[k][b] != n)
                    throw value_error("einsum: dimensions in operand " + std::to_string(k)
                                      + " for collapsing index '" + label_text(l)
                                      + "' don't match (" + std::to_string(shapes[k][b])
                                      + " != " + std::to_string(n) + ")");
            const std::size_t p = position(l);
            if (n == 1 || n == extents[p])
                continue;
            if (extents[p] != 1)
                throw value_error("einsum: operands could not be broadcast together: subscript '"
                                  + label_text(l) + "' has size " + std::to_string(extents[p])
                                  + " in operand " + std::to_string(owner[p]) + " (shape "
                                  + to_string(shapes[static_cast<std::size_t>(owner[p])])
                                  + ") and size " + std::to_string(n) + " in operand "
                                  + std::to_string(k) + " (shape " + to_string(shapes[k]) + ")");
            extents[p] = n;
            owner[p] = static_cast<int>(k);
        }
    }
    // The iteration order: the result's labels, then the summed ones, except that the summed
    // ones go before the result's last label when every operand either lacks that label or has
    // it as its own last axis (matmul's `j` in "ik,kj->ij"): fusor's loop then runs the summed
    // axes outside a row of accumulators that every operand reads at unit stride or holds still
    // (the i-k-j loop), not as dot products over a strided operand. (The BLAS path, which finds
    // rows, columns and summed axes by their strides, does not depend on it.)
    const std::size_t outs = out_labels.size();
    bool last_inside = outs > 0 && order.size() > outs;
    for (std::size_t k = 0; last_inside && k < shapes.size(); ++k)
        for (std::size_t a = 0; a + 1 < labels[k].size(); ++a)
            if (labels[k][a] == out_labels.back())
                last_inside = false;
    boost::container::small_vector<std::size_t, 8> at(
        order.size()); // label (index into order) -> axis of the space
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i < outs)
            at[i] = (last_inside && i == outs - 1) ? order.size() - 1 : i;
        else
            at[i] = last_inside ? i - 1 : i;
    }
    contraction_spec s;
    s.space = shape_t(order.size(), 1);
    for (std::size_t i = 0; i < order.size(); ++i) {
        s.space[at[i]] = extents[i];
        if (i >= outs)
            s.summed.push_back(static_cast<index_t>(at[i]));
    }
    s.label = std::move(label);
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        affine_map m(shapes[k], s.space, s.label);
        for (std::size_t a = 0; a < labels[k].size(); ++a) {
            const std::size_t p = at[position(labels[k][a])];
            // An extent-1 axis under a longer label is broadcast: it stands still (stride 0).
            m.at(a, p) = (shapes[k][a] == 1 && s.space[p] != 1) ? 0 : 1;
        }
        s.maps.push_back(std::move(m));
    }
    return s;
}

FUSOR_DEF einsum_labels parse_einsum_labels(std::string_view subscripts, const shape_list& shapes) {
    auto fail = [&](const std::string& why, std::size_t at) {
        throw value_error("einsum: " + why + " (at position " + std::to_string(at)
                          + " of the subscripts \"" + std::string(subscripts) + "\")");
    };
    struct term {
        label_list letters; // -1 marks where the ellipsis stands
        bool ellipsis = false;
    };
    std::vector<term> inputs(1);
    term output;
    bool explicit_output = false;
    term* cur = &inputs.back();
    for (std::size_t i = 0; i < subscripts.size(); ++i) {
        const char c = subscripts[i];
        if (c == ' ')
            continue;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            cur->letters.push_back(c);
        } else if (c == ',') {
            if (explicit_output)
                fail("',' after '->': the output is one term", i);
            inputs.emplace_back();
            cur = &inputs.back();
        } else if (c == '-' && i + 1 < subscripts.size() && subscripts[i + 1] == '>'
                   && !explicit_output) {
            explicit_output = true;
            cur = &output;
            ++i;
        } else if (c == '.') {
            if (subscripts.substr(i, 3) != "...")
                fail("a '.' that is not part of an ellipsis ('...')", i);
            if (cur->ellipsis)
                fail("more than one ellipsis ('...') in one term", i);
            cur->ellipsis = true;
            cur->letters.push_back(-1);
            i += 2;
        } else {
            fail("invalid subscript '" + std::string(1, c)
                     + "' in einstein sum subscripts string, subscripts must be letters",
                 i);
        }
    }
    if (inputs.size() < shapes.size())
        throw value_error("einsum: more operands provided to einstein sum function than "
                          "specified in the subscripts string \""
                          + std::string(subscripts) + "\"");
    if (inputs.size() > shapes.size())
        throw value_error("einsum: fewer operands provided to einstein sum function than "
                          "specified in the subscripts string \""
                          + std::string(subscripts) + "\"");

    // Each operand's labels, the ellipsis expanded to the axes it covers.
    index_t ellipsis_rank = 0;
    label_lists labels(shapes.size());
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        const term& t = inputs[k];
        const index_t named = static_cast<index_t>(t.letters.size()) - (t.ellipsis ? 1 : 0);
        const index_t rank = shapes[k].rank();
        if (named > rank || (!t.ellipsis && named != rank))
            throw value_error(
                "einsum: operand " + std::to_string(k) + " has " + std::to_string(rank)
                + " dimension" + (rank == 1 ? "" : "s") + " (shape " + to_string(shapes[k])
                + ") but its subscripts name " + std::to_string(named)
                + (t.ellipsis || named > rank ? ""
                                              : ", and no '...' ellipsis stands for the rest"));
        ellipsis_rank = std::max(ellipsis_rank, rank - named);
    }
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        const term& t = inputs[k];
        const index_t covered =
            shapes[k].rank() - (static_cast<index_t>(t.letters.size()) - (t.ellipsis ? 1 : 0));
        for (int l : t.letters) {
            if (l != -1) {
                labels[k].push_back(l);
                continue;
            }
            for (index_t a = ellipsis_rank - covered; a < ellipsis_rank; ++a)
                labels[k].push_back(first_made_label + static_cast<int>(a));
        }
    }

    label_list out;
    if (explicit_output) {
        bool ellipsis_out = false;
        for (int l : output.letters) {
            if (l == -1) {
                ellipsis_out = true;
                for (index_t a = 0; a < ellipsis_rank; ++a)
                    out.push_back(first_made_label + static_cast<int>(a));
                continue;
            }
            if (std::count(out.begin(), out.end(), l) > 0)
                throw value_error("einsum: einstein sum subscripts string includes output "
                                  "subscript '"
                                  + label_text(l) + "' multiple times");
            bool found = false;
            for (const auto& ls : labels)
                found = found || std::count(ls.begin(), ls.end(), l) > 0;
            if (!found)
                throw value_error("einsum: einstein sum subscripts string included output "
                                  "subscript '"
                                  + label_text(l) + "' which never appeared in an input");
            out.push_back(l);
        }
        if (!ellipsis_out && ellipsis_rank > 0)
            throw value_error("einsum: output has more dimensions than subscripts given in "
                              "einstein sum, but no '...' ellipsis provided to broadcast the "
                              "extra dimensions");
    } else {
        for (index_t a = 0; a < ellipsis_rank; ++a)
            out.push_back(first_made_label + static_cast<int>(a));
        for (int c = 'A'; c <= 'z'; ++c) {
            std::size_t uses = 0;
            for (const auto& ls : labels)
                uses += static_cast<std::size_t>(std::count(ls.begin(), ls.end(), c));
            if (uses == 1)
                out.push_back(c);
        }
    }
    std::string text;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        if (k)
            text += ',';
        for (int l : inputs[k].letters)
            text += l == -1 ? std::string("...") : std::string(1, static_cast<char>(l));
    }
    text += "->";
    if (explicit_output) {
        for (int l : output.letters)
            text += l == -1 ? std::string("...") : std::string(1, static_cast<char>(l));
    } else {
        if (ellipsis_rank > 0)
            text += "...";
        for (int l : out)
            if (l < first_made_label)
                text += static_cast<char>(l);
    }
    return {std::move(labels), std::move(out), std::move(text)};
}

FUSOR_DEF contraction_spec parse_einsum(std::string_view subscripts, const shape_list& shapes) {
    einsum_labels l = parse_einsum_labels(subscripts, shapes);
    return make_contraction_spec(shapes, l.in, l.out, "einsum(\"" + l.text + "\")");
}

FUSOR_DEF index_t label_extent(const einsum_labels& l, const shape_list& shapes, int label) {
    index_t n = 1;
    for (std::size_t k = 0; k < shapes.size(); ++k)
        for (std::size_t a = 0; a < l.in[k].size(); ++a)
            if (l.in[k][a] == label && shapes[k][a] != 1)
                n = shapes[k][a];
    return n;
}

FUSOR_DEF std::vector<contraction_step>
greedy_order(const einsum_labels& l, const shape_list& shapes, std::size_t& first) {
    const std::size_t n = shapes.size();
    auto extent = [&](int label) {
        return label_extent(l, shapes, label);
    };
    auto has = [](const label_list& v, int x) {
        return std::find(v.begin(), v.end(), x) != v.end();
    };
    // What the intermediate of `held` + `next` keeps, with `done` the operands used after it.
    auto keeps = [&](const label_list& held,
                     std::size_t next,
                     const boost::container::small_vector<bool, 8>& done) {
        label_list out;
        auto consider = [&](int x) {
            if (has(out, x))
                return;
            bool needed = has(l.out, x);
            for (std::size_t k = 0; !needed && k < n; ++k)
                needed = !done[k] && has(l.in[k], x);
            if (needed)
                out.push_back(x);
        };
        for (int x : held)
            consider(x);
        for (int x : l.in[next])
            consider(x);
        return out;
    };
    auto size_of = [&](const label_list& labels) {
        index_t s = 1;
        for (int x : labels)
            s *= extent(x);
        return s;
    };
    auto work_of = [&](const label_list& a, const label_list& b) {
        label_list all = a;
        for (int x : b)
            if (!has(all, x))
                all.push_back(x);
        return size_of(all);
    };
    std::vector<contraction_step> steps;
    boost::container::small_vector<bool, 8> done(n, false);
    index_t best_size = -1, best_work = -1;
    std::size_t bi = 0, bj = 1;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            boost::container::small_vector<bool, 8> d(n, false);
            d[i] = d[j] = true;
            label_list held;
            for (int x : l.in[i])
                if (!has(held, x))
                    held.push_back(x);
            const label_list k = keeps(held, j, d);
            const index_t s = size_of(k), w = work_of(l.in[i], l.in[j]);
            if (best_size < 0 || s < best_size || (s == best_size && w < best_work)) {
                best_size = s;
                best_work = w;
                bi = i;
                bj = j;
            }
        }
    first = bi;
    done[bi] = done[bj] = true;
    label_list held;
    for (int x : l.in[bi])
        if (!has(held, x))
            held.push_back(x);
    held = keeps(held, bj, done);
    steps.push_back({bj, held});
    for (std::size_t step = 2; step < n; ++step) {
        index_t bs = -1, bw = -1;
        std::size_t pick = 0;
        label_list pick_keeps;
        for (std::size_t j = 0; j < n; ++j) {
            if (done[j])
                continue;
            boost::container::small_vector<bool, 8> d = done;
            d[j] = true;
            label_list k = keeps(held, j, d);
            const index_t s = size_of(k), w = work_of(held, l.in[j]);
            if (bs < 0 || s < bs || (s == bs && w < bw)) {
                bs = s;
                bw = w;
                pick = j;
                pick_keeps = std::move(k);
            }
        }
        done[pick] = true;
        held = std::move(pick_keeps);
        steps.push_back({pick, held});
    }
    steps.back().keeps = l.out; // the last step makes the result, in the result's order
    return steps;
}

} // namespace detail
} // namespace fusor
