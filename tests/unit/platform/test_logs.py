"""Structured logs (ARCHITECTURE.md, "Operations"): a line logged while a call is served is
one JSON object carrying the call's request id and the match and seat it names."""

from __future__ import annotations

import io
import json
import logging

import grpc

from partida.platform.logs import JsonFormatter
from partida.v1 import rules_pb2
from tests.unit.platform.support import one_method_server

log = logging.getLogger("partida.test")


def _get_view(request: rules_pb2.GetViewRequest, context: grpc.ServicerContext) -> bytes:
    log.warning("serving a view")
    return b""


def test_a_line_logged_in_a_call_names_its_request_match_and_seat():
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    log.addHandler(handler)
    server = one_method_server("test.Views", "Get", _get_view,
                               rules_pb2.GetViewRequest.FromString)
    server.start()
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            get = channel.unary_unary("/test.Views/Get",
                                      request_serializer=rules_pb2.GetViewRequest.SerializeToString)
            get(rules_pb2.GetViewRequest(match_id="m-17", seat=0),
                metadata=(("x-request-id", "req-42"),), timeout=10)
            get(rules_pb2.GetViewRequest(match_id="m-18"), timeout=10)  # a spectator: no seat
    finally:
        server.stop(0)
        log.removeHandler(handler)
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["msg"] == "serving a view" and first["level"] == "warning"
    assert (first["request_id"], first["match_id"], first["seat"]) == ("req-42", "m-17", 0)
    assert second["match_id"] == "m-18" and "seat" not in second
    assert second["request_id"] and second["request_id"] != "req-42"  # one made up per call
