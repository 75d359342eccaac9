"""One SQLite database per campaign: its settings, the reference run, the sites per unit, and one
row per fault, planned up front (site, word, bit, cycle, model) and filled in when it has run.

Resumable: the plan is written once; a campaign started again on the same database runs only the
faults without an outcome. One process writes it, the campaign's client, as the outcomes of its
tasks come back (tb/faults/campaign.py); a rerun or a report reads it meanwhile (SQLite's locking,
a generous busy timeout).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from golden.errors import FAILURE, UserError

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS units (unit TEXT PRIMARY KEY, sites INTEGER NOT NULL, bits INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS faults (
    id INTEGER PRIMARY KEY,
    site TEXT NOT NULL, unit TEXT NOT NULL, word INTEGER NOT NULL, bit INTEGER NOT NULL,
    cycle INTEGER NOT NULL,            -- kernel cycle of the injection (0 = the start pulse)
    model TEXT NOT NULL,               -- seu | stuck0 | stuck1
    outcome TEXT,                      -- tb/faults/classify.py OUTCOMES; NULL = not run yet
    grp TEXT, field TEXT, kind TEXT, message TEXT,
    warp INTEGER, pc INTEGER, insn TEXT, div_cycle INTEGER,  -- the first divergence
    cycles INTEGER,                    -- kernel cycles simulated (to the end or to the divergence)
    commits INTEGER, wall_s REAL, shard INTEGER,
    stopped INTEGER,                   -- the checkpoint where the run had converged to the fault-free one (early stop), or NULL
    simulated INTEGER                  -- kernel cycles actually simulated (less than cycles when stopped early)
);
"""
ADDED = ("stopped INTEGER", "simulated INTEGER")  # columns a database of an earlier version lacks


def unreadable(path: Path, exc: Exception) -> UserError:
    """A campaign database SQLite cannot read (random bytes, a truncated copy): the one line that says so."""
    return UserError(f"DB={path} is not a readable campaign database ({exc}): remove it to start the campaign again, or choose another DB= path")


@dataclass(frozen=True)
class Fault:
    id: int
    site: str
    unit: str
    word: int
    bit: int
    cycle: int
    model: str


TABLES = {"meta", "units", "faults"}
# how long a command waits for a database another process holds: long enough for the campaign
# client's short write of a batch, short enough that a second campaign on the same database is told
# so at once
LOCK_WAIT_S = 5.0


class CampaignDB:
    def __init__(self, path: Path, timeout: float = 120, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise UserError(f"DB={self.path}: no such campaign database (make faults writes one per campaign under build/faults/)")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.con = sqlite3.connect(self.path, timeout=timeout)
        try:
            tables = {r[0] for r in self.con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if tables and (not tables <= TABLES or "faults" not in tables):
                raise UserError(f"DB={self.path} is an SQLite database of something else (tables {', '.join(sorted(tables))}), "
                                "not a fault campaign: choose another DB= path")  # fmt: skip
            if tables and self.con.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("database disk image is malformed")
            self.con.executescript(SCHEMA)
            have = {r[1] for r in self.con.execute("PRAGMA table_info(faults)")}
            with self.con:
                for column in ADDED:
                    if column.split()[0] not in have:
                        self.con.execute(f"ALTER TABLE faults ADD COLUMN {column}")
        except sqlite3.OperationalError as exc:
            self.con.close()
            if "locked" not in str(exc):
                raise unreadable(self.path, exc) from None
            raise UserError(f"DB={self.path} is locked by another process (a campaign running on it?): let it finish or stop it, "
                            "or choose another DB= path", FAILURE) from None  # fmt: skip
        except sqlite3.DatabaseError as exc:
            self.con.close()
            raise unreadable(self.path, exc) from None
        except UserError:
            self.con.close()
            raise

    def close(self) -> None:
        self.con.close()

    # -- settings and reference -------------------------------------------------------------------

    def set_meta(self, **values: object) -> None:
        with self.con:
            self.con.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in values.items()])

    def meta(self) -> dict:
        return {k: json.loads(v) for k, v in self.con.execute("SELECT key, value FROM meta")}

    def set_units(self, units: dict[str, tuple[int, int]]) -> None:
        with self.con:
            self.con.execute("DELETE FROM units")
            self.con.executemany("INSERT INTO units VALUES (?, ?, ?)", [(u, s, b) for u, (s, b) in units.items()])

    def units(self) -> dict[str, tuple[int, int]]:
        return {u: (s, b) for u, s, b in self.con.execute("SELECT unit, sites, bits FROM units ORDER BY unit")}

    # -- the plan -----------------------------------------------------------------------------------

    def planned(self) -> int:
        return int(self.con.execute("SELECT COUNT(*) FROM faults").fetchone()[0])

    def plan(self, faults: list[Fault]) -> None:
        with self.con:
            self.con.execute("DELETE FROM faults")  # a plan an interrupted first start left without its settings
            self.con.executemany("INSERT INTO faults (id, site, unit, word, bit, cycle, model) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 [(f.id, f.site, f.unit, f.word, f.bit, f.cycle, f.model) for f in faults])  # fmt: skip

    def pending(self) -> list[Fault]:
        """The planned faults without an outcome, in id order."""
        rows = self.con.execute("SELECT id, site, unit, word, bit, cycle, model FROM faults WHERE outcome IS NULL ORDER BY id").fetchall()
        return [Fault(*r) for r in rows]

    def get(self, fault_id: int) -> dict:
        cur = self.con.execute("SELECT * FROM faults WHERE id = ?", (fault_id,))
        row = cur.fetchone()
        if row is None:
            raise UserError(f"DB={self.path} has no fault {fault_id} (the campaign's report lists its fault ids)")
        return dict(zip([c[0] for c in cur.description], row, strict=True))

    def record(self, fault_id: int, **values: object) -> None:
        keys = list(values)
        with self.con:
            self.con.execute(f"UPDATE faults SET {', '.join(k + ' = ?' for k in keys)} WHERE id = ?", [*values.values(), fault_id])

    def rows(self) -> list[dict]:
        cur = self.con.execute("SELECT * FROM faults WHERE outcome IS NOT NULL ORDER BY id")
        names = [c[0] for c in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
