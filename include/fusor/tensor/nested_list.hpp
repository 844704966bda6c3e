// fusor/tensor/nested_list.hpp: the nested braced lists a tensor is made from (`tensor<int>
// t = {{1, 2}, {3, 4}};`) and a view is assigned from (`view(x, 0) = {7, 8, 9};`).
#pragma once

#include <cstddef>
#include <initializer_list>

namespace fusor::detail {

// One element of a 1-d initializer list. Its converting constructor makes `{1.0}` a worse
// match for it than for a row of a 2-d list, so `{{1.0}, {2.0}}` is the (2, 1) column rather
// than an ambiguity between a 1-d list of two one-element braces and a 2-d list of two rows.
template <class T>
struct list_element {
    T value;
    list_element(T v) : value(v) {}
};

// Nested initializer lists of depth N: {{1, 2}, {3, 4}} is nested_list<T, 2>; the elements of
// the 1-d list are list_elements, those of deeper lists plain T.
template <class T, std::size_t N>
struct raw_list {
    using type = std::initializer_list<typename raw_list<T, N - 1>::type>;
};
template <class T>
struct raw_list<T, 0> {
    using type = T;
};
template <class T, std::size_t N>
struct nested_list : raw_list<T, N> {};
template <class T>
struct nested_list<T, 1> {
    using type = std::initializer_list<list_element<T>>;
};

} // namespace fusor::detail
