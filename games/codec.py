"""The one snapshot codec every game state uses.

A state class is a dataclass. Each of its constructor fields is one key of its
snapshot (the field's name, or the ``key`` given to :func:`stored`), written
and read by the field's :class:`Codec` (:data:`PLAIN` unless :func:`stored`
names another). Fields declared ``field(init=False)`` are derived from the
stored ones in ``__post_init__`` and are not stored.

A snapshot starts with a header, ``{"game": game_id, "format": n}``: the state
class's ``game_id`` and ``snapshot_format``. :func:`restore` refuses another
game or format, and turns a missing or malformed field into
:class:`~games.errors.MalformedAction`. For example::

    @dataclass(eq=False, kw_only=True)
    class MyState(GameState):          # GameState stores players, options, seed, rng, opening
        game_id = "mine"

        hands: list[list[int]] = stored(CardIds(CODE, depth=2))   # card ids, stored as codes
        turn: int                                                  # plain JSON
        round_no: int = stored(key="round")                       # stored under another key
        faceup: bool = field(init=False)                           # derived in __post_init__
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Protocol, TypeVar

from .errors import MalformedAction
from .i18n import say
from .rng import Rng

S = TypeVar("S")


class Codec(Protocol):
    """Turns one field's value into its JSON form and back."""

    def dump(self, value: Any) -> Any: ...

    def load(self, data: Any) -> Any: ...


_SCALARS = frozenset((int, str, bool, float, type(None)))


def _copy(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _SCALARS else _copy(v) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else _copy(v) for k, v in value.items()}
    return value


class _Plain:
    """JSON values (numbers, strings, lists, dicts), copied both ways so that a state
    and its snapshot never share a list; tuples are written as lists."""

    def dump(self, value: Any) -> Any:
        return _copy(value)

    def load(self, data: Any) -> Any:
        return _copy(data)


class _Rng:
    """A :class:`~games.rng.Rng`, stored as its state (one integer)."""

    def dump(self, value: Rng) -> int:
        return value.state

    def load(self, data: Any) -> Rng:
        if isinstance(data, bool) or not isinstance(data, int):
            raise TypeError(f"rng state must be an integer, not {data!r}")
        return Rng(data)


PLAIN: Codec = _Plain()
RNG: Codec = _Rng()


class _CardCodec:
    """Card ids (indexes into ``codes``) stored as their card codes."""

    def __init__(self, codes: Sequence[str]) -> None:
        self.codes = codes
        self.ids = {code: i for i, code in enumerate(codes)}


class CardIds(_CardCodec):
    """Card ids stored as their card codes, in lists ``depth`` deep (0: a single card).
    With ``missing`` set, that id stands for "no card" and is stored as ``None``."""

    def __init__(self, codes: Sequence[str], depth: int = 1, missing: int | None = None) -> None:
        super().__init__(codes)
        self.depth = depth
        self.missing = missing

    def dump(self, value: Any) -> Any:
        return self._dump(value, self.depth)

    def load(self, data: Any) -> Any:
        return self._load(data, self.depth)

    def _dump(self, value: Any, depth: int) -> Any:
        if depth == 0:
            return None if value == self.missing else self.codes[value]
        if depth == 1 and self.missing is None:
            codes = self.codes
            return [codes[c] for c in value]
        return [self._dump(v, depth - 1) for v in value]

    def _load(self, data: Any, depth: int) -> Any:
        if depth == 0:
            return self.missing if data is None and self.missing is not None else self.ids[data]
        if type(data) is not list:
            raise TypeError(f"expected a list of cards, not {data!r}")
        if depth == 1 and self.missing is None:
            ids = self.ids
            return [ids[c] for c in data]
        return [self._load(d, depth - 1) for d in data]


class CardFlags(_CardCodec):
    """A flag per card id (``flags[c]``), stored as the codes of the flagged cards."""

    def dump(self, value: Sequence[bool]) -> list[str]:
        return [self.codes[c] for c, flag in enumerate(value) if flag]

    def load(self, data: Any) -> list[bool]:
        return flags_of(len(self.codes), [self.ids[code] for code in data])


class CardCounts(_CardCodec):
    """A count per card id (``counts[c]`` copies of card ``c``), stored as the codes
    of every copy, in card id order."""

    def dump(self, value: Sequence[int]) -> list[str]:
        codes = self.codes
        return [codes[c] for c, n in enumerate(value) if n for _ in range(n)]

    def load(self, data: Any) -> list[int]:
        return counts_of(len(self.codes), [self.ids[code] for code in data])


def flags_of(size: int, ids: Iterable[int]) -> list[bool]:
    """``size`` flags, set for the given card ids."""
    flags = [False] * size
    for c in ids:
        flags[c] = True
    return flags


def counts_of(size: int, ids: Iterable[int]) -> list[int]:
    """``size`` counts: how many times each card id occurs in ``ids``."""
    counts = [0] * size
    for c in ids:
        counts[c] += 1
    return counts


@dataclass(frozen=True)
class ListOf:
    """A list, each item through ``item``."""

    item: Codec

    def dump(self, value: Iterable[Any]) -> list[Any]:
        return [self.item.dump(v) for v in value]

    def load(self, data: Any) -> list[Any]:
        if not isinstance(data, list):
            raise TypeError(f"expected a list, not {data!r}")
        return [self.item.load(d) for d in data]


@dataclass(frozen=True)
class Nullable:
    """``None``, or a value through ``inner``."""

    inner: Codec

    def dump(self, value: Any) -> Any:
        return None if value is None else self.inner.dump(value)

    def load(self, data: Any) -> Any:
        return None if data is None else self.inner.load(data)


@dataclass(frozen=True)
class Row:
    """A fixed-length tuple, stored as a list, each position through its own codec."""

    items: tuple[Codec, ...]

    def dump(self, value: Sequence[Any]) -> list[Any]:
        return [codec.dump(v) for codec, v in zip(self.items, value, strict=True)]

    def load(self, data: Any) -> tuple[Any, ...]:
        if not isinstance(data, list):
            raise TypeError(f"expected a list, not {data!r}")
        return tuple(codec.load(d) for codec, d in zip(self.items, data, strict=True))


@dataclass(frozen=True)
class Record:
    """A dict with fixed keys, each value through its own codec (missing keys are broken)."""

    items: Mapping[str, Codec]

    def dump(self, value: Mapping[str, Any]) -> dict[str, Any]:
        return {key: codec.dump(value[key]) for key, codec in self.items.items()}

    def load(self, data: Any) -> dict[str, Any]:
        return {key: codec.load(data[key]) for key, codec in self.items.items()}


@dataclass(frozen=True)
class OneOf:
    """One of a few known plain values (a phase name, say)."""

    values: tuple[Any, ...]

    def dump(self, value: Any) -> Any:
        return value

    def load(self, data: Any) -> Any:
        if data not in self.values:
            raise ValueError(f"{data!r} is not one of {self.values}")
        return data


@dataclass(frozen=True)
class Objects:
    """A list of objects that have ``to_json()`` and a ``from_json(data)`` classmethod."""

    cls: Any

    def dump(self, value: Iterable[Any]) -> list[Any]:
        return [v.to_json() for v in value]

    def load(self, data: Any) -> list[Any]:
        if not isinstance(data, list):
            raise TypeError(f"expected a list, not {data!r}")
        return [self.cls.from_json(d) for d in data]


def stored(codec: Codec = PLAIN, *, key: str | None = None, **options: Any) -> Any:
    """A dataclass field stored through ``codec`` under ``key`` (default: the field's
    name); ``options`` are :func:`dataclasses.field`'s (``default``, ``default_factory``…)."""
    return field(metadata={"codec": codec, "key": key}, **options)


_LAYOUTS: dict[type, tuple[tuple[str, str, Codec], ...]] = {}


def _layout(cls: type) -> tuple[tuple[str, str, Codec], ...]:
    """``(attribute, key, codec)`` for each stored field of ``cls`` (worked out once per class)."""
    found = _LAYOUTS.get(cls)
    if found is not None:
        return found
    found = _LAYOUTS[cls] = tuple(
        (f.name, f.metadata.get("key") or f.name, f.metadata.get("codec", PLAIN))
        for f in fields(cls) if f.init
    )
    return found


def snapshot(state: Any, *, shared: bool = False) -> dict[str, Any]:
    """``state`` as JSON: the header, then every stored field. With ``shared``, plain
    fields are the state's own lists and dicts, not copies: for a snapshot written out
    at once, before the state changes (the move path saves a copy a move)."""
    cls = type(state)
    data: dict[str, Any] = {"game": cls.game_id, "format": cls.snapshot_format}
    for name, key, codec in _layout(cls):
        value = getattr(state, name)
        data[key] = value if shared and codec is PLAIN else codec.dump(value)
    return data


def restore(cls: type[S], data: Mapping[str, Any]) -> S:
    """The ``cls`` state a :func:`snapshot` describes; a snapshot of another game or
    format, or a missing or malformed field, raises :class:`MalformedAction`."""
    game_id, version = cls.game_id, cls.snapshot_format  # type: ignore[attr-defined]
    try:
        if data["game"] != game_id or data["format"] != version:
            raise MalformedAction(say("Not a {game} snapshot (game {found}, format {format})", game=game_id,
                                      found=repr(data["game"]), format=repr(data["format"])))
        return cls(**{name: codec.load(data[key]) for name, key, codec in _layout(cls)})
    except MalformedAction:
        raise
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise MalformedAction(say("Broken {game} snapshot: {error}", game=game_id, error=repr(exc))) from None
