"""A Pygments lexer for WhyML, so that the formal specifications are highlighted.

Pygments has none; the OCaml lexer stumbles on Why3's syntax (``(* *)`` aside,
``'vc`` names, ``->``/``<->``/``/\\`` connectives) and Sphinx warns.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text
from sphinx.application import Sphinx

KEYWORDS = (
    "theory",
    "module",
    "end",
    "use",
    "import",
    "export",
    "clone",
    "with",
    "type",
    "constant",
    "function",
    "predicate",
    "inductive",
    "axiom",
    "lemma",
    "goal",
    "let",
    "rec",
    "val",
    "in",
    "if",
    "then",
    "else",
    "match",
    "requires",
    "ensures",
    "returns",
    "raises",
    "reads",
    "writes",
    "variant",
    "invariant",
    "assert",
    "assume",
    "check",
    "forall",
    "exists",
    "not",
    "true",
    "false",
    "ghost",
    "mutable",
    "private",
    "pure",
    "while",
    "do",
    "done",
    "for",
    "to",
    "downto",
    "begin",
    "fun",
    "as",
    "by",
    "so",
    "at",
    "old",
    "epsilon",
    "exception",
    "raise",
    "try",
    "meta",
    "range",
    "float",
    "scope",
    "absurd",
    "partial",
    "label",
    "diverges",
)


class Why3Lexer(RegexLexer):
    name = "WhyML"
    aliases = ["why3", "whyml"]
    filenames = ["*.mlw", "*.why"]

    tokens = {
        "root": [
            (r"\(\*", Comment.Multiline, "comment"),
            (r"\s+", Text),
            (r'"[^"]*"', String),
            (r"\[@[^\]]*\]", Comment.Preproc),  # attributes such as [@expl:...]
            (words(KEYWORDS, suffix=r"\b"), Keyword),
            (r"\b[A-Z][A-Za-z0-9_']*", Name.Namespace),
            (r"\b[a-z_][A-Za-z0-9_']*", Name),
            (r"\b\d+(\.\d+)?([eE][+-]?\d+)?\b", Number),
            (r"(/\\|\\/|->|<->|<-|<=|>=|<>|=|<|>|\+\.?|-\.?|\*\.?|/\.?|&&|\|\||:=|\.\.|!)", Operator),
            (r"[()\[\]{};:,.|'~]", Punctuation),
            (r".", Text),
        ],
        "comment": [
            (r"[^(*)]+", Comment.Multiline),
            (r"\(\*", Comment.Multiline, "#push"),
            (r"\*\)", Comment.Multiline, "#pop"),
            (r"[(*)]", Comment.Multiline),
        ],
    }


def setup(app: Sphinx) -> dict:
    app.add_lexer("why3", Why3Lexer)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
