"""Validate: check each report candidate, and the leaderboard itself, against the shipped JSON Schemas."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

import fastjsonschema
from fastjsonschema.draft04 import CodeGeneratorDraft04
from fastjsonschema.draft2019 import CodeGeneratorDraft2019
from fastjsonschema.ref_resolver import RefResolver

from ..problems import Problem, pointer

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

REPORT_SCHEMA = "benchmark-report.schema.json"
LEADERBOARD_SCHEMA = "leaderboard.schema.json"
UNCERTAINTY_SCHEMA = "uncertainty.schema.json"
SCHEMA_NAMES = (REPORT_SCHEMA, LEADERBOARD_SCHEMA, "leaderboard-diff.schema.json", UNCERTAINTY_SCHEMA)
SCHEMA_DIR = Path(__file__).parent / "schemas"


def _strict_integer(checker: Any, instance: Any) -> bool:
    # JSON Schema calls 1.0 an integer, and Python calls True one; the contract takes neither.
    return isinstance(instance, int) and not isinstance(instance, bool)


def schema_text(name: str) -> str:
    """The text of a shipped schema, as published under ``schemas/``."""
    return (SCHEMA_DIR / name).read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def validator(name: str) -> Any:
    """jsonschema's validator of a shipped schema, built once per process, and only when needed:
    it names every problem of a document that ``compiled`` refuses."""
    from jsonschema import Draft202012Validator, validators

    strict = validators.extend(
        Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer),
        validators={"pattern": _ecma_pattern})
    schema = json.loads(schema_text(name))
    strict.check_schema(schema)
    return strict(schema)


# A pattern's "$" ends the text, as in ECMA-262, whose regular expressions JSON Schema speaks; in
# Python's re it also matches before a final line break. fastjsonschema reads it the same way.
_DOLLAR = re.compile(r"(?<!\\)\$")


def _ecma_pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Any:
    from jsonschema.exceptions import ValidationError

    if isinstance(instance, str) and not re.search(_DOLLAR.sub(r"\\Z", pattern), instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


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
    """Every violation of schema ``name`` by ``document``, as sorted problems of ``file``: the
    compiled check says yes or no, and jsonschema walks the errors of the few it refuses."""
    try:
        compiled(name)(document)
        return []
    except fastjsonschema.JsonSchemaException:
        pass
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


# Not fastjsonschema.compile: its public API gives no way to check a draft 2020-12 schema's integers as
# draft 4 does (an int, never 1.0), which the contract needs; so its code generator is extended here.
class _StrictCodeGenerator(CodeGeneratorDraft2019):
    """fastjsonschema's code for draft 2019-09 (which it also uses for 2020-12), with the integer
    of draft 4: an ``int``, never ``1.0`` nor ``true``, as ``_strict_integer`` says."""

    generate_type = CodeGeneratorDraft04.generate_type


def _no_remote_reference(uri: str) -> Any:
    raise ValueError(f"the shipped schemas refer to nothing outside themselves, not to {uri}")


@lru_cache(maxsize=None)
def compiled(name: str) -> Callable[[Any], Any]:
    """A shipped schema compiled to Python code by fastjsonschema: the verdicts of ``validator``,
    at a fraction of jsonschema's cost per document. It raises
    ``fastjsonschema.JsonSchemaException`` for a document the schema refuses."""
    return _compile(json.loads(schema_text(name)))


@lru_cache(maxsize=None)
def compiled_row() -> Callable[[Any], Any]:
    """The leaderboard schema's definition of a row, compiled on its own."""
    schema = json.loads(schema_text(LEADERBOARD_SCHEMA))
    return _compile({"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/row"})


def _compile(schema: Any) -> Callable[[Any], Any]:
    resolver = RefResolver.from_schema(schema, handlers={scheme: _no_remote_reference for scheme in ("http", "https", "file")},
                                       store={})
    generator = _StrictCodeGenerator(schema, resolver=resolver, formats={}, use_default=False, use_formats=False)
    namespace = generator.global_state
    exec(generator.func_code, namespace)  # noqa: S102 - the code fastjsonschema wrote for our own schema
    return namespace[resolver.get_scope_name()]


def rows_valid(rows: Iterable[Any]) -> bool:
    """Whether each of these leaderboard rows (their fields) is a row the leaderboard schema allows."""
    check = compiled_row()
    try:
        for fields in rows:
            check(fields)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def leaderboard_problems(document: Any) -> list[Problem]:
    """The problems of the leaderboard.json document about to be written: none, or every violation."""
    return published_problems(LEADERBOARD_SCHEMA, document, "leaderboard.json")


def uncertainty_problems(document: Any) -> list[Problem]:
    """The problems of the uncertainty.json document about to be written: none, or every violation."""
    return published_problems(UNCERTAINTY_SCHEMA, document, "uncertainty.json")


def published_problems(name: str, document: Any, file: str) -> list[Problem]:
    """The problems of a document the site publishes as ``file``, against its shipped schema
    ``name``: none, or every violation."""
    try:
        compiled(name)(document)
        return []
    except fastjsonschema.JsonSchemaException as error:
        found = problems_of(name, document, file)
        return found or [Problem(file, "", f"breaks its schema: {error.message}")]
