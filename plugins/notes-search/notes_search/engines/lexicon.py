"""The FTS5 engine's list of indexed words and how many notes hold each, kept in a plain table.

FTS5 can list its words (fts5vocab), but only by reading every note entry of each word listed: at
100,000 notes, the words starting with "meeting" took 34 ms to list, and a prefix query longer than
the prefix indexes ("meeting"*) merged those same entries on every keystroke (7-12 ms; SQL timed on
bench_notes_search's index). Read from this
table they cost a B-tree range scan, so a long prefix is searched as the few words it stands for.

The table is complete or marked stale. A first index writes in bulk and leaves it stale (tokenizing
every body in Python would add seconds to it); settle() then fills it from fts5vocab in one statement,
run in C, after the first panel with results has gone out. Later writes add the words of the notes
they write in the same transaction, so a complete table never misses a word; removed notes leave
their words behind, which only costs an OR of a word with no notes. While it is stale, callers get
None and fall back to asking FTS5.
"""

import sqlite3
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..tokens import words

# Words as FTS5's tokenizer keeps them, for the already folded, space-separated or unsplit text the
# engine indexes (tokens.unsplit_for_fts5 lets no other separator through): tokens.words.
STATE_KEY = "lexicon"


def after_prefix(prefix: str) -> str:
    """The first string above every word starting with `prefix`: `term >= prefix AND term < this`
    is a range scan of the words that start so."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


def create(db: sqlite3.Connection, content_table: str) -> None:
    """Make the tables (inside the caller's transaction); an empty index has a complete lexicon."""
    db.execute("CREATE TABLE lexicon (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID")
    db.execute("CREATE TABLE index_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute(f"CREATE VIRTUAL TABLE lexicon_source USING fts5vocab({content_table}, 'row')")
    db.execute("INSERT INTO index_state (key, value) VALUES (?, 'complete')", (STATE_KEY,))


DROPPED_TABLES = ("lexicon_source", "lexicon", "index_state")


def mark_stale(db: sqlite3.Connection) -> None:
    db.execute("UPDATE index_state SET value = 'stale' WHERE key = ?", (STATE_KEY,))


def is_complete(db: sqlite3.Connection) -> bool:
    row = db.execute("SELECT value FROM index_state WHERE key = ?", (STATE_KEY,)).fetchone()
    return row is not None and row[0] == "complete"


def add_words(db: sqlite3.Connection, texts_per_note: Iterable[Sequence[str]]) -> None:
    """Count each note's words once (inside the caller's write transaction)."""
    counts: Dict[str, int] = {}
    for texts in texts_per_note:
        for word in set(words(" ".join(texts))):
            counts[word] = counts.get(word, 0) + 1
    if counts:
        # Not an upsert: ON CONFLICT needs SQLite 3.24, older than some Pythons this runs on.
        db.executemany("INSERT OR IGNORE INTO lexicon (term, docs) VALUES (?, 0)", [(word,) for word in counts])
        db.executemany("UPDATE lexicon SET docs = docs + ? WHERE term = ?", [(n, word) for word, n in counts.items()])


def rebuild(db: sqlite3.Connection) -> None:
    """Fill the table from FTS5's own word list (inside the caller's write transaction)."""
    db.execute("DELETE FROM lexicon")
    db.execute("INSERT INTO lexicon (term, docs) SELECT term, doc FROM lexicon_source")
    db.execute("UPDATE index_state SET value = 'complete' WHERE key = ?", (STATE_KEY,))


def starting_with(db: sqlite3.Connection, prefix: str, limit: int) -> List[Tuple[str, int]]:
    """(word, notes) for indexed words starting with `prefix`, in word order, at most `limit`."""
    upper = after_prefix(prefix)
    rows = db.execute(
        "SELECT term, docs FROM lexicon WHERE term >= ? AND term < ? ORDER BY term LIMIT ?", (prefix, upper, limit)
    ).fetchall()
    return [(term, int(docs)) for term, docs in rows]


def completions(db: sqlite3.Connection, prefix: str, limit: int) -> Optional[List[Tuple[str, int]]]:
    """Every indexed word starting with `prefix` with its notes, or None when there are more than `limit`."""
    found = starting_with(db, prefix, limit + 1)
    return found if len(found) <= limit else None


def most_common(db: sqlite3.Connection, prefix: str, limit: int) -> List[Tuple[str, int]]:
    """(word, notes) for the `limit` indexed words starting with `prefix` in the most notes, most first,
    and the prefix itself after them when it is a word too (a whole word typed is never left out)."""
    upper = after_prefix(prefix)
    rows = db.execute(
        "SELECT term, docs FROM lexicon WHERE term >= ? AND term < ? ORDER BY docs DESC, term LIMIT ?",
        (prefix, upper, limit),
    ).fetchall()
    found = [(term, int(docs)) for term, docs in rows]
    if all(term != prefix for term, _ in found):
        exact = db.execute("SELECT docs FROM lexicon WHERE term = ?", (prefix,)).fetchone()
        if exact is not None:
            found.append((prefix, int(exact[0])))
    return found


def notes_holding(db: sqlite3.Connection, words: Sequence[str], prefixes: Sequence[str], most: int) -> int:
    """How many notes' entries a query on these words and prefixes reads: the sum of their notes,
    or `most` + 1 as soon as it is known to be above `most` (a short prefix stands for many words)."""
    total = 0
    unique = sorted(set(words))
    for start in range(0, len(unique), 400):
        chunk = unique[start : start + 400]
        marks = ",".join("?" * len(chunk))
        total += db.execute(f"SELECT coalesce(sum(docs), 0) FROM lexicon WHERE term IN ({marks})", chunk).fetchone()[0]
    for prefix in prefixes:
        if total > most:
            break
        upper = after_prefix(prefix)
        # Summed in SQLite, a word at a time, stopping once past `most`: "p" stands for thousands of words.
        for (docs,) in db.execute("SELECT docs FROM lexicon WHERE term >= ? AND term < ?", (prefix, upper)):
            total += docs
            if total > most:
                break
    return total if total <= most else most + 1


def holds_any(db: sqlite3.Connection, words: Sequence[str], prefix: Optional[str]) -> bool:
    """True when some note holds one of `words`, or a word starting with `prefix`."""
    if prefix is not None:
        upper = after_prefix(prefix)
        if db.execute("SELECT 1 FROM lexicon WHERE term >= ? AND term < ? LIMIT 1", (prefix, upper)).fetchone():
            return True
    if not words:
        return False
    marks = ",".join("?" * len(words))
    return db.execute(f"SELECT 1 FROM lexicon WHERE term IN ({marks}) LIMIT 1", list(words)).fetchone() is not None
