"""The client renews its player token when a call is refused for the token's expiry, told by
the refusal's reason (trailing metadata "partida-error-reason: token-expired"), not by the
word "expired" in its message: a reworded message stopped renewals, and any refusal that
happened to say "expired" started one. Real servers over real gRPC: an embedded one to log
in at, and a made-up one whose refusals are worded otherwise."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from partida.cli.remote import Remote
from partida.devstack.stack import API_KEY, SECRETS
from partida.platform.auth import Authority, TokenExpired
from partida.platform.errors import ServiceError, Unauthenticated
from partida.v1 import rules_pb2
from tests.support.serving import channel_to, embedded
from tests.unit.platform.support import one_method_server

STALE = (("authorization", "Bearer stale"),)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of an embedded server (`partida serve`) running in this process."""
    folder: Path = tmp_path_factory.mktemp("renewal")
    with embedded(folder, metrics_port=0) as stack:
        yield stack.address


@pytest.fixture
def remote(server: str) -> Iterator[Remote]:
    """A client logged in at the embedded server, bearing a token it must not keep."""
    client = Remote(server)
    client.login(API_KEY, "renewing-player")
    client.metadata = STALE
    yield client
    client.close()


def _refused_with(error: ServiceError) -> grpc.RpcError:
    """The refusal a real partida Server answers when its method raises `error`."""
    def refuse(request: bytes, context: grpc.ServicerContext) -> bytes:
        raise error

    with (channel_to(one_method_server("test.Refusing", "Call", refuse)) as channel,
          pytest.raises(grpc.RpcError) as refused):
        channel.unary_unary("/test.Refusing/Call")(b"", timeout=10)
    return refused.value


def _bearer_of(remote: Remote) -> str:
    (key, value), = remote.metadata
    assert key == "authorization"
    return value.removeprefix("Bearer ")


def test_a_refusal_with_the_reason_renews_the_token_whatever_its_message(remote):
    refusal = _refused_with(TokenExpired("your session is over; sign in again"))
    assert refusal.code() == grpc.StatusCode.UNAUTHENTICATED
    assert "expired" not in (refusal.details() or "")
    assert remote.renewed(refusal)
    renewed = Authority(SECRETS["PARTIDA_TOKEN_SECRET"],
                        SECRETS["PARTIDA_SERVICE_TOKEN_SECRET"], {}).verify(_bearer_of(remote))
    assert renewed.subject == remote.player_id


def test_a_refusal_saying_expired_without_the_reason_does_not_renew(remote):
    refusal = _refused_with(Unauthenticated("the token has expired"))
    assert refusal.code() == grpc.StatusCode.UNAUTHENTICATED
    assert not remote.renewed(refusal)
    assert remote.metadata == STALE  # no new token taken


def test_a_bad_token_does_not_renew(remote):
    """The embedded server's own refusal of a token that is not one: no expiry, so no
    renewal."""
    with pytest.raises(grpc.RpcError) as refused:
        remote.rules.GetMatch(rules_pb2.GetMatchRequest(match_id="0" * 32),
                              metadata=(("authorization", "Bearer not-a-token"),), timeout=10)
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert not remote.renewed(refused.value)
    assert remote.metadata == STALE


def test_a_call_refused_for_its_expired_token_is_renewed_and_tried_again(remote):
    """The whole path at the embedded server: an expired token, refused with the reason,
    renewed once, and the call answered (here NOT_FOUND: an unknown match, after auth)."""
    expired, _ = Authority(SECRETS["PARTIDA_TOKEN_SECRET"],
                           SECRETS["PARTIDA_SERVICE_TOKEN_SECRET"], {}).player_token(
        remote.player_id, 60, now=0)
    remote.metadata = (("authorization", f"Bearer {expired}"),)
    with pytest.raises(grpc.RpcError) as answered:
        remote.match("0" * 32)
    assert answered.value.code() == grpc.StatusCode.NOT_FOUND
    assert _bearer_of(remote) != expired
