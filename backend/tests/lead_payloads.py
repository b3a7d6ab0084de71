"""A lead payload from the catalogue, as the site's form sends it (shared by the console's and the
portal's tests)."""

from __future__ import annotations

import uuid

CONTACT = {"first": "Maria", "last": "Garcia", "email": "maria.garcia@example.com", "phone": "5125550142",
           "address1": "500 Congress Ave", "address2": "", "city": "Austin", "state": "TX", "zip": "78701"}


def hvac_payload(index, *, phone: str = "5125550142", email: str = "maria.garcia@example.com",
                 subid1: str = "abc") -> dict:
    """A complete /api/submit-form body for HVAC, answering each question with its first acceptable option."""
    service = index.find("hvac", "services")
    answers = {f.mapping: next(o for o in f.options if o not in f.disqualifiers)
               for f in service.fields if f.mapping and f.options}
    consumer = {**CONTACT, "phone": phone, "email": email, **service.hiddenParams.model_dump(), **answers}
    return {"pid": 16, "sid": 143, "cid": service.cid, "istest": "N", "requestId": str(uuid.uuid4()),
            "consumer": consumer, "customquestions": {k: v for k, v in answers.items() if k.startswith("cq")},
            "click": {"domain_url": "http://127.0.0.1/services/hvac", "subid1": subid1, "useragent": "pytest"}}
