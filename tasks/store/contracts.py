"""Turn pydantic validation errors into ContractErrors that name the file and the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from tasks.store.errors import ContractError

ModelT = TypeVar("ModelT", bound=BaseModel)


def describe_validation_error(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        field = ".".join(str(p) for p in item["loc"]) or "(top level)"
        parts.append(f"field '{field}': {item['msg']}")
    more = len(error.errors()) - 5
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


def validate_model(model: type[ModelT], data: Any, *, file: str | Path | None) -> ModelT:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ContractError(
            f"invalid {model.__name__}: {describe_validation_error(exc)}",
            file=file,
            hint="fix the named field; see spec/memory-bank.md for the contract",
        ) from exc
