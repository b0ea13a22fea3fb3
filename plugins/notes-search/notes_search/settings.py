"""The plugin's settings (notes folders, engine, size cap), validated from the JSON file in the data folder."""

from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from .sources import DEFAULT_MAX_NOTE_BYTES, detect_roots, expand

ENGINE_CHOICES = ("auto", "sqlite", "whoosh")  # the engine setting's values, and the panel's engine options
MAX_ROOTS = 16
_MIN_NOTE_KB = 16
_MAX_NOTE_KB = 20 * 1024


class Settings(NamedTuple):
    """The stored settings; from_dict() accepts anything and keeps only valid values."""

    # A named tuple, not a dataclass (frozen all the same): `dataclasses` costs the first panel about
    # 10 ms to import (bench_runtime "First panel").
    roots: Optional[Tuple[str, ...]] = None  # None: use the folders found on this machine
    engine: str = "auto"
    max_note_kb: int = DEFAULT_MAX_NOTE_BYTES // 1024

    @property
    def max_note_bytes(self) -> int:
        return self.max_note_kb * 1024

    def effective_roots(self) -> List[str]:
        return list(self.roots) if self.roots is not None else detect_roots()

    @classmethod
    def from_dict(cls, data: Any) -> "Settings":
        """Lenient: an unknown or wrong value falls back to its default instead of failing."""
        if not isinstance(data, dict):
            return cls()
        roots_value = data.get("roots")
        roots: Optional[Tuple[str, ...]] = None
        if isinstance(roots_value, list):
            cleaned: List[str] = []
            for item in roots_value:
                if isinstance(item, str) and item.strip() and "\x00" not in item:
                    path = expand(item)
                    if path not in cleaned:
                        cleaned.append(path)
            roots = tuple(cleaned[:MAX_ROOTS])
        engine = data.get("engine")
        max_kb = data.get("max_note_kb")
        return cls(
            roots=roots,
            engine=engine if engine in ENGINE_CHOICES else "auto",
            max_note_kb=max_kb
            if isinstance(max_kb, int)
            and not isinstance(max_kb, bool)
            and _MIN_NOTE_KB <= max_kb <= _MAX_NOTE_KB
            else DEFAULT_MAX_NOTE_BYTES // 1024,
        )

    def to_dict(self) -> Dict[str, Any]:
        return {
            "roots": list(self.roots) if self.roots is not None else None,
            "engine": self.engine,
            "max_note_kb": self.max_note_kb,
        }
