"""The shared label tables: read as typed rows; a malformed or mismatched table stops with its file and line."""
from __future__ import annotations

from pathlib import Path

import pytest

from explore.corpus.label_tables import (
    LEVEL3_COLUMNS,
    LEVEL3_FILE,
    LEVEL4_PEOPLE_FILE,
    PANTHEON_COLUMNS,
    PANTHEON_FILE,
    PEOPLE_COLUMNS,
    LabelTableError,
    read_level3,
    read_pantheon,
    read_vital_people,
)
from explore.corpus.table_labels import derive_table_labels, field_label, floruit_century, title_key

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "labels"


def pantheon_row(**values: str) -> str:
    row = {column: "" for column in PANTHEON_COLUMNS}
    row.update({"en_curid": "1", "name": "Someone", "birthyear": "1900", "occupation": "PHYSICIST",
                "countryCode": "FR"}, **values)
    return "\t".join(row[c] for c in PANTHEON_COLUMNS)


def write(directory: Path, name: str, header: tuple[str, ...], rows: list[str]) -> None:
    (directory / name).write_text("\t".join(header) + "\n" + "".join(r + "\n" for r in rows), encoding="utf-8")


def test_pantheon_rows_are_typed_and_blurred_values_read_as_they_say(tmp_path):
    write(tmp_path, PANTHEON_FILE, PANTHEON_COLUMNS, [
        pantheon_row(), pantheon_row(en_curid="2", birthyear="530s"), pantheon_row(en_curid="3", birthyear="1237?"),
        pantheon_row(en_curid="4", birthyear="Unknown", countryCode="UNK")])
    people = read_pantheon(tmp_path)
    assert [(p.page_id, p.birth_year, p.birth_country_code) for p in people] == [
        (1, 1900, "FR"), (2, 530, "FR"), (3, None, "FR"), (4, None, "")]


@pytest.mark.parametrize("rows, line, problem", [
    ([pantheon_row(), pantheon_row(en_curid="x")], 3, "is not a page id"),
    ([pantheon_row(countryCode="France")], 2, "is not an ISO alpha-2 code"),
    ([pantheon_row() + "\textra"], 2, "24 columns where the header has 23"),
])
def test_a_malformed_pantheon_row_stops_the_read_with_its_file_and_line(tmp_path, rows, line, problem):
    write(tmp_path, PANTHEON_FILE, PANTHEON_COLUMNS, rows)
    with pytest.raises(LabelTableError, match=rf"{PANTHEON_FILE}, line {line}: .*{problem}"):
        read_pantheon(tmp_path)


def test_a_table_with_another_header_is_refused_at_line_1(tmp_path):
    write(tmp_path, LEVEL3_FILE, ("title", "section", "level", "subsection"), ["A\tB\t3\tC"])
    with pytest.raises(LabelTableError, match=rf"{LEVEL3_FILE}, line 1: the header is"):
        read_level3(tmp_path)


def test_level3_and_people_rows_are_checked(tmp_path):
    write(tmp_path, LEVEL3_FILE, LEVEL3_COLUMNS, ["Jazz\tArts\tMusic\t3", "Rome\tGeography\tCities\t7"])
    with pytest.raises(LabelTableError, match="line 3: level '7'"):
        read_level3(tmp_path)
    write(tmp_path, LEVEL4_PEOPLE_FILE, PEOPLE_COLUMNS, ["Aesop\tQ43423\t-0620\tQ6581097",
                                                        "Nobody\tQ142\\u0000\t1900\tQ1"])
    with pytest.raises(LabelTableError, match=r"line 3: wikidata_id .* is not an item id"):
        read_vital_people(tmp_path, LEVEL4_PEOPLE_FILE)


def test_a_file_that_is_not_utf8_is_named(tmp_path):
    (tmp_path / LEVEL3_FILE).write_bytes("\t".join(LEVEL3_COLUMNS).encode() + b"\nCaf\xe9\tArts\tMusic\t3\n")
    with pytest.raises(LabelTableError, match=rf"{LEVEL3_FILE}, line 2: not UTF-8"):
        read_level3(tmp_path)


def test_derivation_matches_by_title_and_keeps_disambiguated_titles_apart(tmp_path):
    write(tmp_path, PANTHEON_FILE, PANTHEON_COLUMNS, [
        pantheon_row(name="Wolfgang Amadeus Mozart", countryCode="AT", birthyear="1756", occupation="COMPOSER"),
        pantheon_row(en_curid="2", name="Mercury", countryCode="GB", occupation="SINGER")])
    write(tmp_path, LEVEL3_FILE, LEVEL3_COLUMNS, ["Jazz\tArts\tMusic\t3",
                                                 "Islam\tPhilosophy and religion\tSpecific religions > Abrahamic "
                                                 "religions\t3"])
    for name in ("vital_level4_people_wikidata.tsv", "vital_level5_people_wikidata.tsv"):
        write(tmp_path, name, PEOPLE_COLUMNS, [])
    derived = derive_table_labels([("Wolfgang_Amadeus_Mozart", "Wolfgang Amadéus Mozart"), ("Jazz", "Jazz"),
                                   ("Islam", "Islam"), ("Mercury_(planet)", "Mercury (planet)")], tmp_path)
    assert derived.labels["Wolfgang_Amadeus_Mozart"] == {
        "birthplace": ["Austria"], "occupation": ["composer"], "century": ["18th century"]}
    assert derived.labels["Islam"] == {"field": ["Abrahamic religions"]}
    assert "Mercury_(planet)" not in derived.labels and derived.unmatched["Pantheon 1.0"] == 1


def test_small_rules():
    assert title_key("Pelé") == title_key("pele") == "pele"
    assert field_label("Science", "General") == "Science (general)"
    assert floruit_century(1756) == "18th century" and floruit_century(-384) == "4th century BC"


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared tables lie beside the checkout (../shared) in CI and "
                                               "on developers' machines; a bare clone has none")
def test_the_shared_tables_read_whole():
    assert len(read_pantheon(SHARED)) == 11341
    assert len(read_level3(SHARED)) == 1017
    assert len(read_vital_people(SHARED, LEVEL4_PEOPLE_FILE)) == 1955
