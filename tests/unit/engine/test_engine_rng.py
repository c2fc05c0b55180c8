"""Rng, StreamRng and LocalRng: the stream formula, unbiased ranges, rejection, shuffles, draws."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter
from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partida.engine import Draw, LocalRng, Rng, StreamRng, stream_value, stream_values

U64 = 1 << 64


class FakeRng(Rng):
    """Feeds chosen 64-bit values, and records how many were taken."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__()
        self.values = list(values)
        self.taken = 0

    def next_u64(self) -> int:
        v = self.values[self.taken]
        self.taken += 1
        return v


def hmac_by_hand(key: bytes, message: bytes) -> bytes:
    """HMAC-SHA256 written out from RFC 2104 on top of hashlib, without the hmac module."""
    block = 64
    if len(key) > block:
        key = hashlib.sha256(key).digest()
    key = key.ljust(block, b"\0")
    inner = hashlib.sha256(bytes(k ^ 0x36 for k in key) + message).digest()
    return hashlib.sha256(bytes(k ^ 0x5C for k in key) + inner).digest()


# ----- the stream formula ----------------------------------------------------------------------

@pytest.mark.parametrize("seed", [b"", b"\x00" * 8, b"seed", bytes(range(32)), b"k" * 100])
@pytest.mark.parametrize("match_id", ["m", "local-1", "conf-42", "ñandú/partida"])
@pytest.mark.parametrize("index", [0, 1, 7, 1000, 2**40])
def test_stream_value_is_hmac_sha256_first_8_bytes_big_endian(seed: bytes, match_id: str,
                                                              index: int) -> None:
    message = f"{match_id}:{index}".encode()
    by_module = hmac.new(seed, message, hashlib.sha256).digest()
    assert hmac_by_hand(seed, message) == by_module  # the two references agree
    assert stream_value(seed, match_id, index) == int.from_bytes(by_module[:8], "big")


@given(seed=st.binary(max_size=80), match_id=st.text(min_size=1, max_size=40),
       first=st.integers(0, 2**40), count=st.integers(0, 40))
def test_stream_values_are_the_stream_from_first_on(seed: bytes, match_id: str, first: int,
                                                    count: int) -> None:
    """The dice service hands out runs of values computed from one hashed prefix: each must be
    the value the published formula gives at its position (written out by hand here)."""
    got = stream_values(seed, match_id, first, count)
    assert len(got) == count
    for i, value in enumerate(got):
        mac = hmac_by_hand(seed, f"{match_id}:{first + i}".encode())
        assert value == int.from_bytes(mac[:8], "big")


def test_stream_value_known_vector() -> None:
    """Pinned, so a change of formula (key and message swapped, little-endian, other cut)
    cannot go unnoticed even if the references above were changed along with it."""
    expected = int.from_bytes(hmac_by_hand(b"partida", b"match-1:0")[:8], "big")
    assert stream_value(b"partida", "match-1", 0) == expected
    assert f"{expected:016x}" == "918ac24cc6bb5aa3"


def test_stream_rng_yields_the_stream_in_order_and_advances() -> None:
    rng = StreamRng(b"s", "m")
    assert rng.position == 0
    got = [rng.next_u64() for _ in range(5)]
    assert got == [stream_value(b"s", "m", i) for i in range(5)]
    assert rng.position == 5


def test_stream_rngs_at_the_same_position_agree() -> None:
    a = StreamRng(b"seed", "match")
    for _ in range(13):
        a.d6()
    b = StreamRng(b"seed", "match", position=a.position)
    assert [a.below(1000) for _ in range(50)] == [b.below(1000) for _ in range(50)]
    assert a.position == b.position


def test_streams_differ_by_seed_and_by_match() -> None:
    base = StreamRng(b"a", "m").next_u64()
    assert base != StreamRng(b"b", "m").next_u64()
    assert base != StreamRng(b"a", "n").next_u64()
    assert base != StreamRng(b"a", "m", position=1).next_u64()


# ----- below(n): range, uniformity, rejection ----------------------------------------------------

@given(n=st.integers(min_value=1, max_value=2**64), seed=st.integers(0, 2**32))
def test_below_is_always_in_range(n: int, seed: int) -> None:
    rng = LocalRng(seed)
    for _ in range(20):
        assert 0 <= rng.below(n) < n


@pytest.mark.parametrize("n", [0, -1, -(2**64), 2**64 + 1, 2**70])
def test_below_refuses_n_outside_one_to_two_to_the_64(n: int) -> None:
    # Past 2**64 one raw value cannot cover the range (it used to loop forever).
    rng = FakeRng([5])
    with pytest.raises(ValueError):
        rng.below(n)
    assert rng.taken == 0 and not rng.draws


@pytest.mark.parametrize("make", [lambda: LocalRng(20261129), lambda: StreamRng(b"chi", "sq")],
                         ids=["LocalRng", "StreamRng"])
@pytest.mark.parametrize("n", [2, 6, 10, 37])
def test_below_is_roughly_uniform(make, n: int) -> None:  # type: ignore[no-untyped-def]
    """Chi-square over a fixed seed (so never flaky). The 0.1% critical values for 1..36
    degrees of freedom are at most ~68; the bound is generous, a biased generator (e.g.
    one value never or twice as often drawn) blows far past it."""
    rng = make()
    draws = 600 * n
    counts = Counter(rng.below(n) for _ in range(draws))
    assert set(counts) == set(range(n))
    expected = draws / n
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(n))
    assert chi2 < 3 * (n - 1) + 30, f"chi-square {chi2:.1f} for n={n}: {sorted(counts.items())}"


def test_values_past_the_last_whole_block_are_rejected() -> None:
    """n=3: 2**64 % 3 == 1, so only the single top value 2**64-1 is past the last block."""
    limit = U64 - U64 % 3
    assert limit == U64 - 1
    rng = FakeRng([U64 - 1, U64 - 1, limit - 1, 4])
    assert rng.below(3) == (limit - 1) % 3
    assert rng.taken == 3                          # two rejected, the third accepted
    assert rng.draws == [Draw("below", 3, (limit - 1) % 3)]  # rejections are not draws
    assert rng.below(3) == 1 and rng.taken == 4


def test_rejection_with_a_huge_block() -> None:
    """n = 2**63 + 1: the last whole block ends at n itself, so nearly half the values
    (n .. 2**64-1) are rejected; n-1 is the largest accepted value."""
    n = 2**63 + 1
    rng = FakeRng([U64 - 1, n, n + 12345, n - 1, 0])
    assert rng.below(n, "big") == n - 1
    assert rng.taken == 4
    assert rng.below(n, "big") == 0
    assert rng.draws == [Draw("big", n, n - 1), Draw("big", n, 0)]


def test_no_rejection_for_powers_of_two() -> None:
    rng = FakeRng([U64 - 1, 0, U64 - 2])
    assert rng.below(8) == 7 and rng.below(2**64) == 0 and rng.below(1) == 0
    assert rng.taken == 3


def test_rejection_consumes_stream_positions() -> None:
    """A StreamRng advances once per value taken, rejected ones included."""
    seed, mid = b"seed", "rej"
    n = 2**63 + 1
    rng = StreamRng(seed, mid)
    rng.below(n)
    taken = rng.position
    values = [stream_value(seed, mid, i) for i in range(taken)]
    assert all(v >= n for v in values[:-1]) and values[-1] < n


# ----- dice, choice, shuffle, scatter ----------------------------------------------------------

def test_d6_covers_one_to_six_only() -> None:
    rng = LocalRng(6)
    rolls = Counter(rng.d6() for _ in range(3000))
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert all(Draw("d6", 6, r - 1) in rng.draws for r in rolls)


@given(n=st.integers(1, 1000), seed=st.integers(0, 2**32))
def test_dn_range(n: int, seed: int) -> None:
    rng = LocalRng(seed)
    assert all(1 <= rng.dn(n) <= n for _ in range(10))
    assert {d.kind for d in rng.draws} == {f"d{n}"}


def test_fake_values_map_to_faces() -> None:
    rng = FakeRng([0, 5, 6, U64 - 4])  # U64 % 6 == 4: the top four values are rejected ...
    assert [rng.d6(), rng.d6(), rng.d6()] == [1, 6, 1]
    with pytest.raises(IndexError):  # ... so the fourth roll asks for another value
        rng.d6()


def test_choice_and_scatter() -> None:
    rng = FakeRng([4, 9, 3])
    assert rng.choice("abc") == "b"                 # 4 % 3
    assert rng.scatter() == 1                       # 9 % 8
    assert rng.scatter(4) == 3
    assert [d.kind for d in rng.draws] == ["choice", "scatter", "scatter"]


@given(items=st.lists(st.integers(), max_size=60), seed=st.binary(max_size=16),
       match_id=st.text(max_size=10))
def test_shuffle_is_a_permutation_and_deterministic(items: list[int], seed: bytes,
                                                    match_id: str) -> None:
    a, b = list(items), list(items)
    StreamRng(seed, match_id).shuffle(a)
    StreamRng(seed, match_id).shuffle(b)
    assert a == b
    assert Counter(a) == Counter(items)


def test_shuffle_depends_on_seed_and_match() -> None:
    def deal(seed: bytes, mid: str) -> list[int]:
        cards = list(range(45))
        StreamRng(seed, mid).shuffle(cards)
        return cards

    assert deal(b"1", "m") == deal(b"1", "m")
    assert deal(b"1", "m") != deal(b"2", "m")
    assert deal(b"1", "m") != deal(b"1", "n")
    assert deal(b"1", "m") != list(range(45))


def test_shuffle_is_fisher_yates() -> None:
    """Draws below(len), below(len-1), ..., below(2), swapping each position with the drawn one."""
    rng = FakeRng([0, 0, 0])
    items = ["a", "b", "c", "d"]
    rng.shuffle(items)
    # i=3 <-> j=0: d b c a; i=2 <-> j=0: c b d a; i=1 <-> j=0: b c d a
    assert items == ["b", "c", "d", "a"]
    assert [(d.kind, d.n) for d in rng.draws] == [("shuffle", 4), ("shuffle", 3), ("shuffle", 2)]


def test_shuffle_of_zero_or_one_item_draws_nothing() -> None:
    rng = FakeRng([])
    for items in ([], ["x"]):
        rng.shuffle(items)
    assert rng.taken == 0 and not rng.draws


def test_every_fisher_yates_permutation_is_reachable() -> None:
    """All 4! orders of four items come out of the 4*3*2 possible draw sequences."""
    seen = set()
    for i in range(4):
        for j in range(3):
            for k in range(2):
                items = [0, 1, 2, 3]
                FakeRng([i, j, k]).shuffle(items)
                seen.add(tuple(items))
    assert len(seen) == 24


# ----- draws and LocalRng ------------------------------------------------------------------------

def test_draws_record_kind_n_and_result_in_order() -> None:
    rng = FakeRng([10, 11, 12, 13])
    rng.below(7, "custom")
    rng.d6()
    rng.choice([1, 2])
    rng.dn(20)
    assert rng.draws == [Draw("custom", 7, 3), Draw("d6", 6, 5), Draw("choice", 2, 0),
                         Draw("d20", 20, 13)]


def test_local_rng_is_deterministic_per_seed() -> None:
    assert [LocalRng(5).next_u64() for _ in range(3)] == [LocalRng(5).next_u64() for _ in range(3)]
    a, b = LocalRng(5), LocalRng(6)
    assert [a.below(100) for _ in range(20)] != [b.below(100) for _ in range(20)]
    assert all(0 <= LocalRng(s).next_u64() < U64 for s in range(50))
