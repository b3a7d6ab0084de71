"""Read and cross-check the catalogue files; look services up by vertical, slug or alias."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Annotated

import yaml
from fastapi import Depends
from pydantic import ValidationError

from servicematch.deps import app_part

from .schema import Catalog, Category, ServiceConfig

SENDER_PLACEHOLDER = "{sender name}"


class CatalogError(Exception):
    """A catalogue file is missing, malformed or inconsistent."""


# libyaml's loader when the wheel has it: about ten times faster than the pure-Python one.
_YamlLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _read_yaml(path: Path) -> object:
    try:
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_YamlLoader)
    except FileNotFoundError as exc:
        raise CatalogError(f"missing catalogue file: {path}") from exc
    except yaml.YAMLError as exc:
        raise CatalogError(f"{path}: not valid YAML: {exc}") from exc


def _validate(model: type, data: object, source: str):
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise CatalogError(f"{source}: {exc}") from exc


@dataclass(frozen=True)
class CatalogIndex:
    """The validated catalogue plus the look-ups every caller needs."""

    catalog: Catalog
    by_vertical: dict[tuple[str, str], ServiceConfig] = field(default_factory=dict)
    by_slug: dict[str, ServiceConfig] = field(default_factory=dict)
    categories: dict[str, Category] = field(default_factory=dict)
    by_hidden_params: dict[tuple[str, str], ServiceConfig] = field(default_factory=dict)
    # "TX" -> "Texas", in the site's order; read by every lead check.
    state_names: dict[str, str] = field(default_factory=dict)

    def find(self, slug: str, vertical: str | None = None) -> ServiceConfig | None:
        """The service for a slug or alias, within a vertical when one is given.

        Without a vertical, a slug offered by two verticals (debt-relief) resolves to the
        first category that lists it, in catalogue order.
        """
        if vertical is not None:
            return self.by_vertical.get((vertical, slug))
        return self.by_slug.get(slug)

    def find_by_hidden_params(self, vertical: str, category: str) -> ServiceConfig | None:
        """The service a lead form submitted for: its payload names hiddenParams, not the slug."""
        return self.by_hidden_params.get((vertical, category))

    def tcpa_text(self, service: ServiceConfig, brand_name: str) -> str:
        """The consent text shown for a service, with the sender's name filled in."""
        text = service.tcpaText or self.catalog.site.defaultTcpaText
        return text.replace(SENDER_PLACEHOLDER, brand_name)


@lru_cache(maxsize=4)
def cached_catalog(root: Path) -> CatalogIndex:
    """The catalogue under `root`, loaded once per process: for the app and the worker's messages,
    which name services and are built far from the app. The catalogue is read-only (frozen
    models), so every app of a process can share one; a file that fails to load is not kept and
    fails again at the next start."""
    return load_catalog(root)


def load_catalog(root: Path) -> CatalogIndex:
    """Load every file under `root`, validate each, then check they agree with each other."""
    site = _read_yaml(root / "site.yaml")
    categories = _read_yaml(root / "categories.yaml")
    partners = _read_yaml(root / "marketing-partners.yaml")
    services = []
    for path in sorted((root / "services").glob("*/*.yaml")):
        data = _read_yaml(path)
        service = _validate(ServiceConfig, data, str(path))
        if (service.vertical, service.id) != (path.parent.name, path.stem):
            raise CatalogError(
                f"{path}: id and vertical ({service.vertical}/{service.id}) must match the path"
            )
        services.append(service)
    catalog = _validate(
        Catalog,
        {
            "site": site,
            "categories": categories,
            "services": [s.model_dump() for s in services],
            "marketingPartners": partners,
        },
        str(root),
    )
    return _index(catalog)


def _index(catalog: Catalog) -> CatalogIndex:
    by_vertical: dict[tuple[str, str], ServiceConfig] = {}
    for service in catalog.services:
        for slug in (service.id, *service.aliases):
            key = (service.vertical, slug)
            if key in by_vertical:
                raise CatalogError(f"{service.vertical}/{slug} is defined twice")
            by_vertical[key] = service

    categories = {c.id: c for c in catalog.categories}
    if len(categories) != len(catalog.categories):
        raise CatalogError("category ids repeat")
    by_slug: dict[str, ServiceConfig] = {}
    listed: set[tuple[str, str]] = set()
    for category in catalog.categories:
        for slug in category.services:
            service = by_vertical.get((category.id, slug))
            if service is None or service.id != slug:
                raise CatalogError(f"category {category.id!r} lists unknown service {slug!r}")
            listed.add((category.id, slug))
            for name in (service.id, *service.aliases):
                by_slug.setdefault(name, service)
    unlisted = [f"{s.vertical}/{s.id}" for s in catalog.services if (s.vertical, s.id) not in listed]
    if unlisted:
        raise CatalogError(f"services not listed by their category: {unlisted}")

    by_hidden_params: dict[tuple[str, str], ServiceConfig] = {}
    for service in catalog.services:
        key = (service.hiddenParams.vertical, service.hiddenParams.category)
        if key in by_hidden_params:
            raise CatalogError(f"hiddenParams {key} name two services; each pair must be unique")
        by_hidden_params[key] = service

    base_ids = {f.id for f in catalog.site.baseFields}
    for service in catalog.services:
        clash = [f.id for f in service.fields if f.id in base_ids and service.includeBaseFields]
        if clash:
            raise CatalogError(f"{service.vertical}/{service.id}: fields reuse base ids {clash}")
    return CatalogIndex(
        catalog=catalog, by_vertical=by_vertical, by_slug=by_slug, categories=categories,
        by_hidden_params=by_hidden_params, state_names={s["value"]: s["label"] for s in catalog.site.states},
    )


# What a route asks for to read the catalogue the app was started with.
CatalogDep = Annotated[CatalogIndex, Depends(app_part("catalog"))]
