"""Notes search logic: reading Markdown notes, indexing them and answering queries (no JSON-RPC here)."""

__version__ = "0.1.0"
