"""The hash chain's format and its verification (tampering with stored rows is tested in
store_behaviours.py, on each database)."""

import hashlib
from dataclasses import replace

from partida.persistence.hashchain import canonical_content, record_hash, verify_chain
from partida.persistence.records import GENESIS, LogRecord
from tests.unit.persistence.support import U64_MAX


def _chain(count: int, match_id: str = "m1") -> list[LogRecord]:
    chain, prev = [], GENESIS
    for sequence in range(count):
        record = LogRecord(sequence, "setup" if sequence == 0 else "action", 0, f"a{sequence}",
                           f"r{sequence}", (sequence,), (U64_MAX,), "[]", match_id=match_id)
        digest = record_hash(prev, match_id, record)
        chain.append(replace(record, prev_hash=prev, hash=digest))
        prev = digest
    return chain


def test_the_canonical_form_is_pinned():
    # Other verifiers (a browser, an auditor's script) must rebuild exactly these bytes.
    record = LogRecord(1, "action", 2, "play:12:m3", "req-7", (4, 5), (U64_MAX, 0), '[{"a":1}]')
    expected = (b'{"action_id":"play:12:m3","events_json":"[{\\"a\\":1}]","kind":"action",'
                b'"match_id":"m1","random_positions":[4,5],'
                b'"random_values":["18446744073709551615","0"],"request_id":"req-7","seat":2,'
                b'"sequence":1}')
    assert canonical_content("m1", record) == expected
    assert record_hash(GENESIS, "m1", record) == hashlib.sha256(GENESIS + expected).digest()


def test_non_ascii_text_is_hashed_as_utf8():
    record = LogRecord(0, "setup", events_json='["Montañas"]')
    assert "Montañas".encode() in canonical_content("m", record)


def test_a_sound_chain_verifies():
    assert verify_chain(_chain(5)) == (True, None)
    assert verify_chain([]) == (True, None)


def test_a_changed_record_breaks_the_chain_there():
    chain = _chain(5)
    chain[3] = replace(chain[3], action_id="forged")
    assert verify_chain(chain) == (False, 3)


def test_a_recomputed_hash_still_breaks_the_next_link():
    chain = _chain(5)
    forged = replace(chain[2], seat=1)
    chain[2] = replace(forged, hash=record_hash(forged.prev_hash, "m1", forged))
    assert verify_chain(chain) == (False, 3)


def test_missing_reordered_or_foreign_records_break_the_chain():
    chain = _chain(4)
    assert verify_chain(chain[1:]) == (False, 0)
    assert verify_chain([chain[0], chain[2], chain[1], chain[3]]) == (False, 1)
    assert verify_chain([*chain[:2], _chain(3, "m2")[2]]) == (False, 2)
