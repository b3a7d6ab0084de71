"""The receiver examples of docs/lead-payload.md, run as written against requests the worker sent:
the Python one in this process, the Node one by `node` with the npm package installed apart."""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from delivery_receivers import HttpReceiver
from delivery_support import BUYER_SECRET
from standardwebhooks import WebhookVerificationError

from servicematch.outbound.signing import new_webhook_secret

DOC = Path(__file__).resolve().parents[3] / "docs" / "lead-payload.md"
PROVIDER_SECRET = new_webhook_secret()
# Reads cases as JSON on stdin, verifies each with the documented example, prints the outcomes.
NODE_RUNNER = """
const { verify } = require("./example.js");
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const outcomes = cases.map((c) => {
  try {
    return { message: verify(c.secret, Buffer.from(c.body, "base64"), c.headers) };
  } catch (error) {
    return { error: `${error.name}: ${error.message}` };
  }
});
process.stdout.write(JSON.stringify(outcomes));
"""


def example(language: str) -> str:
    """The first `language` code block of the doc's "Verifying a message" section."""
    section = DOC.read_text(encoding="utf-8").split("### Verifying a message", 1)[1].split("\n### ", 1)[0]
    found = re.search(rf"```{language}\n(.*?)```", section, re.DOTALL)
    assert found, f"no {language} example in {DOC}"
    return found.group(1)


@pytest.fixture
def signed(add_provider, make_lead, worker, receiver):
    """A lead post to the buyer (a typed secret) and a lead.matched to a provider (a whsec_
    secret), as received; then the cases every example must refuse."""
    hook = HttpReceiver().start()
    try:
        add_provider("Cool Air", webhook_url=hook.url, webhook_secret=PROVIDER_SECRET)
        make_lead()
        worker.run_until_idle()
        [to_buyer], [to_provider] = receiver.wait_for(1), hook.wait_for(1)
    finally:
        hook.stop()
    good = [(BUYER_SECRET, to_buyer), (PROVIDER_SECRET, to_provider)]
    bad = [
        (BUYER_SECRET, replace(to_buyer, body=to_buyer.body.replace(b"Garcia", b"Garcis"))),
        ("another-secret", to_buyer),
        (new_webhook_secret(), to_provider),
        (PROVIDER_SECRET, replace(to_provider, headers={**to_provider.headers, "webhook-id": "other"})),
        (PROVIDER_SECRET, replace(to_provider, headers={**to_provider.headers, "webhook-timestamp": "1"})),
        (BUYER_SECRET, replace(to_buyer, headers={
            k: v for k, v in to_buyer.headers.items() if k.lower() != "webhook-signature"})),
    ]
    return good, bad


def test_the_python_example_verifies_what_was_sent_and_refuses_the_rest(signed):
    namespace: dict = {}
    exec(compile(example("python"), str(DOC), "exec"), namespace)  # noqa: S102 - the doc's own code
    good, bad = signed
    for secret, received in good:
        assert namespace["verify"](secret, received.body, received.headers) == json.loads(received.body)
    for secret, received in bad:
        with pytest.raises(WebhookVerificationError):
            namespace["verify"](secret, received.body, received.headers)


@pytest.fixture(scope="module")
def node_example(tmp_path_factory) -> Path:
    """A folder with the Node example, the runner and the standardwebhooks npm package."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not on PATH: the Node example cannot run here")
    folder = tmp_path_factory.mktemp("node-example")
    installed = subprocess.run(
        ["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--loglevel=error",
         "standardwebhooks"], capture_output=True, text=True, timeout=180, check=False)
    if installed.returncode != 0:
        pytest.skip(f"npm could not install standardwebhooks: {installed.stderr.strip()[-500:]}")
    (folder / "example.js").write_text(example("js"))
    (folder / "runner.js").write_text(NODE_RUNNER)
    return folder


def test_the_node_example_verifies_what_was_sent_and_refuses_the_rest(signed, node_example):
    good, bad = signed
    cases = [{"secret": secret, "body": base64.b64encode(received.body).decode(), "headers": received.headers}
             for secret, received in good + bad]
    ran = subprocess.run(["node", "runner.js"], cwd=node_example, input=json.dumps(cases),
                         capture_output=True, text=True, timeout=60, check=False)
    assert ran.returncode == 0, ran.stderr
    outcomes = json.loads(ran.stdout)
    assert [o.get("message") for o in outcomes[:len(good)]] == [json.loads(r.body) for _, r in good]
    for outcome in outcomes[len(good):]:
        assert outcome.get("error", "").startswith("WebhookVerificationError"), outcome
