"""Every REST answer of the fake Discord checked against Discord's OpenAPI description.

The description's response schemas are vendored in emulator/discord_openapi/responses.json
(see the README there): for each operation the emulator serves, its id and the schema of
each status code. An answer's operation is found by method and path, its schema by status
(the exact code, else its class such as 4XX), and the body validated (Draft 2020-12).
Answers with 5xx, which the description does not document, are the tests' injected faults
and are not checked."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from jsonschema import Draft202012Validator, ValidationError, _keywords, validators

from fakediscord import RecordedAnswer

RESPONSES = Path(__file__).parent / "emulator" / "discord_openapi" / "responses.json"
PARAMETER = re.compile(r"\{[a-z_]+\}")
ARRAY_INDEX = re.compile(r"\[\d+\]")
UNDOCUMENTED_SERVER_ERRORS = 500
UNKNOWN_PATH_ERROR = {"$ref": "#/$defs/ErrorResponse"}
# Where Discord answers unlike its own description, the description gives way:
# Discord's field errors carry string codes ("BASE_TYPE_MAX_LENGTH"); the description
# reuses the number-coded error object for them.
FIELD_ERROR_CODE = {"type": ["number", "string"]}


Keyword = Callable[[Draft202012Validator, Any, Any, dict[str, Any]], Iterator[ValidationError]]


def quick_validator(valid: set[tuple[int, bytes]]) -> type[Draft202012Validator]:
    """Draft 2020-12 with the same verdicts, found faster: a union stops at the first
    alternative that fits, an alternative is dropped at its first error (the full errors
    are gathered only when nothing fits), and a value once found valid against a `$ref`
    or a union is not walked again.

    The same users, rows of buttons and command options come back in thousands of
    answers, each through unions of a dozen kinds: walked in full, the check of one
    command sync took 150 ms."""
    return validators.extend(
        Draft202012Validator,
        {
            "$ref": remembering(valid, _keywords.ref),
            "anyOf": remembering(valid, first_fitting_alternative),
            "oneOf": remembering(valid, one_fitting_alternative),
        },
    )


def remembering(valid: set[tuple[int, bytes]], keyword: Keyword) -> Keyword:
    def checked(
        validator: Draft202012Validator, value: Any, instance: Any, schema: dict[str, Any]
    ) -> Iterator[ValidationError]:
        if not isinstance(instance, dict | list):
            yield from keyword(validator, value, instance, schema)
            return
        # The keyword's value is the schema document's own object, alive as long as it.
        serialized = orjson.dumps(instance, option=orjson.OPT_SORT_KEYS)
        key = (id(value), hashlib.blake2b(serialized, digest_size=16).digest())
        if key in valid:
            return
        failed = False
        for error in keyword(validator, value, instance, schema):
            failed = True
            yield error
        if not failed:
            valid.add(key)

    return checked


def fits(validator: Draft202012Validator, alternative: Any, index: int, instance: Any) -> bool:
    return next(validator.descend(instance, alternative, schema_path=index), None) is None


def first_fitting_alternative(
    validator: Draft202012Validator, alternatives: list[Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    if not any(
        fits(validator, alternative, index, instance)
        for index, alternative in enumerate(alternatives)
    ):
        yield from _keywords.anyOf(validator, alternatives, instance, schema)


def one_fitting_alternative(
    validator: Draft202012Validator, alternatives: list[Any], instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    fitting = [
        fits(validator, alternative, index, instance)
        for index, alternative in enumerate(alternatives)
    ]
    if sum(fitting) != 1:
        yield from _keywords.oneOf(validator, alternatives, instance, schema)


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    operation_id: str
    responses: dict[str, dict[str, Any] | None]
    pattern: re.Pattern[str]

    @classmethod
    def of(cls, entry: dict[str, Any]) -> Operation:
        segments = PARAMETER.split(entry["path"])
        pattern = re.compile("[^/]+".join(re.escape(segment) for segment in segments) + "$")
        return cls(
            entry["method"], entry["path"], entry["operationId"], entry["responses"], pattern
        )

    @property
    def literal_length(self) -> int:
        """How much of the path is fixed text: /users/@me wins over /users/{user_id}."""
        return len(PARAMETER.sub("", self.path))


@dataclass
class OpenApiAnswers:
    """The check `fake_discord` runs at teardown (fixture `answer_check`), and the tally
    of the whole run: answers checked and the distinct mismatches found."""

    document: dict[str, Any]
    operations: list[Operation]
    checked: int = 0
    mismatches: set[str] = field(default_factory=set)
    _validators: dict[tuple[str, str], Draft202012Validator] = field(default_factory=dict)
    _valid_references: set[tuple[int, bytes]] = field(default_factory=set)

    @classmethod
    def load(cls) -> OpenApiAnswers:
        document = json.loads(RESPONSES.read_text(encoding="utf-8"))
        inner_error = document["$defs"]["Error"]
        field_error = {**inner_error, "properties": {**inner_error["properties"]}}
        field_error["properties"]["code"] = FIELD_ERROR_CODE
        document["$defs"]["FieldError"] = field_error
        document["$defs"]["InnerErrors"]["properties"]["_errors"]["items"] = {
            "$ref": "#/$defs/FieldError"
        }
        return cls(document, [Operation.of(entry) for entry in document["operations"]])

    @property
    def version(self) -> str:
        source = self.document["source"]
        return f"{source['package']} {source['version']}"

    def __call__(self, answers: list[RecordedAnswer]) -> list[str]:
        found: list[str] = []
        for answer in answers:
            if answer.status >= UNDOCUMENTED_SERVER_ERRORS:
                continue
            self.checked += 1
            for mismatch in self.mismatches_of(answer):
                self.mismatches.add(mismatch)
                if mismatch not in found:
                    found.append(mismatch)
        return found

    def mismatches_of(self, answer: RecordedAnswer) -> list[str]:
        operation = self.operation_for(answer.method, answer.path)
        if operation is None:
            if 400 <= answer.status < 500:
                # Discord answers a path it does not know with a 404 error object.
                return self._invalid("unknown path", "4XX", UNKNOWN_PATH_ERROR, answer)
            return [f"{answer.method} {answer.path}: no operation of the description"]
        status = self.status_key(operation, answer.status)
        name = operation.operation_id
        if status is None:
            documented = ", ".join(operation.responses)
            return [f"{name}: answered {answer.status}; the description has {documented}"]
        schema = operation.responses[status]
        if schema is None:
            return [] if not answer.body else [f"{name} {status}: a body where Discord sends none"]
        if not answer.body:
            return [f"{name} {status}: no body"]
        return self._invalid(name, status, schema, answer)

    def operation_for(self, method: str, path: str) -> Operation | None:
        matching = [
            operation
            for operation in self.operations
            if operation.method == method and operation.pattern.match(path)
        ]
        return max(matching, key=lambda operation: operation.literal_length, default=None)

    @staticmethod
    def status_key(operation: Operation, status: int) -> str | None:
        for key in (str(status), f"{status // 100}XX"):
            if key in operation.responses:
                return key
        return None

    def _invalid(
        self, name: str, status: str, schema: dict[str, Any], answer: RecordedAnswer
    ) -> list[str]:
        validator = self._validator(name, status, schema)
        instance = json.loads(answer.body)
        return sorted(
            {
                f"{name} {status} {json_path(error)}: {what_is_wrong(error)}"
                for top in validator.iter_errors(instance)
                for error in leaf_errors(top)
            }
        )

    def _validator(self, name: str, status: str, schema: dict[str, Any]) -> Draft202012Validator:
        key = (name, status)
        if key not in self._validators:
            validator_class = quick_validator(self._valid_references)
            self._validators[key] = validator_class({**schema, "$defs": self.document["$defs"]})
        return self._validators[key]


def leaf_errors(error: ValidationError) -> Iterable[ValidationError]:
    """The errors that say what is wrong: inside an anyOf/oneOf, those of the alternative
    meant for this value (the one it fails least), not the alternative's refusal."""
    if not error.context:
        yield error
        return
    by_alternative: dict[Any, list[ValidationError]] = {}
    for inner in error.context:
        by_alternative.setdefault(inner.relative_schema_path[0], []).append(inner)
    meant = [errors for errors in by_alternative.values() if not refuses_the_kind(errors, error)]
    if not meant:
        yield error
        return
    for inner in min(meant, key=len):
        yield from leaf_errors(inner)


def refuses_the_kind(errors: list[ValidationError], parent: ValidationError) -> bool:
    """The alternative is for another kind of value: another JSON type, or another
    `type` discriminator (a button where a select is)."""
    depth = len(parent.absolute_path)
    for error in errors:
        relative = list(error.absolute_path)[depth:]
        if error.validator in ("type", "const", "enum") and relative in ([], ["type"]):
            return True
    return False


def json_path(error: ValidationError) -> str:
    path = "$" + "".join(
        f"[{part}]" if isinstance(part, int) else f".{part}" for part in error.absolute_path
    )
    return ARRAY_INDEX.sub("[*]", path)


def what_is_wrong(error: ValidationError) -> str:
    if error.validator == "required":
        return error.message
    if error.validator == "oneOf" and not error.context:
        return "fits several alternatives of oneOf"
    if error.validator in ("anyOf", "oneOf"):
        return f"fits no alternative of {error.validator}"
    return f"{error.validator} {json.dumps(error.validator_value)[:80]}"
