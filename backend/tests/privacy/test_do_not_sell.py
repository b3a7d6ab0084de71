"""Do-not-sell tells the truth: an opt-out sends a signed `lead.do_not_sell` to every company that
holds one of the contact's leads and says how many were told; a receipt for a visitor whose browser
sent Global Privacy Control says the signal was honoured."""

from __future__ import annotations

from delivery_support import BUYER_SECRET
from privacy_support import CONTACT, PROVIDER_SECRET, code_in, deliveries, text_of, wait_for_mail
from webhook_checks import verified

from servicematch.delivery.models import DeliveryStatus

PERSONAL = ("Maria", "Garcia", "5125550", "500 Congress", CONTACT["email"])


def _deliver(worker, clock) -> None:
    worker.run_until_idle()
    clock.advance(seconds=1)


def _opt_out(client, smtp) -> dict:
    before = len([m for m in smtp.messages if CONTACT["email"] in m[0]])
    started = client.post("/api/privacy/requests", json={"kind": "opt_out", "email": CONTACT["email"]})
    assert started.status_code == 202, started.text
    code = code_in(wait_for_mail(smtp, CONTACT["email"], before + 1)[-1])
    answer = client.post(f"/api/privacy/requests/{started.json()['requestId']}/verify", json={"code": code})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_an_opt_out_tells_every_company_holding_the_details_once_and_says_how_many(
        app, client, make_lead, providers, worker, clock, smtp, buyer, provider_hook) -> None:
    first, second = make_lead(), make_lead()
    _deliver(worker, clock)
    assert len(buyer.requests) == 2 and len(provider_hook.requests) == 2

    answer = _opt_out(client, smtp)
    # The fixed buyer and two providers hold both leads: three companies, each counted once.
    assert answer["message"] == (
        "Done. We will not sell or share the personal data of this contact from now on. We are sending a "
        "notice to the 3 companies that received the details of your requests, telling them not to sell or "
        "share them either.")
    assert "told our lead buyer so" not in answer["message"]
    _deliver(worker, clock)

    for receiver, secret in ((buyer, BUYER_SECRET), (provider_hook, PROVIDER_SECRET)):
        notices = [r for r in receiver.requests if r.json.get("type") == "lead.do_not_sell"]
        assert sorted(verified(r, secret=secret, at=clock.now)["data"]["requestId"] for r in notices) == sorted(
            (first.request_id, second.request_id))  # one per lead, each signed with the receiver's secret
        for notice in notices:
            assert "Do not sell or share" in notice.json["data"]["action"]
            assert not any(personal in notice.body.decode() for personal in PERSONAL)
    mailed = [m for m in smtp.messages if "office@lonestar.example" in m[0] and "lead.do_not_sell" in m[1]]
    assert len(mailed) == 2
    for lead in (first, second):
        rows = deliveries(app.state.session_factory, lead.id, "lead.do_not_sell")
        # Cool Air gets its leads by webhook and by e-mail, and its notices the same way.
        assert len({(row.kind == "buyer", row.provider_id) for row in rows}) == 3
        assert all(row.status == DeliveryStatus.DELIVERED for row in rows)

    # Asked again: nobody is told twice, and the answer still says who holds the notice.
    again = _opt_out(client, smtp)
    assert "notice to the 3 companies" in again["message"]
    _deliver(worker, clock)
    assert len([r for r in buyer.requests if r.json.get("type") == "lead.do_not_sell"]) == 2


def test_an_opt_out_before_any_company_got_the_details_says_no_company_was_told(
        app, client, make_lead, providers, worker, clock, smtp, buyer) -> None:
    lead = make_lead()  # not routed yet: no company has it
    answer = _opt_out(client, smtp)
    assert answer["message"] == (
        "Done. We will not sell or share the personal data of this contact from now on. No company had "
        "received the details of your requests, so there was no company to tell.")
    assert deliveries(app.state.session_factory, lead.id, "lead.do_not_sell") == []


def test_the_receipt_of_a_gpc_visitor_says_the_signal_was_honoured(make_lead, worker, clock, smtp) -> None:
    make_lead(do_not_sell=True)  # Sec-GPC: 1 at intake; no provider serves the area here
    _deliver(worker, clock)
    text = text_of(wait_for_mail(smtp, CONTACT["email"])[0])
    assert ("Your browser sent a Global Privacy Control signal, and we honoured it: your request was not "
            "sold to or shared with any lead buyer.") in text
    assert "  - nobody\r\n" in text
    assert "no provider in your area" not in text


def test_the_receipt_of_a_gpc_visitor_names_the_providers_it_asked_for_and_honours_the_signal(
        make_lead, providers, worker, clock, smtp, buyer) -> None:
    make_lead(do_not_sell=True)
    _deliver(worker, clock)
    text = text_of(wait_for_mail(smtp, CONTACT["email"])[0])
    assert "  - Cool Air\r\n" in text and "Acme Home Quotes LLC" not in text
    assert "we honoured it: your request was not sold to or shared with any lead buyer." in text
    assert [r for r in buyer.requests if "type" not in r.json] == []
