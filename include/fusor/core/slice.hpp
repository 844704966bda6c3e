// fusor/core/slice.hpp: the index kinds `view(...)` takes: slice, integers, all, newaxis,
// ellipsis, and Python's slice arithmetic.
#pragma once

#include <optional>
#include <type_traits>

#include <fusor/core/error.hpp>
#include <fusor/core/shape.hpp>

namespace fusor {

/// Python's `None` in a slice: `slice(1, none)` is `1:`.
struct none_t {};
inline constexpr none_t none{};

/// `numpy.newaxis`: inserts an axis of extent 1 in `view(...)`.
struct newaxis_t {};
inline constexpr newaxis_t newaxis{};

/// Python's `...` in `view(...)`: as many whole axes as needed.
struct ellipsis_t {};
inline constexpr ellipsis_t ellipsis{};

/// A Python slice `start:stop:step`; `none` for an omitted bound. `slice(n)` is `:n`.
/// Bounds follow Python's rules (negative counts from the end, out-of-range bounds clamp,
/// never raise); a step of 0 throws `value_error` when the slice is applied.
/// Example: `fusor::slice(fusor::none, fusor::none, -1)` reverses an axis.
class slice {
public:
    template <class Stop>
        requires(std::is_integral_v<Stop> || std::is_same_v<Stop, none_t>)
    explicit slice(Stop stop) : stop_(bound(stop)) {}

    template <class Start, class Stop, class Step = index_t>
        requires((std::is_integral_v<Start> || std::is_same_v<Start, none_t>)&&(
            std::is_integral_v<
                Stop> || std::is_same_v<Stop, none_t>)&&(std::
                                                             is_integral_v<
                                                                 Step> || std::is_same_v<Step, none_t>))
    slice(Start start, Stop stop, Step step = 1)
        : start_(bound(start)), stop_(bound(stop)), step_(bound(step).value_or(1)) {}

    /// The resolved slice on an axis of extent `n`: first index, step and number of
    /// elements, as Python's `slice.indices(n)` (PySlice_AdjustIndices).
    struct resolved {
        index_t start, step, length;
    };
    resolved resolve(index_t n) const {
        if (step_ == 0)
            throw value_error("slice step cannot be zero");
        index_t start, stop;
        if (step_ > 0) {
            start = clamp_bound(start_.value_or(0), n, 0, n);
            stop = clamp_bound(stop_.value_or(n), n, 0, n);
            // Step 1 without the division: a 64-bit idiv was a quarter of making the view
            // (`x[1:] - x[:-1]` over 64 elements, perf).
            const index_t span = stop > start ? stop - start : 0;
            const index_t len = step_ == 1 || span == 0 ? span : (span - 1) / step_ + 1;
            return {start, step_, len};
        }
        start = start_ ? clamp_bound(*start_, n, -1, n - 1) : n - 1;
        stop = stop_ ? clamp_bound(*stop_, n, -1, n - 1) : -1;
        const index_t len = stop < start ? (start - stop - 1) / (-step_) + 1 : 0;
        return {start, step_, len};
    }

    std::optional<index_t> start() const { return start_; }
    std::optional<index_t> stop() const { return stop_; }
    index_t step() const { return step_; }

private:
    template <class B>
    static std::optional<index_t> bound(B b) {
        if constexpr (std::is_same_v<B, none_t>)
            return std::nullopt;
        else
            return static_cast<index_t>(b);
    }
    // A negative bound counts from the end; the result is clamped to [lo, hi].
    static index_t clamp_bound(index_t b, index_t n, index_t lo, index_t hi) {
        if (b < 0)
            b += n;
        return b < lo ? lo : (b > hi ? hi : b);
    }

    std::optional<index_t> start_, stop_;
    index_t step_ = 1;
};

} // namespace fusor
