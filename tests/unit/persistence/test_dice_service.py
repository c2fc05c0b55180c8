"""DiceService over real gRPC, its streams kept by the persistence store on SQLite: a
stream's creation can hand out its first values (house plan, "Randomness")."""

import grpc
import pytest
from prometheus_client import REGISTRY

from partida.dice import streams
from partida.dice.service import CountedDice, DiceServicer
from partida.persistence.store import PersistenceStore
from partida.platform.server import Registration, Server
from partida.v1 import dice_pb2, dice_pb2_grpc
from tests.unit.persistence.support import AUTHORITY

RULES = (("authorization", f"Bearer {AUTHORITY.service_token('rules')}"),)
# A day: the module is imported at collection, long before a full run reaches it.
PLAYER = (("authorization", f"Bearer {AUTHORITY.player_token('p1', 86400)[0]}"),)


@pytest.fixture
def dice(engine):
    servicer = DiceServicer(CountedDice(PersistenceStore(engine)))
    server = Server([Registration("partida.v1.DiceService", servicer,
                                  dice_pb2_grpc.add_DiceServiceServicer_to_server)],
                    AUTHORITY, "127.0.0.1:0", max_workers=4)
    server.start()
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        yield dice_pb2_grpc.DiceServiceStub(channel)
    server.stop(0)


def test_a_stream_created_with_values_hands_them_out_and_then_the_next(dice):
    made = dice.CreateStream(dice_pb2.CreateStreamRequest(match_id="m1", draw=4),
                             metadata=RULES)
    again = dice.CreateStream(dice_pb2.CreateStreamRequest(match_id="m1", draw=2),
                              metadata=RULES)
    drawn = dice.Draw(dice_pb2.DrawRequest(match_id="m1", count=1), metadata=RULES)
    assert (made.first_position, again.first_position, drawn.first_position) == (0, 4, 6)
    assert again.commitment == made.commitment
    seed = dice.Reveal(dice_pb2.RevealRequest(match_id="m1"), metadata=RULES).seed
    assert streams.commitment(seed) == made.commitment
    handed = [*made.values, *again.values, *drawn.values]
    assert handed == list(streams.values(seed, "m1", 0, 7))


def test_a_stream_created_without_values_hands_out_none(dice):
    made = dice.CreateStream(dice_pb2.CreateStreamRequest(match_id="m1"), metadata=RULES)
    assert list(made.values) == [] and len(made.commitment) == 32
    stream = dice.GetStream(dice_pb2.GetStreamRequest(match_id="m1"), metadata=PLAYER)
    assert stream.next_position == 0


def _batch(*streams_: tuple[str, int]) -> dice_pb2.CreateStreamsRequest:
    return dice_pb2.CreateStreamsRequest(streams=[
        dice_pb2.CreateStreamRequest(match_id=m, draw=n) for m, n in streams_])


@pytest.mark.parametrize("request_, metadata, code", [
    (dice_pb2.CreateStreamRequest(match_id="m1", draw=-1), RULES, "INVALID_ARGUMENT"),
    (dice_pb2.CreateStreamRequest(match_id="m1", draw=streams.MAX_DRAW + 1), RULES,
     "INVALID_ARGUMENT"),
    (dice_pb2.CreateStreamRequest(match_id="", draw=1), RULES, "INVALID_ARGUMENT"),
    (dice_pb2.CreateStreamRequest(match_id="m1", draw=1), PLAYER, "PERMISSION_DENIED"),
    # CreateStreams refused whole
    (_batch(), RULES, "INVALID_ARGUMENT"),
    (_batch(*[(f"m{i}", 1) for i in range(1001)]), RULES, "INVALID_ARGUMENT"),
    (_batch(("m1", 1)), PLAYER, "PERMISSION_DENIED"),
])
def test_a_refused_creation_creates_nothing(dice, request_, metadata, code):
    create = dice.CreateStreams if isinstance(request_, dice_pb2.CreateStreamsRequest) \
        else dice.CreateStream
    with pytest.raises(grpc.RpcError) as refused:
        create(request_, metadata=metadata)
    assert refused.value.code().name == code
    with pytest.raises(grpc.RpcError) as missing:
        dice.GetStream(dice_pb2.GetStreamRequest(match_id="m1"), metadata=PLAYER)
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND


def test_streams_created_together_each_hand_out_what_create_stream_would(dice):
    old = dice.CreateStream(dice_pb2.CreateStreamRequest(match_id="old", draw=2),
                            metadata=RULES)
    drawn_before = REGISTRY.get_sample_value("partida_dice_draws_total")
    made = dice.CreateStreams(_batch(("m1", 3), ("", 1), ("old", 2), ("m2", 0),
                                     ("m1", 1)), metadata=RULES)
    # each value handed out is counted once (CountedDice)
    assert REGISTRY.get_sample_value("partida_dice_draws_total") - drawn_before == 6
    assert [r.code for r in made.results] == [0, grpc.StatusCode.INVALID_ARGUMENT.value[0],
                                              0, 0, 0]
    assert "match_id" in made.results[1].message and not made.results[1].HasField("stream")
    m1, _, again, m2, m1_again = (r.stream for r in made.results)
    assert (m1.first_position, again.first_position, m2.first_position,
            m1_again.first_position) == (0, 2, 0, 3)
    assert again.commitment == old.commitment and m1_again.commitment == m1.commitment
    assert list(m2.values) == []
    for match_id, handed, commitment in (("m1", [*m1.values, *m1_again.values], m1.commitment),
                                         ("old", [*old.values, *again.values], old.commitment)):
        seed = dice.Reveal(dice_pb2.RevealRequest(match_id=match_id), metadata=RULES).seed
        assert streams.commitment(seed) == commitment
        assert handed == list(streams.values(seed, match_id, 0, len(handed)))
    stream = dice.GetStream(dice_pb2.GetStreamRequest(match_id="m2"), metadata=PLAYER)
    assert stream.commitment == m2.commitment and stream.next_position == 0


def test_how_far_a_live_stream_has_drawn_is_shown_to_services_alone(dice):
    """Any player may ask for a match's stream, and the count of values drawn moves as the
    match plays: a spectator on a delayed feed would learn of a fight, live. Players see it
    once the seed is revealed (verification needs it then); services always."""
    dice.CreateStream(dice_pb2.CreateStreamRequest(match_id="m1", draw=4), metadata=RULES)
    ask = dice_pb2.GetStreamRequest(match_id="m1")
    assert dice.GetStream(ask, metadata=PLAYER).next_position == 0
    assert dice.GetStream(ask, metadata=RULES).next_position == 4
    dice.Reveal(dice_pb2.RevealRequest(match_id="m1"), metadata=RULES)
    assert dice.GetStream(ask, metadata=PLAYER).next_position == 4
