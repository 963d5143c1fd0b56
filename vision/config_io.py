"""Reading and writing configuration dataclasses as JSON.

Every stage keeps its thresholds in a frozen dataclass; this module turns any
such tree into plain JSON and back, checking every value's type against the
field's annotation so that a typo in a club's config file is an error that
names the field, never a silently ignored setting.
"""

import dataclasses
import enum
import json
import os
import tempfile
import types
import typing
from pathlib import Path
from typing import Any, TypeVar

from vision.errors import ConfigError

T = TypeVar("T")


def to_json(value: object) -> Any:
    """Plain JSON data for a dataclass tree (enums by value, tuples as lists)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    return value


def from_json(cls: type[T], data: object, where: str = "config") -> T:
    """Build ``cls`` from JSON data; missing fields keep their defaults."""
    return typing.cast(T, _convert(cls, data, where))


def _convert(annotation: Any, data: object, where: str) -> Any:
    origin = typing.get_origin(annotation)
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: an object expected, not {data!r}")
        hints = typing.get_type_hints(annotation)
        names = {f.name for f in dataclasses.fields(annotation) if f.init}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ConfigError(f"{where}: unknown setting(s) {', '.join(unknown)}")
        values = {name: _convert(hints[name], item, f"{where}.{name}")
                  for name, item in data.items()}
        try:
            return annotation(**values)
        except (TypeError, ValueError) as exc:
            raise ConfigError(f"{where}: {exc}") from exc
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(annotation)
        if data is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _convert(option, data, where)
            except ConfigError as exc:
                errors.append(str(exc))
        raise ConfigError(errors[0] if errors else f"{where}: unexpected {data!r}")
    if origin is typing.Literal:
        if data not in typing.get_args(annotation):
            raise ConfigError(f"{where}: one of {list(typing.get_args(annotation))}, "
                              f"not {data!r}")
        return data
    if origin is tuple:
        args = typing.get_args(annotation)
        if not isinstance(data, list):
            raise ConfigError(f"{where}: a list expected, not {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise ConfigError(f"{where}: {len(args)} values expected, not {len(data)}")
        return tuple(_convert(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data,
                                                                                  strict=True)))
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        try:
            return annotation(data)
        except ValueError:
            raise ConfigError(f"{where}: one of {[m.value for m in annotation]}, "
                              f"not {data!r}") from None
    if annotation is bool:
        if not isinstance(data, bool):
            raise ConfigError(f"{where}: true or false, not {data!r}")
        return data
    if annotation is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise ConfigError(f"{where}: a whole number, not {data!r}")
        return data
    if annotation is float:
        if not isinstance(data, int | float) or isinstance(data, bool):
            raise ConfigError(f"{where}: a number, not {data!r}")
        return float(data)
    if annotation is str:
        if not isinstance(data, str):
            raise ConfigError(f"{where}: text, not {data!r}")
        return data
    raise ConfigError(f"{where}: cannot read a setting of type {annotation!r}")


def load(cls: type[T], path: str | Path) -> T:
    """Read a config file; raises :class:`ConfigError` naming the file and the problem."""
    file = Path(path)
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{file}: no such config file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{file}: cannot read it ({exc})") from exc
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{file}: not valid JSON (line {exc.lineno}: {exc.msg})") from exc
    try:
        return from_json(cls, data, file.name)
    except ConfigError as exc:
        raise ConfigError(f"{file}: {exc}") from exc


def save(value: object, path: str | Path) -> None:
    """Write a config atomically (a crash never leaves half a file)."""
    file = Path(path)
    text = json.dumps(to_json(value), indent=2, sort_keys=False) + "\n"
    file.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=file.name, suffix=".tmp", dir=file.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, file)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
