"""The formal harness: runs the Why3 specifications of formal/ (proofs, mutants, the pages' examples)."""
