#!/usr/bin/python3
"""docs/api.md names every public name of fusor.

    api_complete.py SOURCE_DIR [--api FILE] [--list]

Extracts every name declared at namespace scope in `namespace fusor` and `namespace fusor::npy`
(not in the nested `detail`, `planning`, `exec`, `ops`, `reducers` or anonymous namespaces) by
any header under SOURCE_DIR/include/fusor: functions and function templates (also when
`template <...>`, `requires ...` and the return type are spread over several lines), operators,
structs, classes, enums, concepts, `using` aliases and variables (`inline constexpr ... all{};`).
Class members are not namespace-scope names; hidden friends are not either.

Then fails (exit 1, listing file:line of each) when a name is missing from docs/api.md (or
FILE). A name counts as present when it appears in an inline code span (`sum`, `sum(e, axis)`,
`fusor::std(x)`) as an identifier that is not a member (`.name`, `->name`), not qualified by
anything but `fusor::` (`std::min` does not count for `min`), not itself a qualifier
(`std::x` does not count for `std`) and not in a file name (`reduce/sort.hpp` does not count
for `sort`). Names of `fusor::npy` must appear as `npy::name`, those of `fusor::random` as
`random::name`.
An operator `operator+` counts as present when a code span contains `operator+` or is exactly
a use of it: `a + b`, `-a`, `os << t` (so `a += b` or `x + 1.0` in passing do not count).
Fenced code blocks do not count: a name must be documented in prose or tables.

`--list` prints every extracted name with its file and line, and checks nothing.
"""
import argparse
import pathlib
import re
import sys

PUBLIC_NAMESPACES = {("fusor",), ("fusor", "npy"), ("fusor", "random")}

# ---------------------------------------------------------------------------------------------
# Tokenizer: comments, string and character literals and preprocessor lines removed.

PUNCTUATORS = sorted(
    """<=> <<= >>= ... :: -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= ->*
    { } [ ] ( ) < > ; : , . ? ~ ! + - * / % ^ & | = #""".split(),
    key=len,
    reverse=True,
)
TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>(?:u8|u|U|L)?R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)"
      |(?:u8|u|U|L)?"(?:\\.|[^"\\\n])*"
      |(?:u8|u|U|L)?'(?:\\.|[^'\\\n])*')
  | (?P<number>\.?\d(?:[eEpP][+-]|[\w.]|')*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<punct>"""
    + "|".join(re.escape(p) for p in PUNCTUATORS)
    + r""")
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


class Token:
    __slots__ = ("text", "kind", "line")

    def __init__(self, text, kind, line):
        self.text, self.kind, self.line = text, kind, line

    def __repr__(self):
        return f"{self.text}@{self.line}"


def strip_preprocessor(source):
    """Blanks every preprocessor directive (with its continuation lines), keeping line numbers."""
    out, in_directive = [], False
    for line in source.split("\n"):
        starts = line.lstrip().startswith("#")
        if in_directive or starts:
            in_directive = line.rstrip().endswith("\\")
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def tokenize(source):
    """Tokens of `source` (preprocessor lines already blanked), each with its line number.
    One regex alternation reads comments and literals in order, so a `//` inside a string or
    a brace inside a comment or a character literal never counts."""
    tokens, line = [], 1
    for m in TOKEN_RE.finditer(source):
        kind = "string" if m.group("string") is not None else m.lastgroup
        value = m.group(0)
        if kind not in ("ws", "comment"):
            tokens.append(Token(value, kind, line))
        line += value.count("\n")
    return tokens


# ---------------------------------------------------------------------------------------------
# Declarations at namespace scope.

CLASS_KEYS = {"struct", "class", "union", "enum"}
SPECIFIERS = {
    "inline", "static", "constexpr", "consteval", "constinit", "extern", "thread_local",
    "friend", "explicit", "virtual", "typename", "mutable", "register",
}
# Identifiers followed by a parenthesised group that is not a declarator's parameter list.
PAREN_KEYWORDS = {"decltype", "noexcept", "alignas", "sizeof", "alignof", "requires",
                  "static_assert", "explicit", "throw", "__attribute__", "__declspec"}
OPERATOR_SYMBOLS = {p for p in PUNCTUATORS if p not in ("{", "}", ";", ":", "::", ".", "#", "?")}
MACRO_RE = re.compile(r"^[A-Z][A-Z0-9_]*$")


class Decl:
    def __init__(self, name, kind, namespace, file, line, defined):
        self.name, self.kind, self.namespace, self.file, self.line = (
            name, kind, namespace, file, line)
        self.defined = defined  # has a body or an initialiser (not a forward declaration)

    @property
    def qualified(self):
        return "::".join(self.namespace[1:] + (self.name,))


class Parser:
    def __init__(self, tokens, file):
        self.t = tokens
        self.file = file
        self.i = 0
        self.decls = []
        self.problems = []

    # -- helpers ------------------------------------------------------------------------------
    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    def skip_balanced(self, j, open_, close):
        """From index j (at `open_`), returns the index after the matching `close`."""
        depth = 0
        while j < len(self.t):
            x = self.t[j].text
            if x == open_:
                depth += 1
            elif x == close:
                depth -= 1
                if depth == 0:
                    return j + 1
            j += 1
        raise SyntaxError(f"{self.file}: unbalanced {open_!r}")

    # -- scopes -------------------------------------------------------------------------------
    def parse_scope(self, namespace):
        """Reads declarations until the `}` closing this namespace (True) or the end of the
        file (False)."""
        while self.i < len(self.t):
            tok = self.t[self.i]
            if tok.text == "}":
                self.i += 1
                return True
            if tok.text == ";":
                self.i += 1
                continue
            if tok.text == "namespace" or (tok.text == "inline" and self.peek(1)
                                           and self.peek(1).text == "namespace"):
                self.parse_namespace(namespace)
                continue
            if tok.text == "extern" and self.peek(1) and self.peek(1).kind == "string":
                self.i += 2  # extern "C" { ... } or extern "C" decl;
                if self.peek() and self.peek().text == "{":
                    self.i += 1
                    self.parse_scope(namespace)
                continue
            self.parse_declaration(namespace)
        return False

    def parse_namespace(self, namespace):
        if self.t[self.i].text == "inline":
            self.i += 1
        self.i += 1  # namespace
        parts = []
        while self.peek() and self.peek().text not in ("{", "=", ";"):
            x = self.peek().text
            if x not in ("::", "inline"):
                parts.append(x)
            self.i += 1
        if self.peek() and self.peek().text == "{":
            self.i += 1
            inner = namespace + (tuple(parts) if parts else ("(anonymous)",))
            if not self.parse_scope(inner):
                self.problems.append(f"{self.file}: namespace {'::'.join(inner)} is not closed")
        else:  # namespace alias: namespace a = b;
            while self.peek() and self.peek().text != ";":
                self.i += 1

    def parse_declaration(self, namespace):
        """Collects one declaration's tokens (bodies and brace initialisers dropped) and
        records the name it declares."""
        start = self.i
        decl = []
        paren = 0
        while self.i < len(self.t):
            tok = self.t[self.i]
            x = tok.text
            # A macro invocation standing alone (FUSOR_FLOAT_FUNCTION(exp, std::exp)).
            if not decl and tok.kind == "ident" and MACRO_RE.match(x) and self.peek(1) \
                    and self.peek(1).text == "(":
                self.i = self.skip_balanced(self.i + 1, "(", ")")
                return
            if x in ("(", "["):
                paren += 1
            elif x in (")", "]"):
                paren -= 1
            elif x == "}" and paren == 0:
                # An unterminated declaration at the end of a scope: leave the `}` to the scope.
                break
            elif x == ";" and paren == 0:
                self.i += 1
                break
            elif x == "{":
                if paren > 0:  # braces inside a parameter list: default arguments
                    end = self.skip_balanced(self.i, "{", "}")
                    decl.extend(self.t[self.i:end])
                    self.i = end
                    continue
                end = self.skip_balanced(self.i, "{", "}")
                shape = self.classify(decl)
                self.i = end
                if shape == "function":  # a body ends the declaration
                    decl.append(Token("{}", "body", tok.line))
                    break
                # a class body or a brace initialiser: the declaration goes on to its `;`
                decl.append(Token("{}", "body", tok.line))
                continue
            decl.append(tok)
            self.i += 1
        if self.i == start:  # never loop forever on an unexpected token
            self.i += 1
        if decl:
            self.record(decl, namespace)

    # -- analysis of one declaration ----------------------------------------------------------
    def strip_prefix(self, d):
        """Index of the first token after `template <...>` heads, a requires-clause,
        attributes and declaration specifiers."""
        j = 0
        while j < len(d):
            x = d[j].text
            if x == "template" and j + 1 < len(d) and d[j + 1].text == "<":
                j = self.skip_angles(d, j + 1)
            elif x == "requires":
                j = self.skip_requires(d, j + 1)
            elif x == "[" and j + 1 < len(d) and d[j + 1].text == "[":
                depth = 0
                while j < len(d):
                    depth += {"[": 1, "]": -1}.get(d[j].text, 0)
                    j += 1
                    if depth == 0:
                        break
            elif x in SPECIFIERS:
                j += 1
            elif d[j].kind == "ident" and MACRO_RE.match(x) and not (
                    j + 1 < len(d) and d[j + 1].text == "("):
                j += 1  # FUSOR_INLINE and other specifier macros
            elif x in ("__attribute__", "alignas", "__declspec"):
                j += 1
                if j < len(d) and d[j].text == "(":
                    j = self.skip_list(d, j, "(", ")")
            else:
                break
        return j

    @staticmethod
    def skip_list(d, j, open_, close):
        depth = 0
        while j < len(d):
            depth += 1 if d[j].text == open_ else -1 if d[j].text == close else 0
            j += 1
            if depth == 0:
                return j
        return j

    @staticmethod
    def skip_angles(d, j):
        """From d[j] == '<', the index after the matching '>' (parentheses and braces nest and
        hide their angle brackets; `>>` closes two levels)."""
        depth = 0
        while j < len(d):
            x = d[j].text
            if x in ("(", "["):
                j = Parser.skip_list(d, j, x, ")" if x == "(" else "]")
                continue
            if x == "<":
                depth += 1
            elif x == ">":
                depth -= 1
            elif x == ">>":
                depth -= 2
            j += 1
            if depth <= 0:
                return j
        return j

    def skip_requires(self, d, j):
        """After `requires`: skips a constraint-logical-or-expression of primaries
        (`(...)`, `!`-prefixed, `a::b<...>`, `true`), returns the index after it."""
        while j < len(d):
            while j < len(d) and d[j].text == "!":
                j += 1
            if j < len(d) and d[j].text == "(":
                j = self.skip_list(d, j, "(", ")")
            else:
                if j < len(d) and d[j].text == "::":
                    j += 1
                while j < len(d) and d[j].kind == "ident":
                    j += 1
                    if j < len(d) and d[j].text == "<":
                        j = self.skip_angles(d, j)
                    if j < len(d) and d[j].text == "::":
                        j += 1
                        continue
                    break
                if j < len(d) and d[j].text == "(":  # a call: requires f<T>()
                    j = self.skip_list(d, j, "(", ")")
            if j < len(d) and d[j].text in ("&&", "||"):
                j += 1
                continue
            return j
        return j

    def classify(self, d):
        """'class', 'function' or 'other' for a declaration whose `{` is next."""
        j = self.strip_prefix(d)
        if j < len(d) and d[j].text in CLASS_KEYS:
            return "class"
        return "function" if self.declarator(d, j)[1] == "function" else "other"

    def declarator(self, d, j):
        """(name token index, 'function' | 'variable' | None) of a function or variable
        declaration starting at d[j] (after the prefix)."""
        angle = 0
        last_name = None
        k = j
        while k < len(d):
            x, kind = d[k].text, d[k].kind
            if x == "operator":
                # operator+, operator(), operator<<, operator new[], conversion operators
                k += 1
                if k + 1 < len(d) and d[k].text == "(" and d[k + 1].text == ")":
                    last_name, k = ("operator()", k - 1), k + 2
                elif k + 1 < len(d) and d[k].text == "[" and d[k + 1].text == "]":
                    last_name, k = ("operator[]", k - 1), k + 2
                elif k < len(d) and d[k].text in OPERATOR_SYMBOLS:
                    last_name, k = ("operator" + d[k].text, k - 1), k + 1
                else:  # conversion operator: operator T
                    last_name = ("operator " + d[k].text, k - 1)
                    k += 1
                continue
            if kind == "ident" and x in PAREN_KEYWORDS and k + 1 < len(d) \
                    and d[k + 1].text == "(":
                k = self.skip_list(d, k + 1, "(", ")")
                continue
            if x == "<" and last_name is not None and angle >= 0 and d[k - 1].kind == "ident":
                k = self.skip_angles(d, k)
                continue
            if x == "(" and angle == 0:
                if last_name is None:
                    return None, None
                # `void (*fp)(int)`: a parenthesised declarator holds the name.
                if k + 1 < len(d) and d[k + 1].text in ("*", "&", "^"):
                    inner = [t for t in d[k + 1:self.skip_list(d, k, "(", ")")]
                             if t.kind == "ident"]
                    if inner:
                        return (inner[-1].text, d.index(inner[-1])), "variable"
                return last_name, "function"
            if x in ("=", "{}", "[") and angle == 0:
                return last_name, "variable" if last_name else None
            if kind == "ident":
                last_name = (x, k)
            k += 1
        return last_name, "variable" if last_name else None

    def record(self, d, namespace):
        j = self.strip_prefix(d)
        if j >= len(d):
            return
        first = d[j].text
        line = d[j].line
        name, kind = None, None
        if first in ("static_assert", "asm"):
            return
        if first == "using":
            if j + 1 < len(d) and d[j + 1].text == "namespace":
                return
            eq = next((k for k in range(j, len(d)) if d[k].text == "="), None)
            if eq is not None:
                name, kind = d[j + 1].text, "alias"
            else:  # using-declaration: using a::b;
                idents = [t for t in d[j + 1:] if t.kind == "ident"]
                if idents:
                    name, kind = idents[-1].text, "using-declaration"
        elif first == "typedef":
            idents = [t for t in d[j + 1:] if t.kind == "ident"]
            if idents:
                name, kind = idents[-1].text, "alias"
        elif first == "concept":
            name, kind = d[j + 1].text, "concept"
        elif first in CLASS_KEYS:
            k = j + 1
            if first == "enum" and k < len(d) and d[k].text in ("class", "struct"):
                k += 1
            while k < len(d) and (d[k].text in ("[", "alignas", "__attribute__")):
                k = self.skip_list(d, k + 1 if d[k].text != "[" else k, "(" if d[k].text != "["
                                   else "[", ")" if d[k].text != "[" else "]")
            if k < len(d) and d[k].kind == "ident":
                name = d[k].text
                kind = "enum" if first == "enum" else first
                # `struct x {...} y;` declares y too (not used in fusor, but not missed either)
                rest = [t for t in d[k + 1:] if t.kind in ("ident", "body")]
                if rest and rest[0].kind == "body" and len(rest) > 1 and rest[-1].kind == "ident":
                    self.add(rest[-1].text, "variable", namespace, rest[-1].line, True)
        else:
            found, what = self.declarator(d, j)
            if found is not None:
                name, kind = found[0], what
                line = d[found[1]].line
        if name is None:
            self.problems.append(f"{self.file}:{line}: cannot tell what this declares: "
                                 + " ".join(t.text for t in d[:20]))
            return
        defined = kind in ("alias", "concept", "using-declaration") or any(
            t.kind == "body" or t.text == "=" for t in d)
        self.add(name, kind, namespace, line, defined)

    def add(self, name, kind, namespace, line, defined):
        self.decls.append(Decl(name, kind, namespace, self.file, line, defined))


def extract(include_dir):
    decls, problems = [], []
    for path in sorted(include_dir.rglob("*.hpp")):
        source = strip_preprocessor(path.read_text(encoding="utf-8"))
        rel = path.relative_to(include_dir.parent)
        p = Parser(tokenize(source), str(rel))
        if p.parse_scope(()):
            p.problems.append(f"{rel}:{p.t[p.i - 1].line}: a `}}` closes nothing")
        decls += p.decls
        problems += p.problems
    public = [d for d in decls if d.namespace in PUBLIC_NAMESPACES]
    return public, problems


# ---------------------------------------------------------------------------------------------
# The extractor's own test: the forms fusor's headers use (and a few more), run before every
# check so that a regression in the extractor cannot pass silently.

SELF_TEST_SOURCE = r"""
#pragma once
#define MULTI_LINE_MACRO(NAME) \
    struct NAME {              \
    };
// a comment { with a brace
/* and } another */
namespace fusor {
namespace detail {
inline int hidden() { return 0; }
struct hidden_s {};
} // namespace detail
template <class E>
    requires expression<E> tensor<value_type_t<E>> f_req_ret(const E& e) {
        return {};
    }
template <class A, class B>
    requires detail::operand_pair<A, B>
auto f_req_multi(A&& a,
                 B&& b) {
    return a + b;
}
template <class X, class L>
    requires(expression<X>&& detail::operand<L>)
auto f_req_paren(X&& x, L&& lo) { return [](int) { return 1; }(0); }
template <class T>
concept c_concept = std::is_same_v<T, bool> || sizeof(T) > 2;
template <class A, class B>
using alias_t = std::conditional_t<(sizeof(A) > sizeof(B)), A, B>;
template <class From, class To>
constexpr bool var_tmpl = static_cast<int>(kind_of<From>()) <= static_cast<int>(kind_of<To>());
struct fwd_s;
struct tag_t {};
inline constexpr tag_t tag{};
inline constexpr reduction_fn<reducers::sum> brace_var{};
enum class e_kind { a = 0, b = 1 };
class c_cls : public base<int, 6> {
public:
    void member();
    friend bool operator==(const c_cls&, const c_cls&) { return true; }
};
inline std::ostream& operator<<(std::ostream& os, const c_cls& s) { return os << "{"; }
template <class A>
    requires expression<A>
auto operator~(A&& a) { return a; }
template <class A, class B>
    requires detail::operand_pair<A, B>
auto operator<(A&& a, B&& b) { return a; }
template <class T>
tensor<T> decl_only(const std::string& path);
inline shape_t default_brace(const shape_t& axes = {}, int n = int{3}) { return axes; }
template <class T = double>
tensor<T> default_tmpl(index_t n) { return {}; }
[[nodiscard]] inline int attr_fn() { return '}'; }
FUSOR_INLINE constexpr int macro_spec(int v) { return v; }
SOME_MACRO(a, b)
template <class S>
requires scalar<S> tensor<S>& req_ref(S s);
namespace npy {
inline constexpr std::string_view magic2 = "\x93NUMPY{";
struct hdr {
    std::string d;
};
namespace detail {
int nope();
}
} // namespace npy
template <class T>
constexpr kind kind_of2() {
    if constexpr (true) return kind::a; else return kind::b;
}
auto trailing(int x) -> decltype(x + 1) { return x + 1; }
template <class E>
    requires expression<E> explanation explain2(const E& e) {
        auto n = as_node(e);
        return {make_plan(n, contiguous_destination<typename decltype(n)::value_type>(n.shape()))};
    }
} // namespace fusor
namespace fusor::detail { struct lane {}; }
namespace fusor::ops { struct op {}; }
namespace other { int not_fusor(); }
"""
SELF_TEST_EXPECTED = {
    "f_req_ret", "f_req_multi", "f_req_paren", "c_concept", "alias_t", "var_tmpl", "fwd_s",
    "tag_t", "tag", "brace_var", "e_kind", "c_cls", "operator<<", "operator~", "operator<",
    "decl_only", "default_brace", "default_tmpl", "attr_fn", "macro_spec", "req_ref",
    "npy::magic2", "npy::hdr", "kind_of2", "trailing", "explain2",
}


def self_test():
    p = Parser(tokenize(strip_preprocessor(SELF_TEST_SOURCE)), "self-test")
    p.parse_scope(())
    got = {d.qualified for d in p.decls if d.namespace in PUBLIC_NAMESPACES}
    errors = [f"missed {n}" for n in sorted(SELF_TEST_EXPECTED - got)]
    errors += [f"wrongly found {n}" for n in sorted(got - SELF_TEST_EXPECTED)]
    errors += p.problems
    return errors


# ---------------------------------------------------------------------------------------------
# docs/api.md

def code_spans(markdown):
    """Contents of inline code spans, outside fenced code blocks; `\\|` unescaped (tables)."""
    prose, fenced = [], None
    for line in markdown.split("\n"):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if m:
            if fenced is None:
                fenced = m.group(1)
            elif m.group(1).startswith(fenced[:3]):
                fenced = None
            continue
        if fenced is None:
            prose.append(line)
    text = "\n".join(prose)
    spans = []
    for m in re.finditer(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", text, re.DOTALL):
        spans.append(m.group(2).replace("\\|", "|"))
    return spans


OP_CHARS = re.escape("+-*/%=<>!&|^~")
UNARY_SYMBOLS = {"-", "+", "!", "~"}


def present(decl, spans):
    name = decl.name
    if name.startswith("operator"):
        symbol = name[len("operator"):].strip()
        literal = re.compile(re.escape(name) + r"(?![" + OP_CHARS + "])")
        # A span that is exactly a use of the operator: `a + b`, `-a`, `os << t`.
        operand = r"\s*[A-Za-z_]\w*\s*"
        forms = [operand + re.escape(symbol) + operand]
        if symbol in UNARY_SYMBOLS:
            forms.append(r"\s*" + re.escape(symbol) + operand)
        use = re.compile("^(?:" + "|".join(forms) + ")$")
        return any(literal.search(s) or use.match(s) for s in spans)
    if decl.namespace in (("fusor", "npy"), ("fusor", "random")):
        sub = decl.namespace[1]
        qualifier = r"(?:(?<![\w:.])|(?<![\w:])fusor::)" + sub + "::"
        pattern = re.compile(qualifier + re.escape(name) + r"(?![\w]|::)")
    else:
        # Not a member (.x, ->x), not qualified by anything but fusor:: (std::min is not min),
        # not itself a qualifier (std:: is not std).
        # Nor part of a file name (`reduce/sort.hpp` is not `sort`).
        pattern = re.compile(r"(?:(?<![\w:.>/])|(?<![\w:])fusor::)" + re.escape(name)
                             + r"(?!\w|::|\.(?:hpp|cpp|md|py)\b)")
    return any(pattern.search(s) for s in spans)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source_dir", type=pathlib.Path)
    ap.add_argument("--api", type=pathlib.Path, help="the page to check (default docs/api.md)")
    ap.add_argument("--list", action="store_true", help="print the extracted names and stop")
    args = ap.parse_args()

    include_dir = args.source_dir / "include" / "fusor"
    if not include_dir.is_dir():
        print(f"api_complete: no headers under {include_dir}", file=sys.stderr)
        return 2
    errors = self_test()
    if errors:
        print("api_complete: the extractor fails its self-test: " + "; ".join(errors))
        return 1
    public, problems = extract(include_dir)
    if problems:
        print("api_complete: headers the extractor could not read (fix the header or the extractor):")
        for p in problems:
            print("  " + p)
        return 1

    # One entry per qualified name; its place is the first definition (else declaration) seen.
    names = {}
    for d in public:
        if d.qualified not in names or (d.defined and not names[d.qualified].defined):
            names[d.qualified] = d
    if args.list:
        for q, d in sorted(names.items()):
            print(f"{q:32} {d.kind:18} {d.file}:{d.line}")
        print(f"{len(names)} public names")
        return 0

    api = args.api or args.source_dir / "docs" / "api.md"
    try:
        spans = code_spans(api.read_text(encoding="utf-8"))
    except OSError as e:
        print(f"api_complete: cannot read {api}: {e}", file=sys.stderr)
        return 2
    missing = [d for q, d in sorted(names.items()) if not present(d, spans)]
    if missing:
        print(f"api_complete: {len(missing)} of {len(names)} public names are not documented "
              f"in {api}:")
        for d in missing:
            print(f"  {d.qualified:32} ({d.kind}, {d.file}:{d.line})")
        print("Document each in backticks (e.g. `name(args)`), or move it into namespace detail.")
        return 1
    print(f"api_complete: all {len(names)} public names of fusor, fusor::npy and fusor::random "
          f"({len(public)} declarations in {len({d.file for d in public})} headers) "
          f"are documented in {api}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
