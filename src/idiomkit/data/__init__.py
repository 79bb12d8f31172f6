"""Data sources: typed records and strict loaders (one module per dataset)."""

from idiomkit.data.errors import DataError

__all__ = ["DataError"]
