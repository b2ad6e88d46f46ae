"""One module per operator, named after it: its declaration, its own checks, its semantics.

Each module registers its operator with :func:`sonnx_spec.registry.operator`;
:func:`sonnx_spec.registry.operators` imports them all, so a new module is a
new operator with no list to edit.
"""
