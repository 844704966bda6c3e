// tests/explain_text.hpp: explain's text as tests search it. The kernel line wraps at 100
// columns, its continuations 13 columns in (under the text after "kernel:  "); a phrase can
// span the break, so tests search the text with those continuations joined back.
#pragma once

#include <string>

namespace explain_text {

/// `text` with every line break followed by 13 spaces (a wrapped line's continuation) replaced
/// by one space.
inline std::string one_line(std::string text) {
    const std::string continuation = "\n" + std::string(13, ' ');
    for (std::size_t at = text.find(continuation); at != std::string::npos;
         at = text.find(continuation, at))
        text.replace(at, continuation.size(), " ");
    return text;
}

} // namespace explain_text
