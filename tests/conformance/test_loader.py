"""Loading scenario files: every problem with file, line and pointer; never a traceback."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

# at module level: collection imports this file while tests/conformance/conftest.py is the module named
# conftest; inside a test, that name is whichever folder's conftest pytest collected last (tests/site's)
from conftest import REPO

from conformance.errors import InputError
from conformance.loader import Filters, load_scenarios, select
from conformance.specdata import load_spec_data

CLAUSES = """\
clauses:
  - {id: PAT-1, area: patterns}
  - {id: PAT-6, area: patterns}
  - {id: PLAY-4, area: play}
"""
DECISIONS = """\
decisions:
  - {id: D7, key: single_beats, options: [{id: same-suit}, {id: any-suit}], default: same-suit}
  - {id: D17, key: wan_sin_in_set, options: [{id: "no"}, {id: "yes"}], default: "no"}
"""


@pytest.fixture
def mini_spec(tmp_path: Path):
    spec = tmp_path / "spec"
    spec.mkdir()
    (spec / "clauses.yaml").write_text(CLAUSES)
    (spec / "decisions.yaml").write_text(DECISIONS)
    return load_spec_data(spec)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def problems(paths, schemas, spec) -> list[str]:
    with pytest.raises(InputError) as info:
        load_scenarios(paths, schemas, spec)
    return [str(p) for p in info.value.problems]


GOOD = """\
scenarios:
  - id: run-ok
    title: a run
    clauses: [PAT-1]
    requires: {D17: no}
    pattern: {classify: "S3 s4 Sup5", expect: run}
"""


def test_good_file_loads_with_yaml_1_2_booleans(tmp_path, schemas, mini_spec):
    [s] = load_scenarios([write(tmp_path, "a.yaml", GOOD)], schemas, mini_spec)
    assert s.requires == {"D17": "no"}  # `no` stays a string (YAML 1.2), so it names the option
    assert s.kind == "pattern" and s.area == "PAT" and s.line == 2


SCHEMA_LINE = "# yaml-language-server: $schema="


def test_the_editor_schema_line_is_optional_and_lines_still_count_from_the_file(tmp_path, schemas, mini_spec):
    with_line = SCHEMA_LINE + "../spec/schema/scenario.schema.json\n" + GOOD
    [plain] = load_scenarios([write(tmp_path, "plain.yaml", GOOD)], schemas, mini_spec)
    [hinted] = load_scenarios([write(tmp_path, "hinted.yaml", with_line)], schemas, mini_spec)
    assert (hinted.id, hinted.requires, hinted.kind) == (plain.id, plain.requires, plain.kind)
    assert hinted.line == plain.line + 1


def test_every_corpus_file_points_editors_at_the_scenario_schema() -> None:
    # The first line lets a YAML language server (VS Code, Neovim, ...) complete
    # and validate a scenario while it is typed; the path is relative to the file.
    repo = Path(__file__).resolve().parents[2]
    schema = (repo / "spec" / "schema" / "scenario.schema.json").resolve()
    files = sorted((repo / "conformance" / "scenarios").rglob("*.yaml"))
    assert files
    for path in files:
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        assert first.startswith(SCHEMA_LINE), f"{path}: first line should be {SCHEMA_LINE}<relative path>"
        target = (path.parent / first[len(SCHEMA_LINE):]).resolve()
        assert target == schema, f"{path}: {first} does not lead to {schema}"


def test_schema_error_points_at_the_line_of_the_offending_key(tmp_path, schemas, mini_spec):
    path = write(tmp_path, "bad.yaml", """\
        scenarios:
          - id: traj
            title: typo in an expectation
            clauses: [PLAY-4]
            trajectory:
              setup: {dealer: 0, seed: 1}
              steps:
                - {seat: 0, do: call}
                - expect:
                    to_akt: 1
        """)
    [p] = problems([path], schemas, mini_spec)
    assert p.startswith(f"{path}:10: scenario traj:")
    assert "unknown key 'to_akt' (did you mean 'to_act'?)" in p
    assert "(at /scenarios/0/trajectory/steps/1/expect/to_akt)" in p


def test_schema_errors_name_line_and_pointer(tmp_path, schemas, mini_spec):
    path = write(tmp_path, "bad.yaml", """\
        scenarios:
          - id: Bad_ID
            title: x
            clauses: [PAT-1]
            pattern: {classify: "Sup3 Sup4 Sup5", expect: beats}
          - id: two-bodies
            title: x
            clauses: [PAT-1]
            pattern: {classify: "Sup3", expect: single}
            count: {setup: {dealer: 0, seed: 3}, counts: [1]}
          - id: bad-step
            title: x
            clauses: [PAT-1]
            trajectory:
              setup: {dealer: 0, seed: 1}
              steps:
                - {seat: 1, do: call, reject: pass, error: illegal}
                - {seat: 9, do: "play Sup3"}
                - {reject: pass, error: illegal}
        """)
    ps = problems([path], schemas, mini_spec)
    text = "\n".join(ps)
    assert f"{path}:2: scenario Bad_ID: 'Bad_ID' does not match" in text
    assert f"{path}:5: scenario Bad_ID: 'beats' is not one of ['run', 'set', 'single', 'none']" in text
    assert f"{path}:6: scenario two-bodies: a scenario has exactly one body: pattern, trajectory, game, count, setup or batch" in text
    assert f"{path}:17: scenario bad-step: a step has `do` or `reject`, not both" in text
    assert f"{path}:18: scenario bad-step: 9 is greater than the maximum of 3 (at /scenarios/2/trajectory/steps/1/seat)" in text
    assert f"{path}:19: scenario bad-step: 'seat' is a dependency of 'reject'" in text


def test_bad_cards_in_a_setup_are_schema_errors(tmp_path, schemas, mini_spec):
    path = write(tmp_path, "bad.yaml", """\
        scenarios:
          - id: bad-cards
            title: x
            clauses: [PAT-1]
            pattern: {classify: "Sup3 Xyz4", expect: none}
        """)
    [p] = problems([path], schemas, mini_spec)
    assert f"{path}:5:" in p and "'Xyz4' is not a card" in p


def test_unknown_clause_decision_and_option(tmp_path, schemas, mini_spec):
    path = write(tmp_path, "bad.yaml", """\
        scenarios:
          - id: unknowns
            title: x
            clauses: [PAT-1, PAT-99]
            requires:
              D7: sideways
              D99: whatever
            pattern: {classify: "Sup3", expect: single}
        """)
    ps = problems([path], schemas, mini_spec)
    assert f"{path}:4: scenario unknowns: unknown clause 'PAT-99' (not in spec/clauses.yaml) (at /scenarios/0/clauses/1)" in ps
    assert any(p.startswith(f"{path}:6: scenario unknowns: unknown option 'sideways' of D7 (options: same-suit, any-suit)")
               for p in ps)
    assert any(p.startswith(f"{path}:7: scenario unknowns: unknown decision 'D99'") for p in ps)


def test_duplicate_ids_across_files_name_both_places(tmp_path, schemas, mini_spec):
    a = write(tmp_path, "s/a.yaml", GOOD)
    b = write(tmp_path, "s/sub/b.yaml", "\n\n" + GOOD)
    [p] = problems([tmp_path / "s"], schemas, mini_spec)
    assert p.startswith(f"{b}:4: scenario run-ok: duplicate scenario ID: {a}:2 already defines 'run-ok'")


def test_a_duplicate_id_blames_the_new_file_outside_the_corpus_and_names_both(tmp_path, schemas):
    # The new file is loaded first (it sorts, or is named, before the corpus): the corpus file is not to blame.
    from conformance.paths import DEFAULT_SCENARIOS_DIR, default_spec_dir
    new = write(tmp_path, "aaa.yaml", GOOD.replace("run-ok", "obs-discard-hidden-from-others").replace(
        "[PAT-1]", "[OBS-1]").replace("{D17: no}", "defaults"))
    [p] = problems([new, DEFAULT_SCENARIOS_DIR], schemas, load_spec_data(default_spec_dir()))
    assert p.startswith(f"{new}:2: scenario obs-discard-hidden-from-others: duplicate scenario ID: ")
    assert "observation/observe.yaml:8 already defines 'obs-discard-hidden-from-others'" in p
    assert "give this one another ID" in p


def test_a_duplicate_id_blames_the_later_modified_file(tmp_path, schemas, mini_spec):
    import os
    newer = write(tmp_path, "s/a.yaml", GOOD)
    older = write(tmp_path, "s/b.yaml", GOOD)
    os.utime(older, (1_000_000_000, 1_000_000_000))
    [p] = problems([tmp_path / "s"], schemas, mini_spec)
    assert p.startswith(f"{newer}:2: scenario run-ok: duplicate scenario ID: {older}:2 already defines 'run-ok'")


TRAJECTORY = """\
scenarios:
  - id: hand-ok
    title: a hand
    clauses: [PLAY-4]
    trajectory:
      setup:
        dealer: 0
        hands:
          - "Sup1 Sup2 Sup3 Sup4 Sup5 Sup6 Sup7 Sup8 Sup9 Gon1 Gon2 Gon3"
          - "Gon4 Gon5 Gon6 Gon7 Gon8 Gon9 Zok1 Zok2 Zok3 Zok4 Zok5 Zok6"
          - "Sin9"
          - "Zok7 Zok8 Zok9 Sin1 Sin2 Sin3 Sin4 Sin5 Sin6 Sin7 Sin8 WanSin"
      steps:
        - {seat: 0, do: pass}
"""


def test_a_hand_of_eleven_cards_fails_check_naming_the_seat_the_count_and_the_clause(tmp_path, schemas, mini_spec):
    assert load_scenarios([write(tmp_path, "ok.yaml", TRAJECTORY)], schemas, mini_spec)
    short = write(tmp_path, "s/short.yaml", TRAJECTORY.replace(" Gon3\"", "\"", 1).replace(
        '"Zok7 ', '"Gon3 Zok7 ', 1))
    [p] = problems([short], schemas, mini_spec)
    assert p.startswith(f"{short}:9: scenario hand-ok: no deal the rules allow: seat 0 is an active player and "
                        "must hold 12 card(s), not 11")
    assert "[DEAL-4]" in p and "/trajectory/setup/hands/0" in p


def test_a_game_deal_of_eleven_cards_fails_check(tmp_path, schemas, mini_spec):
    game = TRAJECTORY.replace("trajectory:\n      setup:\n        dealer: 0\n        hands:",
                              "game:\n      setup:\n        first_dealer: 0\n        deals:\n        - hands:")
    game = game.replace("Sup9 Gon1 Gon2 Gon3", "Sup9 Gon1 Gon2")
    [p] = problems([write(tmp_path, "g.yaml", game)], schemas, mini_spec)
    assert "no deal the rules allow" in p and "must hold 12 card(s), not 11" in p and "[DEAL-4]" in p
    assert "/game/setup/deals/0/hands/0" in p


def test_an_unknown_action_verb_is_named_as_a_verb_with_the_verbs_allowed(tmp_path, schemas, mini_spec):
    [p] = problems([write(tmp_path, "v.yaml", TRAJECTORY.replace("do: pass", "do: passs"))], schemas, mini_spec)
    assert "unknown action verb 'passs' ('passs' is not a verb; did you mean 'pass'?)" in p
    assert "the verbs are call, pass, play, discard, claim, continue, tigers, decline" in p
    assert "not a card" not in p


def test_a_yaml_indentation_error_says_what_to_fix(tmp_path, schemas, mini_spec):
    bad = write(tmp_path, "i.yaml", TRAJECTORY.replace("        - {seat: 0, do: pass}",
                                                        "        - {seat: 0, do: pass}\n       - {seat: 1, do: pass}"))
    [p] = problems([bad], schemas, mini_spec)
    assert p.startswith(f"{bad}:15: invalid YAML:")
    assert "check the indentation of line 15: '- {seat: 1, do: pass}' is indented 7 spaces, line 14 above it 8" in p
    deeper = write(tmp_path, "j.yaml", GOOD.replace("    title: a run", "     title: a run"))
    [p] = problems([deeper], schemas, mini_spec)
    assert "check the indentation of line" in p


def test_yaml_syntax_error_duplicate_key_and_empty_file(tmp_path, schemas, mini_spec):
    syntax = write(tmp_path, "s/a.yaml", "scenarios:\n  - id: x\n    title: [unclosed\n")
    dup = write(tmp_path, "s/b.yaml", GOOD.replace("    title: a run\n", "    title: a run\n    title: again\n"))
    empty = write(tmp_path, "s/c.yaml", "")
    ps = problems([tmp_path / "s"], schemas, mini_spec)
    assert any(p.startswith(f"{syntax}:") and "invalid YAML" in p for p in ps)
    assert f"{dup}:4: duplicate key 'title' (at /scenarios/0/title)" in ps
    assert any(p.startswith(f"{empty}:") and "empty" in p for p in ps)


def test_missing_path(tmp_path, schemas, mini_spec):
    [p] = problems([tmp_path / "nope"], schemas, mini_spec)
    assert p.endswith("nope: no such file or directory")


def test_generated_flag_and_location_must_agree(tmp_path, schemas, mini_spec):
    gen = GOOD.replace("    title: a run\n", "    title: a run\n    generated: true\n")
    write(tmp_path, "s/hand/a.yaml", gen)
    write(tmp_path, "s/generated/b.yaml", GOOD.replace("run-ok", "run-ok-2"))
    ps = problems([tmp_path / "s"], schemas, mini_spec)
    assert any("`generated: true` scenarios live under scenarios/generated/" in p for p in ps)
    assert any("scenarios under generated/ must carry `generated: true`" in p for p in ps)


def test_missing_spec_files_only_warn(tmp_path, schemas):
    spec = load_spec_data(tmp_path)
    assert spec.clauses is None and spec.decisions is None and len(spec.warnings) == 2
    [s] = load_scenarios([write(tmp_path, "a.yaml", GOOD.replace("PAT-1", "ZZZ-1"))], schemas, spec)
    assert s.clauses == ("ZZZ-1",)


def test_filters(tmp_path, schemas, mini_spec):
    path = write(tmp_path, "a.yaml", """\
        scenarios:
          - {id: run-one, title: x, clauses: [PAT-1], tags: [fast], pattern: {classify: Sup3, expect: single}}
          - {id: run-two, title: x, clauses: [PAT-6, PLAY-4], pattern: {current: Sup3, challenger: Sup4, expect: beats}}
          - {id: other, title: x, clauses: [PLAY-4], count: {setup: {dealer: 0, seed: 1}, counts: [1]}}
        """)
    all_ = load_scenarios([path], schemas, mini_spec)

    def ids(**kw):
        return [s.id for s in select(all_, Filters(**{k: tuple(v) for k, v in kw.items()}))]

    assert ids(ids=["run-*"]) == ["run-one", "run-two"]
    assert ids(clauses=["PLAY-4"]) == ["run-two", "other"]
    assert ids(clauses=["pat-*"]) == ["run-one", "run-two"]
    assert ids(areas=["play"]) == ["run-two", "other"]
    assert ids(tags=["fast"]) == ["run-one"]
    assert ids(kinds=["count"]) == ["other"]
    assert ids(ids=["run-*"], areas=["PLAY"]) == ["run-two"]
    assert ids(files=[str(path)]) == ids(files=["a.yaml"]) == ["run-one", "run-two", "other"]
    assert ids(files=["elsewhere/*"]) == []


def test_the_repository_scenarios_are_valid(schemas, spec_data):
    assert load_scenarios([REPO / "conformance" / "scenarios"], schemas, spec_data)


def test_a_beats_question_no_hand_reaches_is_refused_at_its_line(tmp_path, schemas, mini_spec):
    path = write(tmp_path, "premise.yaml", """\
        scenarios:
          - id: reachable
            title: x
            clauses: [PAT-1]
            pattern: {current: "Sup8", challenger: "Sup7", elders: "Sup1 Sup8 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin", expect: does-not-beat}
          - id: sup9-still-in-play
            title: x
            clauses: [PAT-1]
            pattern:
              current: "Sup8"
              challenger: "Sup9"
              elders: "Sup1 Sup8 Sup9 Gon9 Zok9 Sin1 Sin9 WanSin"
              expect: does-not-beat
        """)
    [p] = problems([path], schemas, mini_spec)
    assert f"{path}:10: scenario sup9-still-in-play: no hand reaches this position" in p
    assert "Sup9 is on the table (ELD-2)" in p
