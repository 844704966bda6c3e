// fusor/explain/explain_histogram.hpp: explain_histogram, what `histogram` will run for the
// same arguments: its plan (how the data and the weights are read, the bins, the range) and,
// for every pass over the data, the loops of that pass as `explain` shows them.
#pragma once

#include <charconv>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <fusor/algo/chunked_read.hpp>
#include <fusor/algo/histogram.hpp>
#include <fusor/config.hpp>
#include <fusor/core/dtype.hpp>
#include <fusor/explain/explain.hpp>
#include <fusor/reduce/reduction.hpp>
#include <fusor/tensor/tensor.hpp>

namespace fusor {

/// One pass of a histogram over its operands: which, how often it runs, and its loops.
struct histogram_pass {
    /// What the pass computes, in running order (`data_whole`, then the range or the edges,
    /// then `weights_whole`, then the chunk passes, a chunk's data before its weights, then
    /// `density_total`).
    enum class role {
        data_whole,          ///< the data (holding a reduction) evaluated into a temporary
        range_min,           ///< the data's minimum (no range given)
        range_max,           ///< the data's maximum (no range given)
        edges_whole,         ///< explicit edges given as an expression, evaluated first
        weights_whole,       ///< the weights (holding a reduction) evaluated into a temporary
        data_chunk,          ///< a full chunk of the data evaluated into the chunk buffer
        data_short_chunk,    ///< a run's short last chunk of the data
        weights_chunk,       ///< a full chunk of the weights
        weights_short_chunk, ///< a run's short last chunk of the weights
        density_total,       ///< `density`: the sum of the counts (or weights) over the bins
    };
    role what;
    index_t times;     ///< how many times it runs
    explanation loops; ///< its loops, as `explain` renders them
};

/// What `explain_histogram` returns: the plan `histogram` runs for the same arguments and the
/// loops of each pass over the data, printable as text or JSON.
struct histogram_explanation {
    histogram_plan plan;                ///< the decisions `histogram` runs by
    std::vector<histogram_pass> passes; ///< every loop over the operands, in running order
    explain_format format = explain_format::text;

    /// The text form: a header (bins, data, result), how the data (and weights) are read, the
    /// bins, then each pass with its `explain` text indented (docs/explain.md, "histogram").
    FUSOR_DECL std::string text() const;
    /// The JSON form, one line: `{"format": "fusor.explain_histogram/1", "bins", "binning",
    /// "range", "data", "weights", "chunks", "result", "passes": [{"what", "times", "plan"}]}`
    /// with each pass's `plan` the JSON of its `explanation`.
    FUSOR_DECL std::string json() const;

    /// Prints `text()` or `json()`, as `format` says.
    FUSOR_LAZY friend std::ostream& operator<<(std::ostream& os, const histogram_explanation& e) {
        return os << (e.format == explain_format::json ? e.json() : e.text());
    }
};

namespace detail {

inline const char* pass_name(histogram_pass::role r) {
    switch (r) {
    case histogram_pass::role::data_whole:
        return "data_whole";
    case histogram_pass::role::range_min:
        return "range_min";
    case histogram_pass::role::range_max:
        return "range_max";
    case histogram_pass::role::edges_whole:
        return "edges_whole";
    case histogram_pass::role::weights_whole:
        return "weights_whole";
    case histogram_pass::role::data_chunk:
        return "data_chunk";
    case histogram_pass::role::data_short_chunk:
        return "data_short_chunk";
    case histogram_pass::role::weights_chunk:
        return "weights_chunk";
    case histogram_pass::role::weights_short_chunk:
        return "weights_short_chunk";
    case histogram_pass::role::density_total:
        return "density_total";
    }
    return "";
}

inline const char* pass_text(histogram_pass::role r) {
    switch (r) {
    case histogram_pass::role::data_whole:
        return "the data, evaluated whole into a temporary";
    case histogram_pass::role::range_min:
        return "the range: the data's minimum";
    case histogram_pass::role::range_max:
        return "the range: the data's maximum";
    case histogram_pass::role::edges_whole:
        return "the edges, evaluated into a temporary";
    case histogram_pass::role::weights_whole:
        return "the weights, evaluated whole into a temporary";
    case histogram_pass::role::data_chunk:
        return "a chunk of the data into the chunk buffer";
    case histogram_pass::role::data_short_chunk:
        return "a run's short last chunk of the data into the chunk buffer";
    case histogram_pass::role::weights_chunk:
        return "a chunk of the weights into their chunk buffer";
    case histogram_pass::role::weights_short_chunk:
        return "a run's short last chunk of the weights into their chunk buffer";
    case histogram_pass::role::density_total:
        return "the densities' total: the sum over the bins";
    }
    return "";
}

inline const char* read_mode_name(read_mode m) {
    switch (m) {
    case read_mode::in_place:
        return "in_place";
    case read_mode::chunks:
        return "chunks";
    case read_mode::whole:
        return "whole";
    }
    return "";
}

inline const char* range_name(histogram_range r) {
    switch (r) {
    case histogram_range::given:
        return "given";
    case histogram_range::data:
        return "data";
    case histogram_range::unit:
        return "unit";
    case histogram_range::none:
        return "none";
    }
    return "";
}

// The shortest text that reads back as `v` (JSON's number form too).
FUSOR_DECL std::string number_text(double v);

// The chunk passes of one operand read in chunks: a full chunk, and a run's short chunk.
template <class E>
void add_chunk_passes(std::vector<histogram_pass>& out,
                      const E& e,
                      const chunking& c,
                      histogram_pass::role full,
                      histogram_pass::role short_one) {
    if (shape_size(e.shape()) == 0)
        return;
    if (c.axis < 0) { // one chunk: the operand itself
        out.push_back({full, 1, explain(e)});
        return;
    }
    if (c.full > 0)
        out.push_back({full, c.outer * c.full, explain(chunk_of(e, first_chunk_index(c, false)))});
    if (c.rest > 0)
        out.push_back({short_one, c.outer, explain(chunk_of(e, first_chunk_index(c, true)))});
}

// The passes of `histogram(e, ..., opts...)` under `p`, in running order.
template <class E, class... O>
std::vector<histogram_pass>
histogram_passes(const histogram_plan& p, const E& e, const O&... opts) {
    using T = value_type_t<E>;
    using Opt = histogram_options<O...>;
    const Opt opt(opts...);
    std::vector<histogram_pass> out;
    using role = histogram_pass::role;
    if (p.data.mode == read_mode::whole)
        out.push_back({role::data_whole, 1, explain(e)});
    if (p.range == histogram_range::data) {
        // The range is found on what the data is read from: the temporary, when evaluated
        // whole. explain plans its reductions over an uninitialised tensor of that shape (its
        // pages are never touched: nothing is read or written).
        if constexpr (chunkable<E>) {
            out.push_back({role::range_min, 1, explain(fusor::min(e))});
            out.push_back({role::range_max, 1, explain(fusor::max(e))});
        } else {
            const tensor<T> whole(p.shape, uninitialized);
            out.push_back({role::range_min, 1, explain(fusor::min(whole))});
            out.push_back({role::range_max, 1, explain(fusor::max(whole))});
        }
    }
    if constexpr (Opt::weighted) {
        if (p.weights.mode == read_mode::whole)
            out.push_back({role::weights_whole, 1, explain(*opt.weights)});
    }
    if (p.data.mode == read_mode::chunks) {
        if constexpr (chunkable<E>)
            add_chunk_passes(out, e, p.data.chunks, role::data_chunk, role::data_short_chunk);
    }
    if constexpr (Opt::weighted) {
        using WN = typename Opt::weights_type;
        if (p.weights.mode == read_mode::chunks) {
            if constexpr (chunkable<WN>)
                add_chunk_passes(out,
                                 *opt.weights,
                                 p.weights.chunks,
                                 role::weights_chunk,
                                 role::weights_short_chunk);
        }
    }
    if (p.density && p.bins > 0) {
        using H = typename weight_value<typename Opt::weights_type>::type;
        const tensor<H> bins(shape_t{p.bins}, uninitialized); // planned over, never read
        out.push_back({role::density_total, 1, explain(fusor::sum(bins))});
    }
    return out;
}

FUSOR_DECL std::string read_text(const read_plan& r, std::string_view dtype, const shape_t& shape);

FUSOR_DECL void indent_into(std::string& out, const std::string& text, const char* prefix);

} // namespace detail

/// `explain_histogram(e, bins = 10, options…)`, `explain_histogram(e, edges, options…)`: what
/// `histogram` with the same arguments runs, without running it: its plan (how `e` and the
/// weights are read: in place, a chunk of 32768 elements at a time through one fused loop, or
/// evaluated whole first; where the range comes from; uniform bins or a search over edges) and,
/// for every pass over the operands, that pass's loops as `explain` prints them, with how many
/// times it runs. Nothing is read or computed (the data's range, when it comes from the data,
/// is shown as the two reductions that find it). Example:
/// `std::cout << fusor::explain_histogram(a * b + c, 100, fusor::range{-3, 3});`
/// Arguments as `histogram`'s; nothing is checked (the errors `histogram` throws come from the
/// values), except what `explain` checks (checked mode's lifetimes).
template <class E, class I, class... O>
    requires(expression<E>&& std::is_integral_v<I> && (detail::histogram_option<O> && ...))
histogram_explanation explain_histogram(const E& e, I bins, const O&... opts) {
    histogram_explanation x;
    x.plan = detail::plan_histogram(e, static_cast<index_t>(bins), -1, true, opts...);
    x.passes = detail::histogram_passes(x.plan, e, opts...);
    return x;
}
template <class E, class... O>
    requires(expression<E> && (detail::histogram_option<O> && ...))
histogram_explanation explain_histogram(const E& e, const O&... opts) {
    return explain_histogram(e, 10, opts...);
}
template <class E, class B, class... O>
    requires(expression<E>&& expression<B> && (detail::histogram_option<O> && ...))
histogram_explanation explain_histogram(const E& e, const B& edges, const O&... opts) {
    histogram_explanation x;
    x.plan = detail::plan_histogram(e, 0, edges.size(), detail::flat_in_place(edges), opts...);
    x.passes = detail::histogram_passes(x.plan, e, opts...);
    if (x.plan.edges_evaluated) // after the data's own pass, before the chunks
        x.passes.insert(x.passes.begin() + (x.plan.data.mode == read_mode::whole ? 1 : 0),
                        histogram_pass{histogram_pass::role::edges_whole, 1, explain(edges)});
    return x;
}

} // namespace fusor

#ifndef FUSOR_SEPARATE_COMPILATION
#include <fusor/explain/explain_histogram.ipp>
#endif
