"""One module per operator: its checks, each next to its rule id, then its semantics."""
