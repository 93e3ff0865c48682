"""Validate: check each report candidate, and the leaderboard itself, against the shipped JSON Schemas."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import fastjsonschema
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

from .problems import Problem, pointer

REPORT_SCHEMA = "benchmark-report.schema.json"
LEADERBOARD_SCHEMA = "leaderboard.schema.json"
SCHEMA_NAMES = (REPORT_SCHEMA, LEADERBOARD_SCHEMA)
SCHEMA_DIR = Path(__file__).parent / "schemas"


def _strict_integer(checker: Any, instance: Any) -> bool:
    # JSON Schema calls 1.0 an integer, and Python calls True one; the contract takes neither.
    return isinstance(instance, int) and not isinstance(instance, bool)


_StrictValidator = validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer),
)


def schema_text(name: str) -> str:
    """The text of a shipped schema, as published under ``schemas/``."""
    return (SCHEMA_DIR / name).read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def validator(name: str) -> Any:
    """The compiled validator of a shipped schema: built once per process."""
    schema = json.loads(schema_text(name))
    _StrictValidator.check_schema(schema)
    return _StrictValidator(schema)


# Keywords that only annotate: merging a $ref's target into a schema that holds only these is exact.
_ANNOTATIONS = frozenset({"description", "title", "$comment", "examples", "default"})


def inline_refs(schema: Any, defs: dict[str, Any], seen: tuple[str, ...] = ()) -> Any:
    """``schema`` with every local ``{"$ref": "#/$defs/NAME"}`` replaced by the definition itself.

    The result accepts exactly what ``schema`` accepts; jsonschema just skips the reference lookup
    per instance, which is most of its cost on small reports. A ``$ref`` beside other assertions is
    kept as an ``allOf``. Raises ``ValueError`` for a reference it cannot inline (remote or cyclic)."""
    if isinstance(schema, list):
        return [inline_refs(item, defs, seen) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result = {key: inline_refs(value, defs, seen) for key, value in schema.items() if key not in ("$ref", "$defs")}
    if "$ref" not in schema:
        return result
    reference = schema["$ref"]
    name = reference[len("#/$defs/"):] if reference.startswith("#/$defs/") else None
    if name is None or "/" in name or "~" in name or name not in defs or name in seen:
        raise ValueError(f"cannot inline the reference {reference!r}")
    target = inline_refs(defs[name], defs, seen + (name,))
    if set(result) <= _ANNOTATIONS and isinstance(target, dict):
        return {**result, **target}
    return {**result, "allOf": [target, *result.get("allOf", [])]}


@lru_cache(maxsize=None)
def fast_validator(name: str) -> Any:
    """A validator of the same schema with its references inlined: the same verdicts, faster.
    It answers yes or no; ``validator`` walks the errors of the few documents it rejects."""
    schema = json.loads(schema_text(name))
    try:
        flat = inline_refs(schema, schema.get("$defs", {}))
    except ValueError:
        return validator(name)
    _StrictValidator.check_schema(flat)
    return _StrictValidator(flat)


_TYPE_WORDS = {
    "object": "a JSON object",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "array": "an array",
    "null": "null",
}


def _rule(error: ValidationError) -> str:
    keyword = error.validator
    if keyword == "required":
        return "is required"
    if keyword == "type":
        expected = error.validator_value
        words = [_TYPE_WORDS.get(t, t) for t in (expected if isinstance(expected, list) else [expected])]
        if isinstance(error.instance, bool):  # JSON's true and false are not numbers here
            return "must be " + " or ".join(words) + f", not {str(error.instance).lower()}"
        return "must be " + " or ".join(words)
    if keyword == "pattern" and error.validator_value == "\\S":
        return "must not be empty or only white space"
    if keyword == "minimum":
        return f"must be at least {error.validator_value}"
    if keyword == "maximum":
        return f"must be at most {error.validator_value}"
    if keyword == "const" and error.validator_value is True:
        return "must be exactly true: only reports marked synthetic are published"
    if keyword == "const":
        return f"must be {json.dumps(error.validator_value)}"
    if keyword == "pattern":
        return f"must match {error.validator_value}"
    return f"breaks the schema rule {keyword!r}"


def problems_of(name: str, document: Any, file: str) -> list[Problem]:
    """Every violation of schema ``name`` by ``document``, as sorted problems of ``file``."""
    if fast_validator(name).is_valid(document):
        return []
    found: set[Problem] = set()
    for error in validator(name).iter_errors(document):
        found.update(_problems_of_error(error, file))
    return sorted(found)


def _problems_of_error(error: ValidationError, file: str) -> Iterable[Problem]:
    if error.validator == "required":
        present = error.instance if isinstance(error.instance, dict) else {}
        for name in error.validator_value:
            if name not in present:
                yield Problem(file, pointer(*error.absolute_path, name), "is required")
        return
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        for name in sorted(set(error.instance) - set(known)):
            yield Problem(file, pointer(*error.absolute_path, name), "is not a field the schema allows")
        return
    yield Problem(file, pointer(*error.absolute_path), _rule(error))


@lru_cache(maxsize=None)
def compiled(name: str) -> Any:
    """A shipped schema compiled to Python code by fastjsonschema: a yes-or-no check about fifteen
    times quicker than jsonschema, for documents as large as a 10,000-row leaderboard."""
    return fastjsonschema.compile(json.loads(schema_text(name)))


def leaderboard_problems(document: Any) -> list[Problem]:
    """The problems of the leaderboard.json document about to be written: none, or every violation."""
    try:
        compiled(LEADERBOARD_SCHEMA)(rows_checked_once(document))
        return []
    except fastjsonschema.JsonSchemaException as error:
        found = problems_of(LEADERBOARD_SCHEMA, document, "leaderboard.json")
        return found or [Problem("leaderboard.json", "", f"breaks its schema: {error.message}")]


def rows_checked_once(document: Any) -> Any:
    """``document``, or a view of it that the schema accepts exactly when it accepts ``document``
    and that is quicker to check: each row is in ``rows`` and again in its family, and when every
    family row is one of the very objects in ``rows``, which are all checked, the view keeps only the
    first row of each family (so that a family without rows is still refused)."""
    try:
        checked = {id(row) for row in document["rows"]}
        view = {**document, "suites": []}
        for suite in document["suites"]:
            families = []
            for family in suite["families"]:
                rows = family["rows"]
                if type(rows) is not list or not all(id(row) in checked for row in rows):
                    return document
                families.append({**family, "rows": rows[:1]})
            view["suites"].append({**suite, "families": families})
        return view
    except (TypeError, KeyError):
        return document
