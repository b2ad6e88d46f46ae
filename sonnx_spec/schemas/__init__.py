"""The JSON Schema of the documents the tools print and write (``sonnx-spec.schema.json``), published on the
site's model tools page; the tests validate every kind of document against it."""
