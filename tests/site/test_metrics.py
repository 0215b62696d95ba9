"""``GET /metrics``: Prometheus text, closed to the public by a token or by
addresses, and requests counted by view and status."""

from __future__ import annotations

import pytest
from django.test import Client
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

pytestmark = pytest.mark.django_db


def scrape(client: Client | None = None, **extra):
    return (client or Client()).get("/metrics", **extra)


def test_it_answers_the_machine_itself_when_nothing_is_set() -> None:
    response = scrape()  # the test client comes from 127.0.0.1
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    names = {family.name for family in text_string_to_metric_families(response.content.decode())}
    assert {"blot_http_requests", "blot_moves", "blot_open_sockets"} <= names


def test_it_refuses_another_address_when_nothing_is_set() -> None:
    assert scrape(Client(REMOTE_ADDR="203.0.113.7")).status_code == 403


def test_it_refuses_a_forwarded_request_from_an_untrusted_proxy() -> None:
    # A proxy on the machine forwarding the world's requests is not the machine.
    assert scrape(HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 403


def test_a_bearer_token_opens_it_from_anywhere_and_a_wrong_one_does_not(settings) -> None:
    settings.BLOT_METRICS_TOKEN = "s3cret-token"
    outside = Client(REMOTE_ADDR="203.0.113.7")
    assert scrape(outside, HTTP_AUTHORIZATION="Bearer s3cret-token").status_code == 200
    assert scrape(outside, HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    assert scrape(outside).status_code == 403
    assert scrape().status_code == 403  # with a token set, the machine needs it too


def test_allowed_networks_open_it_to_their_addresses_only(settings) -> None:
    settings.BLOT_METRICS_ADDRESSES = ["10.0.0.0/8", "192.0.2.5"]
    assert scrape(Client(REMOTE_ADDR="10.2.3.4")).status_code == 200
    assert scrape(Client(REMOTE_ADDR="192.0.2.5")).status_code == 200
    assert scrape(Client(REMOTE_ADDR="192.0.2.6")).status_code == 403
    assert scrape().status_code == 403


def test_behind_a_trusted_proxy_it_judges_the_forwarded_client(settings) -> None:
    settings.BLOT_TRUSTED_PROXY_HOPS = 1
    settings.BLOT_METRICS_ADDRESSES = ["10.0.0.0/8"]
    assert scrape(HTTP_X_FORWARDED_FOR="10.9.9.9").status_code == 200
    assert scrape(HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.7").status_code == 403


def _requests(view: str, status: str) -> float:
    value = REGISTRY.get_sample_value(
        "blot_http_requests_total", {"view": view, "status": status}
    )
    return value or 0.0


def test_requests_are_counted_by_view_and_status() -> None:
    lobby, missing = _requests("lobby", "200"), _requests("unmatched", "404")
    Client().get("/")
    Client().get("/no-such-page/")
    assert _requests("lobby", "200") == lobby + 1
    assert _requests("unmatched", "404") == missing + 1


def test_a_request_gets_an_id_it_can_be_found_by_in_the_log(caplog) -> None:
    caplog.set_level("INFO", logger="blot.requests")
    response = Client().get("/", HTTP_X_REQUEST_ID="req-1234567890")
    assert response["X-Request-ID"] == "req-1234567890"
    line = next(r for r in caplog.records if r.name == "blot.requests")
    fields = line.blot
    assert fields["request_id"] == "req-1234567890"
    assert fields["view"] == "lobby" and fields["status"] == 200


def test_a_request_id_that_is_not_a_plain_token_is_replaced() -> None:
    response = Client().get("/", HTTP_X_REQUEST_ID="bad id\nwith=stuff")
    assert response["X-Request-ID"] != "bad id\nwith=stuff"
    assert response["X-Request-ID"].isalnum()


def test_the_request_log_leaves_out_query_strings_and_paths(caplog, make_table, alice) -> None:
    table = make_table(alice, "belote", is_private=True)
    caplog.set_level("INFO", logger="blot.requests")
    Client().get(f"/tables/{table.pk}/?invite=the-secret-invite")
    line = next(r for r in caplog.records if r.name == "blot.requests")
    assert line.blot["table_id"] == table.pk
    assert "the-secret-invite" not in str(line.blot)


def test_the_grafana_dashboard_draws_only_series_the_site_exports() -> None:
    import json
    import re

    from django.conf import settings

    dashboard = json.loads((settings.BASE_DIR / "deploy" / "grafana" / "blot.json").read_text())
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    drawn = {
        re.sub(r"_(bucket|total|sum|count)$", "", name)
        for expr in exprs
        for name in re.findall(r"\bblot_\w+", expr)
    }
    exported = {f.name for f in text_string_to_metric_families(scrape().content.decode())}
    assert drawn and drawn <= exported, drawn - exported


def _worker_scrape(**environ: str) -> tuple[str, bytes]:
    from games.ops.metrics import wsgi_app

    answered: list[str] = []
    body = b"".join(
        wsgi_app(
            {"PATH_INFO": "/metrics", **environ},
            lambda status, headers: answered.append(status),
        )
    )
    return answered[0], body


def test_the_workers_own_endpoint_keeps_the_same_rule(settings) -> None:
    status, body = _worker_scrape(REMOTE_ADDR="127.0.0.1")
    assert status.startswith("200") and b"blot_moves_total" in body
    assert _worker_scrape(REMOTE_ADDR="203.0.113.7")[0].startswith("403")
    settings.BLOT_METRICS_TOKEN = "s3cret-token"
    assert _worker_scrape(
        REMOTE_ADDR="203.0.113.7", HTTP_AUTHORIZATION="Bearer s3cret-token"
    )[0].startswith("200")
    assert _worker_scrape(PATH_INFO="/other", REMOTE_ADDR="127.0.0.1")[0].startswith("404")
