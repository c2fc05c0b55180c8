"""Security audit of the front door's request handling, on the embedded server (`partida
serve`) over gRPC: a request a client got wrong is refused with a status that says so, which
the client can read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pool
from google.protobuf.descriptor import FieldDescriptor as FD
from google.protobuf.message_factory import GetMessageClass
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partida.cli.remote import Remote
from partida.devstack.stack import API_KEY
from partida.platform.forward import PUBLIC
from partida.v1 import common_pb2, matchmaking_pb2, rules_pb2
from tests.support.serving import embedded


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with embedded(Path(tmp_path_factory.mktemp("security"))) as stack:
        yield stack.addresses["rules"]


@pytest.fixture
def player(address: str) -> Iterator[Remote]:
    remote = Remote(address)
    remote.login(API_KEY, "security-audit")
    yield remote
    remote.close()


def _seated(remote: Remote, request_id: str) -> Any:
    """The ticket of a seat of `remote`'s player in a Montañas match against a bot."""
    ticket = list(remote.find_match("montanas", "standard", 2, True, request_id))[-1]
    assert ticket.status == matchmaking_pb2.TICKET_STATUS_ASSIGNED
    return ticket


@pytest.mark.parametrize("method, metadata", [
    ("/partida.v1.RulesService/GetView", "token"),
    ("/partida.v1.MatchmakingService/CreateTicket", "token"),
    ("/partida.v1.PlayersService/CreatePlayer", "api-key"),
])
@pytest.mark.parametrize("body", [b"\x0a\x02\xff\xfe",  # field 1, a string, not UTF-8
                                  b"\xff\xff\xff"],  # not a protobuf message at all
                         ids=["bad-utf8", "not-protobuf"])
def test_a_request_that_does_not_parse_is_an_invalid_argument(
        player: Remote, method: str, metadata: str, body: bytes) -> None:
    """gRPC answered INTERNAL "Exception deserializing request!" (and logged a traceback), as
    if the server had broken, to a client that sent bytes which are not the method's message."""
    channel = player._channels[next(iter(player._channels))]
    sent = player.metadata if metadata == "token" else (("x-api-key", API_KEY),)
    with pytest.raises(grpc.RpcError) as refused:
        channel.unary_unary(method)(body, metadata=sent, timeout=10)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, refused.value.details()
    assert refused.value.details().startswith("the request does not parse")


def test_a_refusal_quoting_a_huge_field_reaches_the_client(player: Remote) -> None:
    """A refusal quoting what the client sent (here an unknown bot name) put all of it in the
    status message; past gRPC's metadata limit the client got RESOURCE_EXHAUSTED "Stream
    removed (received metadata size exceeds hard limit)" instead of the refusal."""
    ticket = _seated(player, "huge-bot-name")
    with pytest.raises(grpc.RpcError) as refused:
        player.call(player.rules, "SetSeatController", rules_pb2.SetSeatControllerRequest(
            match_id=ticket.match_id, seat=ticket.seat,
            controller=common_pb2.SEAT_CONTROLLER_BOT, bot="b" * 200_000))
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, refused.value.details()
    assert refused.value.details().startswith("no bot 'bbb")


# ----- every public method, with fields drawn at random ----------------------------------
_PUBLIC = [(service, m) for service in ("partida.v1.RulesService", *PUBLIC)
           for m in descriptor_pool.Default().FindServiceByName(service).methods
           if PUBLIC.get(service) is None or m.name in PUBLIC[service]]
_INTS = {FD.TYPE_INT32: (-(2**31), 2**31 - 1), FD.TYPE_INT64: (-(2**63), 2**63 - 1),
         FD.TYPE_UINT32: (0, 2**32 - 1), FD.TYPE_UINT64: (0, 2**64 - 1)}


def _value(data: st.DataObject, field: Any, known: list[str]) -> Any:
    if field.type == FD.TYPE_STRING:
        return data.draw(st.one_of(st.sampled_from(known), st.text(max_size=20),
                                   st.sampled_from(["x" * 129, "é" * 20_000, "\x00", "a\nb"])))
    if field.type == FD.TYPE_BOOL:
        return data.draw(st.booleans())
    if field.type == FD.TYPE_ENUM:
        return data.draw(st.sampled_from([v.number for v in field.enum_type.values] + [99]))
    if field.type in _INTS:
        low, high = _INTS[field.type]
        return data.draw(st.one_of(st.integers(-2, 6), st.integers(low, high)))
    if field.type in (FD.TYPE_FLOAT, FD.TYPE_DOUBLE):
        return data.draw(st.floats(width=32 if field.type == FD.TYPE_FLOAT else 64))
    return data.draw(st.binary(max_size=40))


def _fill(data: st.DataObject, message: Any, known: list[str], depth: int = 0) -> None:
    """Sets some of `message`'s fields (one case of each oneof at most) to drawn values."""
    for field in message.DESCRIPTOR.fields:
        oneof = field.containing_oneof
        if (oneof is not None and message.WhichOneof(oneof.name)) or not data.draw(
                st.booleans()):
            continue
        if field.type == FD.TYPE_MESSAGE:
            if depth < 3 and not field.message_type.GetOptions().map_entry:
                for _ in range(data.draw(st.integers(0, 2)) if field.is_repeated else 1):
                    inner = (getattr(message, field.name).add() if field.is_repeated
                             else getattr(message, field.name))
                    inner.SetInParent()
                    _fill(data, inner, known, depth + 1)
        elif field.is_repeated:
            getattr(message, field.name).extend(
                _value(data, field, known) for _ in range(data.draw(st.integers(0, 3))))
        else:
            setattr(message, field.name, _value(data, field, known))


@pytest.fixture(scope="module")
def seated(address: str) -> Iterator[tuple[Remote, list[str]]]:
    """A player with a seat in a match against a bot, and the ids a request may name."""
    remote = Remote(address)
    player_id = remote.login(API_KEY, "security-fuzz")
    ticket = _seated(remote, "fuzz-seat")
    yield remote, [ticket.match_id, ticket.ticket_id, player_id, "montanas", "standard",
                   "dynamit_joe", "bot", "human", "0", ""]
    remote.close()


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_request_a_client_can_send_fails_as_a_server_error(seated, data) -> None:
    """Any request to a method clients may call, with or without the player's token and the
    integrator's key, is answered or refused with a status that names the client's mistake,
    never INTERNAL or UNKNOWN, and the refusal reaches the client."""
    remote, known = seated
    service, method = data.draw(st.sampled_from(_PUBLIC), label="method")
    request = GetMessageClass(method.input_type)()
    _fill(data, request, known)
    metadata = [*remote.metadata] if data.draw(st.booleans(), label="token") else []
    if data.draw(st.booleans(), label="api key"):
        metadata.append(("x-api-key", API_KEY))
    channel = next(iter(remote._channels.values()))
    path, body = f"/{service}/{method.name}", request.SerializeToString()
    try:
        if method.server_streaming:  # the first answer, then the stream is let go
            stream = channel.unary_stream(path)(body, metadata=metadata, timeout=30)
            next(stream, None)
            stream.cancel()
        else:
            channel.unary_unary(path)(body, metadata=metadata, timeout=30)
    except grpc.RpcError as e:
        assert e.code() not in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN), (
            path, e.details())
        assert "Stream removed" not in (e.details() or ""), (path, e.details())
