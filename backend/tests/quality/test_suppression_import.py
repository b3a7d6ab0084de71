"""Importing a suppression list: plain or hashed, streamed in batches, bad lines counted and never
fatal, the same file twice adds nothing, --replace swaps the entries, a list's kind and buyer kept."""

from __future__ import annotations

import hashlib
import threading

import pytest
from sqlalchemy import func, select

from servicematch.errors import ServiceMatchError
from servicematch.quality import suppression_import, suppression_writers
from servicematch.quality.suppression import SuppressionEntry, SuppressionList
from servicematch.quality.suppression_import import ImportRequest, ImportResult, import_list
from servicematch.routing.models import Buyer


def _import(app, lines, name: str = "litigators", *, commit_each_batch: bool = False, progress=None,
            **request) -> ImportResult:
    with app.state.engine.connect() as connection:
        result = import_list(connection, lines, ImportRequest(list_name=name, **request),
                             commit_each_batch=commit_each_batch, progress=progress)
        connection.commit()
        return result


def _stored(app, name: str) -> tuple[int, int]:
    """(entry_count as recorded, entries actually stored) of a list."""
    with app.state.session_factory() as session:
        found = session.scalars(select(SuppressionList).where(SuppressionList.name == name)).one()
        stored = session.scalar(select(func.count()).select_from(SuppressionEntry)
                                .where(SuppressionEntry.list_id == found.id))
        return found.entry_count, stored


def _sha(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def test_plain_phones_are_counted_line_by_line_and_bad_ones_named(app):
    lines = ["(512) 555-0142\n", "\n", "not a phone\n", "+1 512 555 0143\r\n", "512-555-0142\n", "999\n",
             '"5125550144"\n']
    result = _import(app, lines)
    assert (result.created, result.kind, result.lines, result.blank) == (True, "phone", 7, 1)
    assert (result.valid, result.added, result.unchanged) == (4, 3, 1)
    assert (result.bad, result.bad_lines) == (2, [3, 6])
    assert _stored(app, "litigators") == (3, 3)


def test_the_same_file_again_adds_nothing(app):
    lines = [_sha(f"5125550{n:03d}") for n in range(100)]
    first = _import(app, lines, hashed="sha256", kind="phone")
    again = _import(app, lines, hashed="sha256")
    assert (first.added, again.added, again.unchanged, again.created) == (100, 0, 100, False)
    assert _stored(app, "litigators") == (100, 100)


@pytest.mark.parametrize("commit_each_batch", [False, True])
def test_a_file_bigger_than_a_batch_is_read_batch_by_batch_and_moved_in_parts(app, monkeypatch, commit_each_batch):
    monkeypatch.setattr(suppression_import, "BATCH_LINES", 7)
    monkeypatch.setattr(suppression_import, "MOVE_ROWS", 15)
    monkeypatch.setattr(suppression_writers, "CHUNK_ROWS", 4)
    lines = [_sha(f"x{n}") for n in range(50)] + ["oops"] + [_sha("x3")]
    seen: list[tuple[int, int]] = []
    result = _import(app, lines, "big", hashed="sha256", kind="email", commit_each_batch=commit_each_batch,
                     progress=lambda progress: seen.append((progress.lines, progress.added)))
    assert (result.lines, result.valid, result.added, result.bad, result.bad_lines) == (52, 51, 50, 1, [51])
    # Eight batches read; three moves (after 21 and 42 digests, and at the end), in parts on SQLite.
    assert len(seen) >= 8 + 3 and seen == sorted(seen) and seen[-1] == (52, 50)
    assert _stored(app, "big") == (50, 50)


def test_digests_spread_over_many_ranges_all_arrive_once(app, monkeypatch):
    monkeypatch.setattr(suppression_writers, "CHUNK_ROWS", 3)
    lines = [_sha(str(n)) for n in range(200)]
    first = _import(app, lines, "spread", hashed="sha256", kind="phone", commit_each_batch=True)
    again = _import(app, lines[::-1], "spread", hashed="sha256", commit_each_batch=True)
    assert (first.added, again.added, again.unchanged) == (200, 0, 200)
    assert _stored(app, "spread") == (200, 200)


def test_hashed_lines_are_checked_for_their_algorithm_and_lower_cased(app):
    md5 = hashlib.md5(b"maria@example.com").hexdigest()
    lines = [md5.upper(), _sha("maria@example.com"), md5[:-1], md5 + "0", "g" * 32, f"  {md5}  "]
    result = _import(app, lines, "customers", hashed="md5", kind="email")
    assert (result.valid, result.added, result.bad_lines) == (2, 1, [2, 3, 4, 5])


def test_only_the_first_bad_lines_are_listed_but_all_are_counted(app):
    result = _import(app, ["5125550142"] + ["bad"] * 25)
    assert result.bad == 25 and result.bad_lines == list(range(2, 12))


def test_replace_swaps_the_lists_entries(app):
    _import(app, ["5125550142", "5125550143", "5125550144"])
    result = _import(app, ["5125550144", "5125550145"], replace=True)
    assert (result.removed, result.added) == (3, 2)
    assert _stored(app, "litigators") == (2, 2)


def test_a_plain_lists_kind_is_read_from_its_first_line(app):
    assert _import(app, ["", "  Maria@Example.com", "5125550142"], "complainers").kind == "email"
    assert _import(app, ["5125550142"], "dnc-internal").kind == "phone"


def test_a_new_hashed_list_needs_its_kind(app):
    with pytest.raises(ServiceMatchError, match="phones or e-mails") as refused:
        _import(app, [_sha("x")], "customers", hashed="sha256")
    assert refused.value.status_code == 422


def test_an_existing_list_keeps_its_kind_and_its_buyer(app):
    with app.state.session_factory() as session:
        buyer = Buyer(name="Leads Direct", post_url="https://buyer.example/post", secret="whsec_x")
        session.add(buyer)
        session.commit()
    _import(app, ["5125550142"], "customers", buyer_id=buyer.id, description="Their customers")
    with pytest.raises(ServiceMatchError, match="holds phone entries") as kind:
        _import(app, ["maria@example.com"], "customers", kind="email")
    with pytest.raises(ServiceMatchError, match="another buyer") as other:
        _import(app, ["5125550143"], "customers", buyer_id="another-buyer")
    assert kind.value.status_code == other.value.status_code == 409
    # The buyer's list again, its buyer not named: it stays the buyer's.
    assert _import(app, ["5125550143"], "customers").added == 1
    with app.state.session_factory() as session:
        found = session.scalars(select(SuppressionList)).one()
        assert (found.buyer_id, found.description, found.created_by) == (buyer.id, "Their customers", "cli")


def test_a_file_with_no_valid_line_keeps_nothing(app):
    with pytest.raises(ServiceMatchError, match="None of the 2 lines is a SHA-256 digest") as refused:
        _import(app, ["5125550142", "5125550143"], "customers", hashed="sha256", kind="phone")
    assert refused.value.status_code == 422
    with app.state.session_factory() as session:
        assert session.scalars(select(SuppressionList)).all() == []


@pytest.mark.parametrize("name", ["", "Two words", "-dash-first", "x" * 65, "semi;colon"])
def test_a_list_needs_a_name_fit_for_a_reason_code(app, name):
    with pytest.raises(ServiceMatchError, match="lower-case letters"):
        _import(app, ["5125550142"], name)


def test_names_are_stored_lower_case(app):
    assert _import(app, ["5125550142"], "  Litigators ").list_name == "litigators"


def test_two_imports_into_one_new_list_at_once_the_second_is_refused(app, database_url):
    """PostgreSQL: the second waits for the first's transaction, then is told to import again."""
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite takes one writer at a time: the second waits for the first's commit")
    outcome: list[object] = []
    with app.state.engine.connect() as first:
        import_list(first, ["5125550142"], ImportRequest(list_name="dnc-internal"))

        def second() -> None:
            with app.state.engine.connect() as connection:
                try:
                    outcome.append(import_list(connection, ["5125550143"], ImportRequest(list_name="dnc-internal")))
                except ServiceMatchError as refused:
                    outcome.append(refused)

        waiting = threading.Thread(target=second)
        waiting.start()
        waiting.join(timeout=1)
        assert waiting.is_alive()  # blocked on the first's list
        first.commit()
    waiting.join(timeout=30)
    [refused] = outcome
    assert isinstance(refused, ServiceMatchError) and refused.status_code == 409
    assert _stored(app, "dnc-internal") == (1, 1)
