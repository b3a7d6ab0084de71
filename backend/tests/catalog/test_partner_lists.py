"""The published marketing-partners lists: the catalogue's partners plus every company that can
receive a consumer's details, a new version only when the names change, served to the modal."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select

from servicematch.catalog.partners import (
    VERSION_LENGTH,
    PartnerListVersion,
    current_partner_list,
    latest_version,
    publish_at_start_up,
)
from servicematch.delivery.models import Provider
from servicematch.kernel.clock import utcnow
from servicematch.routing import buyers as directory


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"admin_token": "admin-token"})


def versions(app) -> int:
    with app.state.session_factory() as session:
        return session.scalar(select(func.count()).select_from(PartnerListVersion))


def shown(client: TestClient) -> dict:
    answer = client.get("/api/marketing-partners")
    assert answer.status_code == 200
    return answer.json()


def add_buyer(app, name: str) -> str:
    with app.state.session_factory() as session:
        buyer = directory.add_buyer(session, directory.BuyerTerms(name=name, post_url="http://127.0.0.1:9/post",
                                                                  price_cents=1000), allow_private=True)
        session.commit()
        return buyer.id


def test_start_up_publishes_the_catalogue_list_once(app, client):
    catalogue = app.state.catalog.catalog.marketingPartners
    body = shown(client)

    assert sorted(body["partners"], key=str.casefold) == sorted(catalogue.partners, key=str.casefold)
    assert body["note"] == catalogue.note
    assert body["version"] != catalogue.version and len(body["version"]) <= VERSION_LENGTH
    assert versions(app) == 1
    # Started again with the same catalogue: the same list, no new version.
    publish_at_start_up(app.state.session_factory, marketing_partners=catalogue, settings=app.state.settings)
    assert versions(app) == 1 and shown(client)["version"] == body["version"]


def test_a_changed_catalogue_list_publishes_at_start_up(app, client):
    catalogue = app.state.catalog.catalog.marketingPartners
    before = shown(client)["version"]
    changed = catalogue.model_copy(update={"partners": [*catalogue.partners, "Zenith Newcomer Media LLC"]})

    publish_at_start_up(app.state.session_factory, marketing_partners=changed, settings=app.state.settings)

    body = shown(client)
    assert body["version"] != before and "Zenith Newcomer Media LLC" in body["partners"]
    assert versions(app) == 2


def test_adding_renaming_pausing_and_resuming_a_buyer_publishes_only_when_the_names_change(app, client):
    start = shown(client)["version"]

    buyer_id = add_buyer(app, "Northwind Leads Inc.")
    added = shown(client)
    assert added["version"] != start and "Northwind Leads Inc." in added["partners"]
    # Every catalogue partner stays on the list beside the companies.
    assert set(app.state.catalog.catalog.marketingPartners.partners) <= set(added["partners"])

    with app.state.session_factory() as session:
        buyer = directory.get_buyer(session, buyer_id)
        buyer.price_cents, buyer.daily_cap = 2000, 5  # the same names: no new version
        session.commit()
    assert shown(client)["version"] == added["version"] and versions(app) == 2

    with app.state.session_factory() as session:
        directory.update_buyer(session, buyer_id, directory.BuyerTerms(
            name="Northwind Home Leads Inc.", post_url="http://127.0.0.1:9/post", price_cents=2000),
            allow_private=True)
        session.commit()
    renamed = shown(client)
    assert "Northwind Home Leads Inc." in renamed["partners"] and "Northwind Leads Inc." not in renamed["partners"]

    with app.state.session_factory() as session:
        directory.set_active(session, buyer_id, False)
        session.commit()
    paused = shown(client)
    assert "Northwind Home Leads Inc." not in paused["partners"] and paused["version"] != renamed["version"]

    with app.state.session_factory() as session:
        directory.set_active(session, buyer_id, True)
        session.commit()
    assert "Northwind Home Leads Inc." in shown(client)["partners"]
    assert versions(app) == 5


def test_a_rolled_back_change_publishes_nothing(app, client):
    start = shown(client)["version"]
    with app.state.session_factory() as session:
        directory.add_buyer(session, directory.BuyerTerms(name="Never Stored LLC", post_url="http://127.0.0.1:9/p",
                                                          price_cents=1000), allow_private=True)
        session.flush()
        session.rollback()
    assert shown(client)["version"] == start and versions(app) == 1


def test_providers_added_and_disabled_through_the_admin_api_change_the_list(app, client):
    admin = {"Authorization": "Bearer admin-token"}
    start = shown(client)["version"]
    created = client.post("/api/admin/providers", headers=admin, json={
        "name": "Lone Star Cooling LLC", "contact_email": "office@lonestar.example", "services": ["hvac"],
        "states": ["TX"]})
    assert created.status_code == 201, created.text
    added = shown(client)
    assert added["version"] != start and "Lone Star Cooling LLC" in added["partners"]

    # A matched lead moves the provider's turn (last_matched_at): not a change of the list.
    with app.state.session_factory() as session:
        session.get(Provider, created.json()["id"]).last_matched_at = utcnow()
        session.commit()
    assert shown(client)["version"] == added["version"]

    assert client.post(f"/api/admin/providers/{created.json()['id']}/disable", headers=admin).status_code == 200
    assert "Lone Star Cooling LLC" not in shown(client)["partners"]


def test_the_fixed_buyer_is_listed_by_its_name_and_an_unnamed_one_is_not(app, client):
    catalogue = app.state.catalog.catalog.marketingPartners
    named = app.state.settings.model_copy(update={"buyer_url": "http://127.0.0.1:9/b", "buyer_name": "Prime Quotes LLC"})
    publish_at_start_up(app.state.session_factory, marketing_partners=catalogue, settings=named)
    assert "Prime Quotes LLC" in shown(client)["partners"]

    unnamed = named.model_copy(update={"buyer_name": ""})
    publish_at_start_up(app.state.session_factory, marketing_partners=catalogue, settings=unnamed)
    assert sorted(shown(client)["partners"]) == sorted(catalogue.partners)


def test_the_current_list_is_read_from_the_process_cache_not_per_call(app):
    catalogue = app.state.catalog.catalog.marketingPartners
    factory = app.state.session_factory
    current_partner_list(factory, catalogue)
    statements: list[str] = []

    def count(*args) -> None:
        statements.append(args[2])

    engine = app.state.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        for _ in range(100):
            current_partner_list(factory, catalogue)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert statements == []
    with factory() as session:
        assert current_partner_list(factory, catalogue).version == latest_version(session).id
