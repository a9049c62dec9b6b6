"""The site's badges, languages and corpus versions, read from the files it writes."""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest

from conformance.cli import main
from conformance.corpus import Corpus
from conformance.paths import default_spec_dir
from conformance.site import badges
from conformance.site.i18n import LANGUAGES, Translator, catalog
from conformance.site.model import slug

SCHEMA = default_spec_dir() / "schema" / "badge" / "shields-endpoint.schema.json"


def test_every_badge_is_valid_json_of_the_shields_endpoint_schema_and_valid_svg(site):
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema).check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    found = sorted((site / "badges").glob("*.json"))
    assert found
    for path in found:
        data = json.loads(path.read_text(encoding="utf-8"))
        validator.validate(data)
        svg = ET.fromstring(path.with_suffix(".svg").read_text(encoding="utf-8"))
        assert svg.tag == "{http://www.w3.org/2000/svg}svg"
        texts = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
        assert texts == ["hakka conformance", data["message"]]


def test_the_schema_refuses_what_shields_refuses():
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    good = {"schemaVersion": 1, "label": "hakka conformance", "message": "557/557", "color": "brightgreen"}
    assert validator.is_valid(good)
    for bad in ({**good, "schemaVersion": 2}, {**good, "message": ""}, {k: v for k, v in good.items() if k != "label"},
                {**good, "cacheSeconds": 10}, {**good, "style": "round"}, {**good, "colour": "red"}):
        assert not validator.is_valid(bad), bad


def test_badge_figures():
    assert badges.badge(557, 0, 0) == {"schemaVersion": 1, "label": "hakka conformance", "message": "557/557",
                                       "color": "brightgreen"}
    assert badges.badge(402, 0, 155)["message"] == "402/557, 155 skipped"
    assert badges.badge(100, 117, 340)["color"] == "red"


def test_the_reference_badge_counts_its_report(built, reports):
    data = json.loads(reports["reference"].read_text(encoding="utf-8"))
    badge = json.loads((built / "badges" / f"{slug(data['engine']['name'])}.json").read_text(encoding="utf-8"))
    n = len(data["results"])
    assert badge["message"] == f"{n}/{n}" and badge["color"] == "brightgreen"


def test_a_report_of_another_corpus_version_is_shown_apart_as_such(built, reports, capsys):
    now = Corpus.load().version  # the corpus the site counts: the release in conformance/corpus.yaml
    front = (built / "en" / "index.html").read_text(encoding="utf-8")
    main_table, _, apart = front.partition('id="other-corpus"')
    assert "hakka-old-corpus" not in main_table and "hakka-old-corpus" in apart
    assert f"These reports ran corpus 0.9.0, not {now}" in apart
    engine = (built / "en" / "engines" / "hakka-old-corpus.html").read_text(encoding="utf-8")
    assert f"This report ran corpus 0.9.0, not {now}" in engine
    clause = (built / "en" / "clauses" / "tig-1.html").read_text(encoding="utf-8")
    grid = clause.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert "hakka-old-corpus" not in grid, "never counted with the others"
    assert "Not counted here (another corpus version):" in clause
    out = built.parent / "again"
    assert main(["site", str(reports["old-corpus"]), str(reports["reference"]), "--out", str(out)]) == 0
    assert f"a report of corpus 0.9.0, not {now}: shown apart as such" in capsys.readouterr().err


def test_the_diff_page_says_what_was_fixed(built):
    page = (built / "en" / "diff" / "hakka-reference-1.html").read_text(encoding="utf-8")
    fixed = page.split("Fixed (failing before, not now) (", 1)[1]
    assert fixed.startswith("2)"), fixed[:40]
    assert "Broke (passed or skipped before, failing now) (0)" in page


def test_bad_input_is_one_line_naming_the_file(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "hakka-conformance-report", "version": 2}', encoding="utf-8")
    assert main(["site", str(bad), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}: /: ") and "Traceback" not in err
    assert main(["site", str(tmp_path / "missing.json"), "--out", str(tmp_path / "out")]) == 2
    assert "missing.json: cannot read a JSON report" in capsys.readouterr().err


def test_every_message_is_translated_in_every_language_with_its_placeholders():
    messages = catalog()
    source = (Path(__file__).parents[2] / "conformance" / "site" / "pages.py").read_text(encoding="utf-8")
    used = set(re.findall(r'\bt\(\s*"([^"]*)"', source)) | set(re.findall(r"\bt\(\s*'([^']*)'", source))
    assert used <= set(messages), used - set(messages)
    flat = source.replace('"\n                "', "")  # a long message written on two lines
    unused = [m for m in messages if f'"{m}"' not in flat and f"'{m}'" not in flat and m not in ("passed", "failed", "skipped")]
    assert not unused, f"messages the pages do not use: {unused}"
    for msgid, entry in messages.items():
        assert set(entry) == set(LANGUAGES), msgid
        for lang, text in entry.items():
            assert text.strip(), (msgid, lang)
            assert sorted(re.findall(r"\{\w+\}", text)) == sorted(re.findall(r"\{\w+\}", msgid)), (msgid, lang)
    for lang in ("hi", "ar"):  # scripts of their own: no English message left as it is
        same = [m for m, e in messages.items() if e[lang] == m and re.search("[a-z]{3}", re.sub(r"\{\w+\}", "", m))]
        assert not same, (lang, same)
    assert Translator("ar").dir == "rtl" and Translator("de")("Clauses") == "Klauseln"


def test_the_languages_are_the_rulebooks():
    sys.path.insert(0, str(Path(__file__).parents[2] / "docs" / "_ext"))
    hakka_site = pytest.importorskip("hakka_site")
    assert hakka_site.BOOK_LANGUAGES == LANGUAGES


def test_the_engine_page_shows_its_fuzz_summary(built, reports):
    data = json.loads(reports["fuzz-fake"].read_text(encoding="utf-8"))
    found = sum(1 for lane in data["lane_results"] if lane["found"])
    hands = sum(len(lane["hands"]) for lane in data["lane_results"])
    assert found >= 1
    page = (built / "en" / "engines" / f"{slug(data['engine']['name'])}.html").read_text(encoding="utf-8")
    assert "Fuzzing against the reference" in page
    assert f"hands played: {hands}; disagreements: {found};" in page
    assert '<li class="bad"><code>fuzz-fake.json</code>' in page


def test_a_fuzz_report_that_breaks_its_schema_is_refused_naming_it(tmp_path, reports, capsys):
    data = json.loads(reports["fuzz-fake"].read_text(encoding="utf-8"))
    del data["seed"]
    bad = tmp_path / "fuzz.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["site", str(reports["reference"]), str(bad), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"error: {bad}: /: " in err and "seed" in err


def test_a_release_is_counted_before_its_modified_runs_whatever_the_order(reports, tmp_path):
    # A report run on edited scenarios says V+modified. The site counts the release V, the modified run
    # apart; it chose whichever of the two a set of strings gave last (PYTHONHASHSEED decided).
    from conformance.site.model import _order, load

    release = Corpus.load().version
    both = [release, f"{release}+modified"]
    assert sorted(both, key=_order)[-1] == sorted(reversed(both), key=_order)[-1] == release
    data = json.loads(reports["reference"].read_text(encoding="utf-8"))
    data["engine"]["name"], data["corpus"]["version"] = "hakka-edited", f"{release}+modified"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data), encoding="utf-8")
    for order in ([reports["reference"], edited], [edited, reports["reference"]]):
        site = load(order)
        assert site.version == release and [e.key for e in site.others] == ["hakka-edited"]


def test_the_rulebook_copied_into_the_site_makes_a_folder_that_stands_alone(reports, tmp_path, links, capsys):
    book = tmp_path / "book"
    for lang in LANGUAGES:
        (book / lang / "rules").mkdir(parents=True)
        (book / lang / "index.html").write_text("<title>book</title>", encoding="utf-8")
    (book / ".buildinfo").write_text("sphinx", encoding="utf-8")
    out = tmp_path / "site"
    assert main(["site", str(reports["reference"]), "--out", str(out), "--rulebook", str(book), "--copy-rulebook"]) == 0
    assert (out / "rulebook" / "ar" / "index.html").is_file() and not (out / "rulebook" / ".buildinfo").exists()
    page = out / "de" / "clauses" / "tig-1.html"
    into = [link for link in links.parse(page).links if "/rules/" in link]
    assert into and all(link.startswith("../../rulebook/de/rules/") for link in into), into
    assert all((page.parent / link.split("#")[0]).resolve().parent == (out / "rulebook" / "de" / "rules").resolve()
               for link in into)
    capsys.readouterr()
    assert main(["site", str(reports["reference"]), "--out", str(tmp_path / "again"), "--rulebook",
                 str(tmp_path / "nothing"), "--copy-rulebook"]) == 2
    assert "--copy-rulebook: " in capsys.readouterr().err
