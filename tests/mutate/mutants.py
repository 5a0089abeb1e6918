"""
mutants.py: the one-line mutants of a C file, made by operators (make
mutate, tests/mutate/run.py).

Only code inside function bodies is mutated: comments, string and
character literals, preprocessor lines, and lines that only declare
(no initialiser, no call) are left alone, as are file-scope tables.
The operators, each applied at one place of one line:
  ror      a relational operator replaced: < by <= and >=, <= by < and >,
           > by >= and <=, >= by > and <, == by !=, != by ==
  bound    + 1 and - 1 on the left operand of a relational operator
           (`a < b` becomes `a + 1 < b`, `a - 1 < b`)
  logic    && by ||, || by &&; binary & by |, | by &
  drop     a whole one-line statement replaced by an empty one (not an
           assert(), a free() or a *_free())
  ternary  the two arms of `c ? x : y` swapped
  const    an integer literal n replaced by n + 1 and by n - 1 (0 by 1)
A mutant is (file, line number, operator, function, original line,
mutated line); its id, `file: function(): original  =>  mutated` with
blanks squeezed, does not depend on the line number, so the list of
equivalent mutants survives edits elsewhere in the file; the function
tells apart like lines of different functions (a `return 0;` that
matters from one that does not).
"""
import re

RELS = {
    "<": ("<=", ">="), "<=": ("<", ">"),
    ">": (">=", "<="), ">=": (">", "<"),
    "==": ("!=",), "!=": ("==",),
}

# First words of a line that declares (the drop and ternary operators and
# declaration-only lines are judged by them).
DECL_WORDS = {
    "const", "static", "struct", "union", "enum", "unsigned", "signed",
    "int", "long", "short", "char", "bool", "void", "double", "float",
    "size_t", "ssize_t", "sim_ns", "u8", "u16", "u32", "u64", "s32", "s64",
    "register", "volatile",
}
NO_DROP = {"assert", "free"}
STMT_WORDS = {"return", "break", "continue", "goto", "if", "else", "for",
              "while", "do", "switch", "case", "default"}


def code_mask(text):
    """Per character: True where it is code (not comment, string,
    character literal or preprocessor line)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            i += 1
            continue
        if line_start and c == "#":
            # a preprocessor line, with its continuations
            while i < n and not (text[i] == "\n" and text[i - 1] != "\\"):
                mask[i] = False
                i += 1
            continue
        line_start = c == "\n"
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if text[k] != "\n":
                    mask[k] = False
            i = j
            continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                mask[i] = False
                i += 1
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            for k in range(i, min(j + 1, n)):
                mask[k] = False
            i = j + 1
            continue
        i += 1
    return mask


def lines_with_masks(text):
    mask = code_mask(text)
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((line, mask[pos:pos + len(line)]))
        pos += len(line) + 1
    return out


def code_only(line, mask):
    """The line with everything that is not code blanked."""
    return "".join(c if m else " " for c, m in zip(line, mask))


def function_body_lines(lines):
    """Per line: the name of the function whose body the line starts in
    (brace depth at least 1, the outermost brace opened just after a
    `)`), or None.  The name is the last identifier before a `(` at the
    top level of the text before that brace."""
    inside = []
    depth, in_fn, prev, name, cand, paren = 0, False, "", None, None, 0
    last_id = None
    for line, mask in lines:
        inside.append(name if in_fn and depth > 0 else None)
        for m in re.finditer(r"[A-Za-z_]\w*|\S", code_only(line, mask)):
            t = m.group()
            if depth == 0:
                if t == "(":
                    if paren == 0 and last_id:
                        cand = last_id
                    paren += 1
                elif t == ")":
                    paren -= 1
                elif t == ";":
                    cand, paren = None, 0
                last_id = t if re.match(r"[A-Za-z_]", t) else None
            if t == "{":
                if depth == 0:
                    in_fn = prev == ")"
                    name = cand if in_fn else None
                depth += 1
            elif t == "}":
                depth -= 1
                if depth == 0:
                    cand, paren, name = None, 0, None
            prev = t[-1]
    return inside


TOKEN = re.compile(r"""
    (?P<num>0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*)(?![\w.])
  | (?P<id>[A-Za-z_]\w*)
  | (?P<op><<=|>>=|->|<<|>>|<=|>=|==|!=|&&|\|\||\+\+|--|[-+*/%<>=!&|^~?:;,(){}\[\].])
  | (?P<ws>\s+)
  | (?P<other>.)
""", re.X)


def tokens(code):
    return [(m.lastgroup, m.group(), m.start())
            for m in TOKEN.finditer(code) if m.lastgroup != "ws"]


def is_declaration(toks):
    """A line that declares and does nothing else: a type word first,
    then no `=` and no call."""
    if not toks:
        return False
    first = toks[0][1]
    if first not in DECL_WORDS and not first.endswith("_t"):
        return False
    if len(toks) < 2 or toks[1][1] in ("=", "(", "[", "->", ".", "++"):
        return False
    return not any(t[1] == "=" or t[1] == "(" for t in toks)


def left_operand_start(toks, k):
    """Index of the token where the left operand of the binary operator
    toks[k] starts, as far back as an opening bracket, a lower-precedence
    operator or the start of the expression."""
    depth = 0
    j = k - 1
    stop = {"&&", "||", "?", ":", "=", ",", ";", "(", "[", "{", "==", "!=",
            "<", ">", "<=", ">=", "return", "!", "+=", "-=", "|=", "&=", "&",
            "|", "^"}
    while j >= 0:
        t = toks[j][1]
        if t in (")", "]"):
            depth += 1
        elif t in ("(", "["):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and t in stop:
            break
        j -= 1
    return j + 1


def ternary_arms(toks, q):
    """(start of the `then` arm, `:` index, end of the `else` arm) of the
    `?` at toks[q], within the line, or None."""
    depth, colon = 0, None
    for j in range(q + 1, len(toks)):
        t = toks[j][1]
        if t in ("(", "["):
            depth += 1
        elif t in (")", "]"):
            if depth == 0:
                return None
            depth -= 1
        elif t == "?" and depth == 0:
            return None  # nested: leave alone
        elif t == ":" and depth == 0:
            colon = j
            break
    if colon is None:
        return None
    depth = 0
    for j in range(colon + 1, len(toks)):
        t = toks[j][1]
        if t in ("(", "["):
            depth += 1
        elif t in (")", "]"):
            if depth == 0:
                return (q + 1, colon, j)
            depth -= 1
        elif depth == 0 and t in (";", ",", "?", ":"):
            return (q + 1, colon, j) if t in (";", ",") else None
    return None


def const_values(text):
    m = re.match(r"(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)$", text)
    digits, suffix = m.group(1), m.group(2)
    if digits.lower().startswith("0x"):
        v = int(digits, 16)
        fmt = "0x%x"
    elif len(digits) > 1 and digits.startswith("0"):
        return []  # octal: leave alone
    else:
        v = int(digits)
        fmt = "%d"
    out = [v + 1] if v == 0 else [v + 1, v - 1]
    return [(fmt % w) + suffix for w in out]


def statement_start(prev_code, depth_at_start):
    return depth_at_start == 0 and (prev_code == "" or prev_code[-1] in ";{}"
                                    or prev_code[-1] == ")"
                                    or prev_code.endswith("else"))


def mutants(path, text):
    """Every mutant of the file: dicts with file, line (1-based), op,
    orig, mut."""
    lines = lines_with_masks(text)
    inside = function_body_lines(lines)
    out = []
    prev_code = ""
    paren = 0
    for no, ((line, mask), func) in enumerate(zip(lines, inside), 1):
        body = func is not None
        code = code_only(line, mask)
        toks = tokens(code)
        depth_at_start = paren
        for _, t, _ in toks:
            if t in ("(", "["):
                paren += 1
            elif t in (")", "]"):
                paren -= 1
        stripped = code.strip()
        prev = prev_code
        if stripped:
            prev_code = stripped
        if not body or not toks or is_declaration(toks):
            continue

        def add(op, start, end, repl):
            mut = line[:start] + repl + line[end:]
            if mut != line:
                out.append({"file": path, "line": no, "op": op,
                            "func": func, "orig": line, "mut": mut})

        for k, (kind, t, pos) in enumerate(toks):
            end = pos + len(t)
            if kind == "op" and t in RELS:
                for r in RELS[t]:
                    add("ror", pos, end, r)
                s = left_operand_start(toks, k)
                if s < k:
                    # insert before the operator, after the operand
                    lend = toks[k - 1][2] + len(toks[k - 1][1])
                    add("bound", lend, lend, " + 1")
                    add("bound", lend, lend, " - 1")
            elif kind == "op" and t in ("&&", "||"):
                add("logic", pos, end, "||" if t == "&&" else "&&")
            elif kind == "op" and t in ("&", "|") and k > 0 and \
                    (toks[k - 1][0] in ("id", "num") or
                     toks[k - 1][1] in (")", "]")) and \
                    toks[k - 1][1] not in STMT_WORDS:
                add("logic", pos, end, "|" if t == "&" else "&")
            elif kind == "op" and t == "?":
                arms = ternary_arms(toks, k)
                if arms:
                    a, c, e = arms
                    a0 = toks[a][2]
                    a1 = toks[c - 1][2] + len(toks[c - 1][1])
                    b0 = toks[c + 1][2]
                    b1 = toks[e - 1][2] + len(toks[e - 1][1])
                    mut = (line[:a0] + line[b0:b1] + line[a1:b0] +
                           line[a0:a1] + line[b1:])
                    if mut != line:
                        out.append({"file": path, "line": no,
                                    "op": "ternary", "func": func,
                                    "orig": line, "mut": mut})
            elif kind == "num":
                if k > 0 and toks[k - 1][1] == "[" and is_declaration(toks):
                    continue
                for v in const_values(t):
                    add("const", pos, end, v)

        # drop: a whole statement on this line, but assert(), free() and
        # the *_free() helpers:
        # an assertion that holds and memory given back change no
        # decision and no output (make asan and make valgrind see a
        # leak)
        first = toks[0][1]
        if (first not in NO_DROP and not first.endswith("_free") and
                statement_start(prev, depth_at_start) and stripped.endswith(";")
                and paren == depth_at_start and first not in STMT_WORDS - {
                    "break", "continue", "goto"}
                and first not in DECL_WORDS and not first.endswith("_t")
                and first != "case" and not
                (len(toks) > 2 and toks[0][0] == "id" and
                 toks[1][0] == "id") and
                not (toks[0][0] == "id" and len(toks) > 2 and
                     toks[1][1] == "*" and toks[2][0] == "id" and
                     toks[3:4] and toks[3][1] in ("=", ";"))):
            lead = len(line) - len(line.lstrip())
            tail = code.rstrip()
            add("drop", lead, len(tail), ";")
    return out


def mutant_id(m):
    squeeze = lambda s: " ".join(s.split())
    return "%s: %s(): %s  =>  %s" % (m["file"], m["func"],
                                    squeeze(m["orig"]), squeeze(m["mut"]))
