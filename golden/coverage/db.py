"""Coverage counts: save/load (JSON), merge, and the figures the reports print, for any model.

An ISA's coverage (golden/g80/coverage.py, golden/lg/coverage.py) subclasses `Coverage`: it names
its file format, builds its model (`build_model`) and samples its own commit records, either by
adding counts as they come or by queuing (key -> samples) in `_raw` and saying, in `hits_of`,
which bins a key hits once `flush` works them out.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from .model import Bin, Model

VERSION = 1


def model_digest(m: Model) -> str:
    """Identifies the model a file was written with (its bin keys and exclusions)."""
    h = hashlib.sha256()
    for b in m.bins:
        h.update(f"{b.key}|{b.excluded or ''}\n".encode())
    return h.hexdigest()[:16]


@dataclass
class Figures:
    """Hit / reachable bins of a set of bins."""

    total: int
    excluded: int
    hit: int

    @property
    def reachable(self) -> int:
        return self.total - self.excluded

    @property
    def percent(self) -> float:
        return 100.0 * self.hit / self.reachable if self.reachable else 100.0


class Coverage:
    """Counts per bin of a coverage model (the subclass's `build_model`)."""

    FORMAT = ""  # the file format name: each subclass has its own
    TITLE = ""  # the reports' heading for this model
    SOURCE = ""  # where its model comes from (the table's file), for the reports
    UCIS_INSTANCE = ""  # the instance the UCIS database holds this model's covergroups under
    DESCRIPTION = ""  # what the model counts, one sentence for the HTML report

    def __init__(self, run: str | None = None) -> None:
        self.model = self.build_model()
        self.counts = [0] * len(self.model.bins)
        self.runs: list[str] = [run] if run else []
        self.samples = 0
        self._raw: dict[int, int] = {}  # a sample key -> samples, worked out by flush

    @classmethod
    def build_model(cls) -> Model:
        raise NotImplementedError(f"{cls.__name__} names no coverage model")

    def hits_of(self, key: int) -> list[int]:
        """The bins one queued sample key hits (subclasses that queue keys say how)."""
        raise NotImplementedError

    def flush(self) -> None:
        """Work out the bins of the pending samples, once per distinct key."""
        if not self._raw:
            return
        counts = self.counts
        for key, n in self._raw.items():
            for i in self.hits_of(key):
                counts[i] += n
            self.samples += n
        self._raw.clear()

    # -- files ------------------------------------------------------------------------------------

    def to_json(self) -> dict:
        self.flush()
        bins = self.model.bins
        return {
            "format": self.FORMAT,
            "version": VERSION,
            "model": model_digest(self.model),
            "runs": self.runs,
            "samples": self.samples,
            "counts": {bins[i].key: n for i, n in enumerate(self.counts) if n},
        }

    def save(self, path: str | Path) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: dict, where: str = "coverage data") -> Coverage:
        if data.get("format") != cls.FORMAT:
            raise ValueError(f"{where}: not a coverage file of this project (format {data.get('format')!r})")
        cov = cls()
        unknown = [k for k in data["counts"] if k not in cov.model.by_key]
        if unknown:
            raise ValueError(f"{where}: {len(unknown)} bins unknown to this coverage model (written by another version?), e.g. {unknown[0]}")
        for key, n in data["counts"].items():
            cov.counts[cov.model.by_key[key].index] += int(n)
        cov.runs = list(data.get("runs", []))
        cov.samples = int(data.get("samples", 0))
        return cov

    @classmethod
    def load(cls, path: str | Path) -> Coverage:
        path = Path(path)
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")), str(path))

    def merge(self, other: Coverage) -> Coverage:
        """Add another run's counts to this one (same model)."""
        self.flush()
        other.flush()
        for i, n in enumerate(other.counts):
            self.counts[i] += n
        self.runs += other.runs
        self.samples += other.samples
        return self

    # -- figures ----------------------------------------------------------------------------------

    def count(self, key: str) -> int:
        self.flush()
        return self.counts[self.model.by_key[key].index]

    def figures(self, bins: list[Bin]) -> Figures:
        self.flush()
        excluded = sum(1 for b in bins if b.excluded)
        hit = sum(1 for b in bins if not b.excluded and self.counts[b.index])
        return Figures(len(bins), excluded, hit)

    def overall(self) -> Figures:
        return self.figures(self.model.bins)

    def by_family(self) -> dict[str, Figures]:
        out: dict[str, list[Bin]] = {}
        for g in self.model.groups:
            out.setdefault(g.family, []).extend(b for p in g.points for b in p.bins)
        return {fam: self.figures(bins) for fam, bins in sorted(out.items())}

    def holes(self) -> list[Bin]:
        self.flush()
        return [b for b in self.model.bins if not b.excluded and not self.counts[b.index]]

    def excluded_hit(self) -> list[Bin]:
        """Excluded bins that were hit: the exclusion's reason is wrong (reported, never hidden)."""
        self.flush()
        return [b for b in self.model.bins if b.excluded and self.counts[b.index]]
