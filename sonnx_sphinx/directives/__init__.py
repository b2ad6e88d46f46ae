"""The directives the pages use; each module registers its own."""
