"""Reference pages drawn from the code and the schemas: message fields, the command line's help.

``hakka-message-fields`` tabulates a JSON Schema of ``spec/schema/``;
``hakka-cli-help`` shows what ``python -m conformance.cli … --help`` prints
(with a fixed width, so the page is the same on every machine).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from docutils import nodes
from hakka_gettext import _
from hakka_i18n import rst_escape
from hakka_nodes import spec_root
from sphinx.util.docutils import SphinxDirective


def _schema_type(schema: dict[str, Any]) -> str:
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    if "$ref" in schema:
        ref: str = schema["$ref"]
        return ref.split("/")[-1].replace(".schema.json", "")
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return " or ".join(_schema_type(s) for s in schema[key])
    t = schema.get("type")
    if isinstance(t, list):
        return " | ".join(t)
    if t == "array":
        return f"array of {_schema_type(schema.get('items', {}))}"
    return str(t or "any")


def _object_of(schema: dict[str, Any]) -> dict[str, Any]:
    """A message's object schema (a response's success branch)."""
    if "properties" in schema:
        return schema
    if "else" in schema:
        return _object_of(schema["else"])
    return schema


class MessageFieldsDirective(SphinxDirective):
    """The fields of one message or object, from its JSON Schema.

    ``.. hakka-message-fields:: hello.request`` (a protocol message) or
    ``.. hakka-message-fields:: scenario.schema.json#/$defs/scenario`` (any object of a schema).
    """

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        root = spec_root(self.env.app)
        arg = self.arguments[0]
        if ".json" in arg:  # "scenario.schema.json#/$defs/scenario": a file under spec/schema/ and a pointer
            file, _sep, pointer = arg.partition("#")
            path = root / "spec" / "schema" / file
        else:  # "hello.request": a protocol message
            path, pointer = root / "spec" / "schema" / "protocol" / f"{arg}.schema.json", ""
        if not path.exists():
            raise self.error(f"missing schema {path.relative_to(root)}")
        self.env.note_dependency(str(path))
        schema = json.loads(path.read_text(encoding="utf-8"))
        for part in [p for p in pointer.split("/") if p]:
            try:
                schema = schema[part]
            except (KeyError, TypeError):
                raise self.error(f"{path.relative_to(root)} has nothing at {pointer}") from None
        out: list[nodes.Node] = []
        source = (str(path), None)
        if schema.get("description"):
            out.append(described(schema["description"], source))
        name = arg.split("#")[-1].split("/")[-1].replace(".", " ")
        out.append(self.fields_table(schema, _("Fields of {name}").format(name=name), source))
        return out

    def fields_table(self, schema: dict[str, Any], caption: str, source: tuple[str, None]) -> nodes.Node:
        obj = _object_of(schema)
        rows: list[tuple[str, str, str, str]] = []

        def walk(props: dict[str, Any], req: set[str], prefix: str) -> None:
            for name, sub in props.items():
                rows.append((prefix + name, _schema_type(sub), _("yes") if name in req else "", sub.get("description", "")))
                if sub.get("type") == "object" and "properties" in sub:
                    walk(sub["properties"], set(sub.get("required", [])), prefix + name + ".")

        walk(obj.get("properties", {}), set(obj.get("required", [])), "")
        with_meaning = any(r[3] for r in rows)
        headers = [_("field"), _("type"), _("required")] + ([_("meaning")] if with_meaning else [])
        widths = [22, 30, 10, 38] if with_meaning else [30, 55, 15]
        table = nodes.table(classes=["hk-fields"])
        table += nodes.title(text=caption)
        group = nodes.tgroup(cols=len(headers))
        table += group
        for w in widths:
            group += nodes.colspec(colwidth=w)
        head = nodes.thead()
        row = nodes.row()
        for h in headers:
            row += nodes.entry("", nodes.paragraph(text=h))
        head += row
        group += head
        body = nodes.tbody()
        for name, typ, req, desc in rows:
            row = nodes.row()
            row += nodes.entry("", nodes.paragraph("", "", nodes.literal(text=name)))
            row += nodes.entry("", nodes.paragraph(text=typ))
            row += nodes.entry("", nodes.paragraph(text=req))
            if with_meaning:
                row += nodes.entry("", described(desc, source))
            body += row
        group += body
        return table


def described(text: str, source: tuple[str, None]) -> nodes.paragraph:
    """A schema's description as a translatable paragraph: its msgid is RST, `code` written ``code``."""
    p = nodes.paragraph("", "", *code_spans(text))
    p.rawsource = "".join(f"``{part}``" if i % 2 else rst_escape(part) for i, part in enumerate(text.split("`")))
    p.source, p.line = source
    p["hk_msg"] = True
    return p


def code_spans(text: str) -> list[nodes.Node]:
    """Text whose `backquoted` parts (Markdown style, as in the schemas) become literals."""
    out: list[nodes.Node] = []
    for i, part in enumerate(text.split("`")):
        if part:
            out.append(nodes.literal(text=part) if i % 2 else nodes.Text(part))
    return out


class CliHelpDirective(SphinxDirective):
    """``.. hakka-cli-help:: run``: the output of ``python -m conformance.cli [cmd] --help``."""

    optional_arguments = 1

    def run(self) -> list[nodes.Node]:
        root = spec_root(self.env.app)
        args = [sys.executable, "-m", "conformance.cli", *self.arguments, "--help"]
        try:
            proc = subprocess.run(
                args, cwd=root, capture_output=True, text=True, timeout=60, env={**os.environ, "COLUMNS": "76"}
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise self.error(f"cannot run {' '.join(args[1:])}: {exc}") from exc
        if proc.returncode != 0:
            raise self.error(
                f"`python -m conformance.cli {' '.join(self.arguments)} --help` failed "
                f"(exit {proc.returncode}): {proc.stderr.strip()[-400:]}"
            )
        text = proc.stdout.rstrip()
        block = nodes.literal_block(text, text, language="text", classes=["hk-cli-help"])
        return [block]
