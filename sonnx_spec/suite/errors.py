"""The suite tools' one error: a folder or file that is not what they need, said in one line."""


class SuiteError(Exception):
    """A suite folder that cannot be written or read, or an engine that cannot be loaded."""
