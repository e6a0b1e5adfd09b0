"""Card, skill-token and objective data, validated on load: `load_catalog()`."""

from keystone.data.catalog import Catalog, CatalogError, build_catalog, load_catalog, slug

__all__ = ["Catalog", "CatalogError", "build_catalog", "load_catalog", "slug"]
