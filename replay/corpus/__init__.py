"""The corpus: source texts, clauses, the ambiguity register, glossary, games and layouts (``corpus/``)."""
