"""Nearest memories to a query by meaning, for the ranking and the recall gate.

The query is embedded in pure Python (no numpy, no tokenizers for WordPiece
models), or by an ONNX model's own embedder; the sign bits of its vector are
compared with every memory's by sqlite-vec's Hamming distance in one table scan;
the few hundred nearest are ranked again by the exact cosine with their int8
vectors. An ONNX model's search does the same with numpy (``scan``), which a warm
worker also uses to hold the codes in memory.
"""

from __future__ import annotations

import contextlib
import importlib.util
import math
import struct
from operator import mul
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.core.model_choice import model_name
from memcli.index import vectors
from memcli.semantic.model import ModelError, QueryEmbedder, locate, stamp
from memcli.semantic.sync import center_of, int8_bytes, query_embedder, sign_code

if TYPE_CHECKING:
    from memcli.index import Index

CANDIDATES = 1000
"""Codes kept from the Hamming scan for the cosine (at least; more for a large limit)."""


def vec_extension() -> str | None:
    """The sqlite-vec loadable extension's path, found without importing the package."""
    try:
        spec = importlib.util.find_spec("sqlite_vec")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(list(spec.submodule_search_locations)[0])
    for suffix in (".so", ".dylib", ".dll"):
        if (folder / f"vec0{suffix}").is_file():
            return str(folder / "vec0")
    return None


def load_extension(index: Index) -> bool:
    """sqlite-vec in the index's connection (once); False when it is not installed."""
    if getattr(index, "_vec_loaded", False):
        return True
    path = vec_extension()
    if path is None:
        return False
    try:
        index.db.enable_load_extension(True)
        index.db.load_extension(path)
    except Exception:  # apsw.ExtensionLoadingError, or a build without loading
        return False
    finally:
        with contextlib.suppress(Exception):
            index.db.enable_load_extension(False)
    index._vec_loaded = True  # type: ignore[attr-defined]
    return True


class SemanticSearch:
    """Cosine similarity of a query with the memories' vectors in one index."""

    def __init__(
        self,
        index: Index,
        embedder: QueryEmbedder,
        center: list[float] | None = None,
        *,
        numpy_scan: bool = False,
    ) -> None:
        self.index = index
        self.embedder = embedder
        self.center = center
        self.numpy_scan = numpy_scan
        """An ONNX model's search: ranked with numpy (``memcli.semantic.scan``)."""
        self._last: tuple[str, list[float]] | None = None
        self._nearest: tuple[str, int, list[tuple[str, float]]] | None = None
        """The last ``nearest`` answer: the ranking and the gate ask for the same query."""
        self._background: tuple[str, int, list[float]] | None = None

    @classmethod
    def open(
        cls, index: Index, store_root: Path, settings: dict[str, Any]
    ) -> SemanticSearch | None:
        """Semantic search over ``index``, or None (lexical only: ``semantic_status`` says why)."""
        name = model_name(str(settings.get("semantic", {}).get("model") or ""))
        if not name:
            return None
        layers = getattr(index, "layers", None)
        if layers is not None:  # a LayeredIndex: each layer's vectors, one ranking
            return LayeredSemantic.open(layers, store_root, settings)  # type: ignore[return-value]
        meta = vectors.read_meta(index.db)
        if meta is None or meta.get("name") != name or "info" not in meta:
            return None
        try:
            directory = locate(name, store_root)
            if directory is None or stamp(directory) != meta.get("stamp"):
                return None
            if not load_extension(index):
                return None
            onnx = meta.get("backend") == "onnx"
            return cls(index, query_embedder(index, name, meta), center_of(meta), numpy_scan=onnx)
        except ModelError:
            return None

    def query_vector(self, query: str) -> list[float]:
        if self._last is None or self._last[0] != query:
            self._last = (query, self.embedder.embed_one(query))
        return self._last[1]

    def nearest(self, query: str, limit: int) -> list[tuple[str, float]]:
        """(memory id, cosine similarity), best first; [] for a query without known words."""
        if limit <= 0 or not query.strip():
            return []
        last = self._nearest
        if last is not None and last[0] == query and limit <= last[1]:
            return last[2][:limit]
        found = self._nearest_uncached(query, limit)
        self._nearest = (query, limit, found)
        return found

    def _nearest_uncached(self, query: str, limit: int) -> list[tuple[str, float]]:
        vector = self.query_vector(query)
        if not any(vector):
            return []
        if self.numpy_scan:
            from memcli.semantic import scan

            window = max(CANDIDATES, 4 * limit)
            return scan.nearest(self.index, vector, sign_code(vector, self.center), window, limit)
        found = self.candidates(query, wanted(limit), max(CANDIDATES, 4 * limit))
        return exact_nearest(vector, found, limit)

    def candidates(self, query: str, count: int, window: int) -> list[tuple[float, str, bytes]]:
        """``count`` memories for the exact cosine to order, picked by the int8 cosine in SQL
        among the ``window`` (at least ``count``) nearest sign codes (``vectors.nearest``)."""
        vector = self.query_vector(query)
        if not any(vector):
            return []
        code, scan = sign_code(vector, self.center), max(window, count)
        return list(vectors.nearest(self.index.db, code, int8_bytes(vector), scan, count))

    def background(self, query: str, size: int) -> list[float]:
        """The query's cosine with a fixed sample of ``size`` of the store's texts
        (``vectors.background``): what this model gives text of this store, most of it
        unrelated to the query. [] for a query without known words."""
        if size <= 0 or not query.strip():
            return []
        if self._background is not None and self._background[:2] == (query, size):
            return self._background[2]
        vector = self.query_vector(query)
        if not any(vector):
            return []
        found = [cosine(vector, vec) for vec in vectors.background(self.index.db, size)]
        self._background = (query, size, found)
        return found

    def similarity(self, query: str, ids: list[str]) -> dict[str, float]:
        """The exact cosine of the query with each of these memories (those with a vector)."""
        if not ids or not query.strip():
            return {}
        vector = self.query_vector(query)
        if not any(vector):
            return {ident: 0.0 for ident, _ in vectors.vectors_of(self.index.db, ids)}
        found = list(vectors.vectors_of(self.index.db, ids))
        if self.numpy_scan:
            from memcli.semantic import scan

            return dict(scan.ranked(vector, found))
        return {ident: cosine(vector, vec) for ident, vec in found}


def wanted(limit: int) -> int:
    """How many candidates the exact cosine orders for the ``limit`` nearest: a few more."""
    return 2 * limit + 10


def exact_nearest(
    vector: list[float], found: list[tuple[float, str, bytes]], limit: int
) -> list[tuple[str, float]]:
    """The ``limit`` best of ``found`` (``SemanticSearch.candidates``) by the exact cosine."""
    scored = [(ident, cosine(vector, vec)) for _, ident, vec in found]
    scored.sort(key=lambda pair: (-pair[1], pair[0]))
    return scored[:limit]


def cosine(unit: list[float], int8: bytes) -> float:
    """Cosine of a unit vector with an int8 vector of the same length."""
    values: tuple[int, ...] = struct.unpack(f"{len(int8)}b", int8)
    norm = math.sqrt(sum(map(mul, values, values)))
    if norm == 0:
        return 0.0
    return max(-1.0, min(1.0, float(sum(map(mul, unit, values))) / norm))


class LayeredSemantic:
    """Semantic search over several layers' indexes: each layer's nearest, merged by cosine.

    A layer whose index holds no vectors of the model (its store names none) is read
    by full text only.
    """

    def __init__(self, searches: list[SemanticSearch]) -> None:
        self.searches = searches

    @classmethod
    def open(
        cls, layers: list[Index], store_root: Path, settings: dict[str, Any]
    ) -> LayeredSemantic | None:
        found = [SemanticSearch.open(index, store_root, settings) for index in layers]
        searches = [search for search in found if search is not None]
        return cls(searches) if searches else None

    def nearest(self, query: str, limit: int) -> list[tuple[str, float]]:
        """Each layer's nearest by the int8 cosine, merged, and only the best of them all
        ranked by the exact cosine (as one index would): with many layers (every project),
        the exact cosine of each layer's own few hundred, and each layer's window of a
        thousand codes, would cost the most."""
        if limit <= 0 or not query.strip():
            return []
        if any(search.numpy_scan for search in self.searches):
            scored = [pair for search in self.searches for pair in search.nearest(query, limit)]
            scored.sort(key=lambda pair: (-pair[1], pair[0]))
            return scored[:limit]
        # The sign codes' window shared among the layers, as one index of them all would scan;
        # each layer asked first for its share and a margin, again for all if it needs be.
        count, layers = wanted(limit), len(self.searches)
        window, few = max(CANDIDATES // layers, 1), min(count, 2 * count // layers + 10)
        found = [search.candidates(query, few, window) for search in self.searches]
        best = sorted(each for part in found for each in part)[:count]
        bar = best[-1][0] if len(best) == count else None
        for n, part in enumerate(found):
            if few < count and len(part) == few and (bar is None or part[-1][0] <= bar):
                found[n] = self.searches[n].candidates(query, count, window)
        best = sorted(each for part in found for each in part)[:count]
        vector = self.searches[0].query_vector(query)
        return exact_nearest(vector, best, limit)

    def background(self, query: str, size: int) -> list[float]:
        """Each layer's share of a background sample of ``size`` (``SemanticSearch``)."""
        share = max(1, size // len(self.searches))
        return [value for search in self.searches for value in search.background(query, share)]

    def similarity(self, query: str, ids: list[str]) -> dict[str, float]:
        merged: dict[str, float] = {}
        for search in self.searches:
            merged.update(search.similarity(query, ids))
        return merged
