"""The one guard of the JSON readers (tarotsim.json_input): every input that makes Python's json
fail in its own way is one line."""

import pytest

from tarotsim import json_input
from tarotsim.json_input import JSONInputError


@pytest.mark.parametrize("text,why", [
    ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply to be a saved run"),
    ('{"a": ' + "9" * 5000 + "}", "a JSON number too long to be part of a saved run"),
    ('{"a": 1,}', "malformed JSON: Expecting property name enclosed in double quotes (column 9)"),
    ('{\n"a" 1}', "malformed JSON: Expecting ':' delimiter (line 2, column 5)"),
])
def test_every_failure_of_json_is_one_line(text, why):
    with pytest.raises(JSONInputError) as e:
        json_input.loads(text, "a saved run")
    assert str(e.value) == why


def test_a_file_too_large_or_not_utf8_is_one_line(tmp_path):
    big = tmp_path / "big.json"
    big.write_text('{"a": "' + "x" * 2000 + '"}')
    with pytest.raises(JSONInputError, match="larger than 0 MiB: too large to be a thresholds file"):
        json_input.load_file(str(big), "a thresholds file", max_bytes=1000)
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(JSONInputError, match=r"not UTF-8 text \(byte 0xff at offset 7\)"):
        json_input.load_file(str(bad))
    bom = tmp_path / "bom.json"
    bom.write_bytes(b'\xef\xbb\xbf{"a": 1}')
    assert json_input.load_file(str(bom)) == {"a": 1}
