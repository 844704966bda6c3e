// fusor/algo/advanced_indexing.ipp: the definitions of advanced_indexing.hpp's non-template
// functions, included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <deque>

#include <fusor/algo/advanced_indexing.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF std::optional<index_t> merged_step(const shape_t& shape, const strides_t& strides) {
    std::optional<index_t> step;
    index_t acc = 0;
    for (std::size_t d = shape.size(); d-- > 0;) {
        if (shape[d] == 1)
            continue;
        if (!step) {
            step = strides[d];
            acc = strides[d] * shape[d];
        } else if (strides[d] != acc) {
            return std::nullopt;
        } else {
            acc *= shape[d];
        }
    }
    return step ? step : std::optional<index_t>(1);
}

FUSOR_DEF void set_inner(selection& s, shape_t shape, strides_t strides) {
    s.inner_size = shape_size(shape);
    const std::optional<index_t> step = merged_step(shape, strides);
    s.inner_contiguous = step && *step == 1;
    s.inner_shape = std::move(shape);
    s.inner_strides = std::move(strides);
}

FUSOR_DEF void check_mask_extent(const shape_t& operand, const shape_t& mask, std::size_t first) {
    for (std::size_t j = 0; j < mask.size(); ++j)
        if (mask[j] != operand[first + j])
            throw index_error(
                "boolean index did not match indexed array along dimension "
                + std::to_string(first + j) + "; dimension is " + std::to_string(operand[first + j])
                + " but corresponding boolean dimension is " + std::to_string(mask[j]));
}

FUSOR_DEF selection select_by_mask(const shape_t& shape, const strides_t& strides, tensor<bool> m) {
    const std::size_t k = m.shape().size();
    if (k > shape.size())
        throw index_error("too many indices for array: array is " + std::to_string(shape.size())
                          + "-dimensional, but " + std::to_string(k) + " were indexed");
    check_mask_extent(shape, m.shape(), 0);
    selection s;
    s.by_mask = true;
    s.whole_mask = k == shape.size();
    // Branch-free: a random mask would mispredict every other branch.
    const bool* mb = m.data();
    index_t count = 0;
    for (index_t j = 0; j < m.size(); ++j)
        count += mb[j];
    s.count = count;
    for (index_t j = m.size(); j-- > 0 && s.last_true < 0;)
        if (mb[j])
            s.last_true = j;
    s.mask_strides = strides_t(strides.begin(), strides.begin() + static_cast<std::ptrdiff_t>(k));
    const std::optional<index_t> step = merged_step(m.shape(), s.mask_strides);
    s.mask_step = step ? *step : 0;
    s.mask = std::move(m);
    s.shape = shape_t{s.count};
    s.shape.insert(s.shape.end(), shape.begin() + static_cast<std::ptrdiff_t>(k), shape.end());
    set_inner(s,
              shape_t(shape.begin() + static_cast<std::ptrdiff_t>(k), shape.end()),
              strides_t(strides.begin() + static_cast<std::ptrdiff_t>(k), strides.end()));
    return s;
}

FUSOR_DEF std::vector<tensor<std::int64_t>> true_positions(const tensor<bool>& m) {
    const std::size_t k = m.shape().size();
    index_t count = 0;
    for (index_t j = 0; j < m.size(); ++j)
        count += m.data()[j];
    std::vector<tensor<std::int64_t>> out;
    for (std::size_t d = 0; d < k; ++d)
        out.emplace_back(shape_t{count}, uninitialized);
    shape_t pos(k, 0);
    index_t n = 0;
    for (index_t j = 0; j < m.size(); ++j) {
        if (m.data()[j]) {
            for (std::size_t d = 0; d < k; ++d)
                out[d].data()[n] = pos[d];
            ++n;
        }
        for (std::size_t d = k; d-- > 0;) {
            if (++pos[d] < m.shape()[d])
                break;
            pos[d] = 0;
        }
    }
    return out;
}

FUSOR_DEF selection select(const shape_t& shape,
                           const strides_t& strides,
                           std::vector<advanced_index>& items) {
    using K = advanced_index::kind;
    if (items.size() == 1 && items[0].k == K::mask && items[0].mask.rank() > 0)
        return select_by_mask(shape, strides, std::move(items[0].mask));

    std::size_t consumed = 0, dots = 0;
    for (const advanced_index& a : items) {
        if (a.k == K::integer || a.k == K::range || a.k == K::array)
            ++consumed;
        else if (a.k == K::mask)
            consumed += a.mask.shape().size();
        dots += a.k == K::dots;
    }
    if (dots > 1)
        throw index_error("an index can only have a single ellipsis ('...')");
    if (consumed > shape.size())
        throw index_error("too many indices for array: array is " + std::to_string(shape.size())
                          + "-dimensional, but " + std::to_string(consumed) + " were indexed");

    // One entry per axis of the basic view: its basic index, and for an index array (integers
    // and masks become index arrays here) the values and the operand axis they index.
    struct entry {
        view_index basic;
        bool is_array = false;
        const std::int64_t* values = nullptr;
        shape_t shape;
        index_t axis = 0; // for the out-of-bounds message
    };
    std::vector<entry> entries;
    const auto add_basic = [&](view_index v) {
        entry e;
        e.basic = std::move(v);
        entries.push_back(std::move(e));
    };
    // Masks' positions, 0-d masks' and integers' values. A deque: adding one moves none of the
    // others, whose elements (inline in a small tensor) the entries point at.
    std::deque<tensor<std::int64_t>> store;
    const auto hold = [&](tensor<std::int64_t> t) -> const tensor<std::int64_t>& {
        store.push_back(std::move(t));
        return store.back();
    };
    std::size_t axis = 0;
    const auto whole = [&](std::size_t n) {
        for (std::size_t j = 0; j < n; ++j, ++axis)
            add_basic(slice(none, none));
    };
    for (advanced_index& a : items) {
        switch (a.k) {
        case K::integer: {
            const index_t n = shape[axis];
            const index_t j = checked_index(a.integer, n, static_cast<index_t>(axis));
            tensor<std::int64_t> v(shape_t{}, uninitialized);
            v.data()[0] = j;
            entries.push_back({slice(none, none),
                               true,
                               hold(std::move(v)).data(),
                               shape_t{},
                               static_cast<index_t>(axis)});
            ++axis;
            break;
        }
        case K::range:
            add_basic(*a.range);
            ++axis;
            break;
        case K::new_axis:
            add_basic(newaxis);
            break;
        case K::dots:
            whole(shape.size() - consumed);
            break;
        case K::array:
            // A 0-d index array is an integer to NumPy (`x[np.array(-5)]`): checked whatever
            // the result, as the integers above.
            if (a.shape.empty())
                (void)checked_index(a.array_values()[0], shape[axis], static_cast<index_t>(axis));
            entries.push_back(
                {slice(none, none), true, a.array_values(), a.shape, static_cast<index_t>(axis)});
            ++axis;
            break;
        case K::mask:
            if (a.mask.rank() == 0) {
                // NumPy: a 0-d mask is a new axis of extent 1 indexed by [0] (true) or [] (false).
                tensor<std::int64_t> v(shape_t{a.mask.data()[0] ? 1 : 0});
                const std::int64_t* p = hold(std::move(v)).data();
                entries.push_back(
                    {newaxis, true, p, shape_t{a.mask.data()[0] ? 1 : 0}, index_t{0}});
            } else {
                check_mask_extent(shape, a.mask.shape(), axis);
                for (tensor<std::int64_t>& t : true_positions(a.mask)) {
                    const tensor<std::int64_t>& h = hold(std::move(t));
                    entries.push_back(
                        {slice(none, none), true, h.data(), h.shape(), static_cast<index_t>(axis)});
                    ++axis;
                }
            }
            break;
        }
    }
    if (dots == 0)
        whole(shape.size() - consumed);

    std::vector<view_index> basic;
    for (const entry& e : entries)
        basic.push_back(e.basic);
    const affine_map map = view_map(shape, basic);
    const shape_t& vshape = map.out_shape;
    const strides_t vstrides = map.apply_strides(strides);

    selection s;
    s.offset = map.apply_offset(strides);
    std::vector<std::size_t> arrays; // the view axes the index arrays index
    for (std::size_t p = 0; p < entries.size(); ++p)
        if (entries[p].is_array)
            arrays.push_back(p);
    shape_t b;
    try {
        for (const std::size_t p : arrays)
            b = broadcast_shapes(b, entries[p].shape);
    } catch (const broadcast_error&) {
        std::string msg = "shape mismatch: indexing arrays could not be broadcast together with "
                          "shapes";
        for (const std::size_t p : arrays)
            msg += " " + to_compact_string(entries[p].shape);
        throw index_error(msg);
    }
    // NumPy's placement: index arrays next to each other put the broadcast dimensions where
    // they stand; arrays separated by a slice or newaxis put them first.
    const bool adjacent = arrays.back() - arrays.front() + 1 == arrays.size();
    const std::size_t first = adjacent ? arrays.front() : 0;
    shape_t inner_shape;
    strides_t inner_strides;
    for (std::size_t p = 0; p < entries.size(); ++p) {
        if (entries[p].is_array)
            continue;
        if (adjacent && p < first) {
            s.outer_shape.push_back(vshape[p]);
            s.outer_strides.push_back(vstrides[p]);
        } else {
            inner_shape.push_back(vshape[p]);
            inner_strides.push_back(vstrides[p]);
        }
    }
    s.shape = s.outer_shape;
    s.shape.insert(s.shape.end(), b.begin(), b.end());
    s.shape.insert(s.shape.end(), inner_shape.begin(), inner_shape.end());
    set_inner(s, std::move(inner_shape), std::move(inner_strides));
    s.whole_mask = items.size() == 1 && items[0].k == K::mask && shape.empty();
    // NumPy 1.24 checks index arrays only when the result has elements (a DeprecationWarning
    // otherwise); integers and 0-d index arrays were checked above whatever the result.
    if (shape_size(s.shape) == 0)
        return s;
    const index_t rows = shape_size(b);
    s.count = rows;
    s.rows = allocate_elements<index_t>(static_cast<std::size_t>(rows));
    for (const std::size_t p : arrays) {
        const entry& e = entries[p];
        const index_t n = vshape[p], stride = vstrides[p];
        const index_t size = shape_size(e.shape);
        const bool first = p == arrays.front();
        if (e.shape == b) { // no broadcasting: one pass, in the array's own order
            for (index_t j = 0; j < size; ++j) {
                index_t& r = s.rows[static_cast<std::size_t>(j)];
                r = (first ? 0 : r) + wrapped_index(e.values[j], n, e.axis) * stride;
            }
            continue;
        }
        std::vector<index_t> at(static_cast<std::size_t>(size));
        for (index_t j = 0; j < size; ++j)
            at[static_cast<std::size_t>(j)] = wrapped_index(e.values[j], n, e.axis);
        // The array's row-major strides on the broadcast shape (0 where it is stretched).
        const strides_t own = row_major_strides(e.shape);
        strides_t bs(b.size(), 0);
        const std::size_t lead = b.size() - e.shape.size();
        for (std::size_t d = 0; d < e.shape.size(); ++d)
            if (e.shape[d] != 1)
                bs[lead + d] = own[d];
        index_t k = 0;
        for_each_offset(b, bs, [&](index_t off) {
            index_t& r = s.rows[static_cast<std::size_t>(k++)];
            r = (first ? 0 : r) + at[static_cast<std::size_t>(off)] * stride;
        });
    }
    return s;
}

} // namespace detail
} // namespace fusor
