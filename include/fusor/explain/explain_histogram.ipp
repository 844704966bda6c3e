// fusor/explain/explain_histogram.ipp: the definitions of explain_histogram.hpp's non-template
// functions, included at its end (header-only, the default) or compiled once by fusor/src.hpp
// (FUSOR_SEPARATE_COMPILATION: docs/api.md, "Separate compilation").
#pragma once

#include <fusor/explain/explain_histogram.hpp>

namespace fusor {
namespace detail {

FUSOR_DEF std::string number_text(double v) {
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    return std::string(buf, end);
}

FUSOR_DEF std::string read_text(const read_plan& r, std::string_view dtype, const shape_t& shape) {
    const chunking& c = r.chunks;
    std::string s;
    switch (r.mode) {
    case read_mode::in_place:
        s = "in place (its elements in row-major order)";
        break;
    case read_mode::whole:
        s = "evaluated whole into a temporary first (it holds a reduction or a reshape copy), "
            "then in place";
        break;
    case read_mode::chunks:
        if (c.axis < 0)
            s = "evaluated by one fused loop into a buffer of its "
                + std::to_string(shape_size(shape)) + " " + std::string(dtype) + " elements";
        else
            s = "in " + std::to_string(c.count()) + " chunks of " + to_string(c.chunk_shape) + " ("
                + std::to_string(shape_size(c.chunk_shape)) + " elements, axis "
                + std::to_string(c.axis) + " cut every " + std::to_string(c.rows)
                + "), each evaluated by one fused loop into a buffer of one chunk and binned "
                  "while in cache; never stored whole";
        break;
    }
    return s;
}

FUSOR_DEF void indent_into(std::string& out, const std::string& text, const char* prefix) {
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::size_t stop = end == std::string::npos ? text.size() : end;
        out += prefix;
        out.append(text, start, stop - start);
        out += '\n';
        start = stop + 1;
    }
}

} // namespace detail
} // namespace fusor

namespace fusor {

FUSOR_DEF std::string histogram_explanation::text() const {
    using detail::wrapped;
    const histogram_plan& p = plan;
    const std::string result =
        std::string(p.hist_dtype) + (p.density ? " densities" : (p.weighted ? " sums" : " counts"));
    std::string s =
        wrapped("fusor::explain_histogram: " + std::to_string(p.bins)
                    + (p.explicit_edges ? " bins between given edges" : " uniform bins") + " of "
                    + std::string(p.dtype) + " " + to_string(p.shape) + " data"
                    + (p.weighted ? ", weighted by " + std::string(p.weights_dtype) : "") + " -> "
                    + result + "; " + std::to_string(passes.size())
                    + (passes.size() == 1 ? " pass" : " passes") + " over the operands",
                2);
    s += wrapped("data: " + detail::read_text(p.data, p.dtype, p.shape), 6);
    if (p.weighted)
        s += wrapped("weights: " + detail::read_text(p.weights, p.weights_dtype, p.shape), 9);
    if (p.edges_evaluated)
        s += "edges: an expression, evaluated into a temporary first\n";
    switch (p.range) {
    case histogram_range::given:
        s += "range: given, [" + detail::number_text(p.lo) + ", " + detail::number_text(p.hi)
             + "]\n";
        break;
    case histogram_range::data:
        s += "range: the data's minimum and maximum, found first (two reductions over it)\n";
        break;
    case histogram_range::unit:
        s += "range: (0, 1) (no data, as NumPy)\n";
        break;
    case histogram_range::none:
        break;
    }
    s += wrapped(p.explicit_edges ? "bins: a binary search over the edges per value"
                                  : "bins: (x - lo) * (bins / (hi - lo)) per value in NumPy's "
                                    "types, then NumPy's two corrections against the edges",
                 6);
    for (std::size_t k = 0; k < passes.size(); ++k) {
        const histogram_pass& q = passes[k];
        s += "pass " + std::to_string(k + 1) + ": " + detail::pass_text(q.what)
             + (q.times == 1 ? std::string(", once") : ", " + std::to_string(q.times) + " times")
             + "\n";
        detail::indent_into(s, q.loops.text(), "  | ");
    }
    return s;
}

FUSOR_DEF std::string histogram_explanation::json() const {
    const histogram_plan& p = plan;
    const auto read_json = [](const read_plan& r) {
        return std::string("\"") + detail::read_mode_name(r.mode) + "\"";
    };
    const chunking& c = p.data.chunks;
    std::string s = "{\"format\":\"fusor.explain_histogram/1\",\"bins\":" + std::to_string(p.bins)
                    + ",\"binning\":\"" + (p.explicit_edges ? "edges" : "uniform")
                    + "\",\"range\":{\"from\":\"" + detail::range_name(p.range) + "\"";
    if (p.range == histogram_range::given)
        s += ",\"lo\":" + detail::number_text(p.lo) + ",\"hi\":" + detail::number_text(p.hi);
    s += "},\"data\":{\"dtype\":\"" + std::string(p.dtype)
         + "\",\"shape\":" + detail::json_ints(p.shape) + ",\"read\":" + read_json(p.data) + "}";
    s += ",\"weights\":";
    if (p.weighted)
        s += "{\"dtype\":\"" + std::string(p.weights_dtype) + "\",\"read\":" + read_json(p.weights)
             + "}";
    else
        s += "null";
    s += ",\"chunks\":{\"axis\":" + std::to_string(c.axis) + ",\"rows\":" + std::to_string(c.rows)
         + ",\"outer\":" + std::to_string(c.outer) + ",\"full\":" + std::to_string(c.full)
         + ",\"rest\":" + std::to_string(c.rest)
         + ",\"chunk_shape\":" + detail::json_ints(c.chunk_shape)
         + ",\"short_shape\":" + detail::json_ints(c.short_shape) + "}";
    s += ",\"result\":{\"dtype\":\"" + std::string(p.hist_dtype)
         + "\",\"density\":" + (p.density ? "true" : "false") + "},\"passes\":[";
    for (std::size_t k = 0; k < passes.size(); ++k) {
        std::string loops = passes[k].loops.json();
        if (!loops.empty() && loops.back() == '\n')
            loops.pop_back();
        s += std::string(k ? "," : "") + "{\"what\":\"" + detail::pass_name(passes[k].what)
             + "\",\"times\":" + std::to_string(passes[k].times) + ",\"plan\":" + loops + "}";
    }
    return s + "]}\n";
}

} // namespace fusor
