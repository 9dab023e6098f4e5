"""The todo list on disk: todos.json, a JSON array of {"text": str, "done": bool}."""

import json
import os
import threading


class TodoFileError(Exception):
    """todos.json exists but cannot be read as a todo list. It is left untouched."""


class TodoStore:
    """Reads and writes one todos.json. Safe to share between handler threads; every change is
    written at once (through a temp file and a rename, so a crash never leaves half a file).
    A file that is not a todo list raises TodoFileError and is never overwritten, so a hand
    edit gone wrong loses nothing."""

    def __init__(self, path):
        self.path = path
        self._lock = threading.Lock()

    def items(self):
        """The todos, oldest first, as dicts with "text" and "done"."""
        with self._lock:
            return self._load()

    def add(self, text):
        """Appends an open todo; returns its number (1-based)."""
        with self._lock:
            items = self._load()
            items.append({"text": text, "done": False})
            self._save(items)
            return len(items)

    def toggle(self, index):
        """Flips done for the todo at 0-based `index`; returns it, or None when out of range."""
        with self._lock:
            items = self._load()
            if not 0 <= index < len(items):
                return None
            items[index]["done"] = not items[index]["done"]
            self._save(items)
            return items[index]

    def remove(self, index):
        """Deletes the todo at 0-based `index`; returns it, or None when out of range."""
        with self._lock:
            items = self._load()
            if not 0 <= index < len(items):
                return None
            removed = items.pop(index)
            self._save(items)
            return removed

    def _load(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as err:
            raise TodoFileError(f"cannot read {self.path} ({err}); fix or move it, nothing was changed") from err
        if not isinstance(data, list):
            raise TodoFileError(f"{self.path} is not a JSON array of todos; fix or move it, nothing was changed")
        items = []
        for i, entry in enumerate(data):
            if isinstance(entry, str):  # a hand-written list of plain strings is fine too
                entry = {"text": entry}
            if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
                raise TodoFileError(f"{self.path}: entry {i + 1} has no text; fix or move the file, nothing was changed")
            items.append({"text": entry["text"], "done": entry.get("done") is True})
        return items

    def _save(self, items):
        os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
        tmp = f"{self.path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(items, f, ensure_ascii=False, indent=2)
            f.write("\n")
        os.replace(tmp, self.path)
