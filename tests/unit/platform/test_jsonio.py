"""platform/jsonio: the fast JSON of the hot path reads and writes what the standard library's
would, for the values engines and sessions hold."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from partida.platform import jsonio

# What sessions, events and views are made of: str keys, 64-bit ints, strings, lists, bools.
_leaves = (st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1)
           | st.text(max_size=12))
_values = st.recursive(_leaves, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=20)


@given(_values)
def test_it_reads_back_what_it_writes_and_the_standard_library_reads_the_same(value):
    text = jsonio.dumps(value)
    assert jsonio.loads(text) == value == json.loads(text)


@given(st.dictionaries(st.text(max_size=6), _values, max_size=6))
def test_sorted_output_is_the_standard_librarys_compact_sorted_text(value):
    assert jsonio.dumps(value, sort_keys=True) == json.dumps(
        value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def test_int_keys_become_strings_as_with_the_standard_library():
    value = {0: "a", 1: [2, 3]}
    assert jsonio.loads(jsonio.dumps(value)) == json.loads(json.dumps(value)) == {"0": "a",
                                                                                 "1": [2, 3]}


def test_tuples_are_written_as_lists_and_bytes_are_read():
    assert jsonio.loads(jsonio.dumps({"p": (1, 2)}).encode()) == {"p": [1, 2]}


def test_a_value_json_cannot_hold_exactly_is_refused_not_rounded():
    with pytest.raises(TypeError):
        jsonio.dumps(2**64)
