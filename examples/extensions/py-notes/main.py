#!/usr/bin/env python3
"""py-notes: notes shared by you and the agent, written with the zot Python SDK.

It shows each SDK feature once:
- /note <text> saves a note; /notes opens a panel (up/down move, x deletes, enter works on
  the note, esc closes); /notes review hands the notes file to the model via tool_prompt.
- Tools: add_note (activates the deferred list_notes), list_notes, and the interactive
  pick_note, which asks the user to choose in a panel and honors cancellation.
- Guards: bash `rm -rf` is refused, `git push --force` is rewritten to --force-with-lease,
  API keys are redacted from assistant text, and the system prompt mentions the notes.
- On session_start it reminds the user how many notes exist.

Notes live in notes.json inside the data_dir zot announces in hello_ack.
"""

import json
import os
import re
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
# A zot_ext.py copied beside this file wins (it is on sys.path already, as the script's folder);
# otherwise use the SDK from the zot repository this example lives in.
if not os.path.exists(os.path.join(HERE, "zot_ext.py")):
    sys.path.append(os.path.normpath(os.path.join(HERE, "..", "..", "..", "sdk", "python")))
try:
    from zot_ext import (AssistantMessageDecision, Extension, ToolCallDecision, ToolResult, display,
                         error_result, noop, open_panel, text_block, text_result, tool_prompt)
except ImportError:
    sys.stderr.write("py-notes: zot_ext.py not found; copy sdk/python/zot_ext.py beside main.py\n")
    sys.exit(1)

PANEL = "py-notes"
FOOTER = "up/down move - x delete - enter work on it - esc close"
API_KEY = re.compile(r"\b(sk-[A-Za-z0-9_-]{8,})")


class Notes:
    """A list of strings persisted as JSON; safe to use from handler threads."""

    def __init__(self):
        self.path = os.path.join(HERE, "notes.json")
        self._lock = threading.Lock()

    def load(self):
        try:
            with open(self.path, encoding="utf-8") as f:
                data = json.load(f)
            return [n for n in data if isinstance(n, str)] if isinstance(data, list) else []
        except (OSError, ValueError):
            return []

    def add(self, text):
        with self._lock:
            notes = self.load() + [text]
            self._save(notes)
            return len(notes)

    def remove(self, index):
        with self._lock:
            notes = self.load()
            removed = notes.pop(index) if 0 <= index < len(notes) else None
            self._save(notes)
            return removed

    def _save(self, notes):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(notes, f, ensure_ascii=False, indent=2)
        os.replace(tmp, self.path)  # never leave a half-written file behind


ext = Extension("py-notes", "1.0.0")
notes = Notes()
cursor = {"row": 0}


def panel_lines(items, row):
    if not items:
        return ["(no notes yet: /note <text> adds one)"]
    return [("> " if i == row else "  ") + text for i, text in enumerate(items)]


@ext.on_hello
def configure(host):
    if host.data_dir:
        notes.path = os.path.join(host.data_dir, "notes.json")


# ---- commands ----

@ext.command("note", "save a note: /note <text>")
def note_command(args):
    if not args:
        return noop(error="usage: /note <text>")
    return display(f"Saved note #{notes.add(args)}: {args}")


@ext.command("notes", "browse notes in a panel, or /notes review")
def notes_command(args):
    if args == "review":
        return tool_prompt("read", {"path": notes.path}, "Review my notes and suggest what to do first.")
    cursor["row"] = 0
    return open_panel(PANEL, "Notes", panel_lines(notes.load(), 0), FOOTER)


def on_notes_key(key, text):
    items = notes.load()
    row = cursor["row"]
    if key == "up":
        row = max(row - 1, 0)
    elif key == "down":
        row = min(row + 1, max(len(items) - 1, 0))
    elif key == "rune" and text == "x" and items:
        removed = notes.remove(row)
        ext.notify("success", f"Deleted: {removed}")
        items = notes.load()
        row = min(row, max(len(items) - 1, 0))
    elif key == "enter" and items:
        ext.panel_close(PANEL)
        ext.submit(f"Help me with this note: {items[row]}")
        return
    cursor["row"] = row
    ext.panel_render(PANEL, "Notes", panel_lines(items, row), FOOTER)


ext.on_panel_key(PANEL, on_notes_key)
ext.on_panel_close(PANEL, ext.clear_notes)  # transient "Deleted" notes go with the panel


# ---- tools ----

TEXT_SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


@ext.tool("add_note", "Save a note for the user. Use it when they ask you to remember something.", TEXT_SCHEMA)
def add_note(args, ctx):
    text = args.get("text")
    if not isinstance(text, str) or not text.strip():
        return error_result('add_note needs {"text": "<the note>"}')
    return ToolResult([text_block(f"Saved note #{notes.add(text.strip())}")], activate_tools=["list_notes"])


@ext.tool("list_notes", "List the user's saved notes.", {"type": "object", "properties": {}}, deferred=True)
def list_notes(args, ctx):
    items = notes.load()
    return text_result("\n".join(f"{i + 1}. {n}" for i, n in enumerate(items)) or "(no notes)")


@ext.tool("pick_note", "Ask the user to pick one of their notes; returns the chosen note.",
          {"type": "object", "properties": {"question": {"type": "string"}}}, interactive=True)
def pick_note(args, ctx):
    items = notes.load()
    if not items:
        return error_result("There are no notes to pick from.")
    title = str(args.get("question") or "Pick a note")
    panel_id = f"pick-{ctx.id}"  # one panel per invocation
    state = {"row": 0, "answer": None, "host_closed": False}
    settled = threading.Event()

    def on_close():
        state["host_closed"] = True
        settled.set()

    def on_key(key, text):
        if key == "up":
            state["row"] = max(state["row"] - 1, 0)
        elif key == "down":
            state["row"] = min(state["row"] + 1, len(items) - 1)
        elif key == "enter":
            state["answer"] = items[state["row"]]
            settled.set()
            return
        elif key == "esc":
            settled.set()
            return
        ext.panel_render(panel_id, title, panel_lines(items, state["row"]), "enter choose - esc dismiss")

    ext.on_panel_key(panel_id, on_key)
    ext.on_panel_close(panel_id, on_close)
    ext.panel_render(panel_id, title, panel_lines(items, 0), "enter choose - esc dismiss")
    try:
        while not settled.wait(0.05):
            if ctx.cancelled.is_set():
                return error_result("Picking a note was cancelled.")
        return text_result(state["answer"]) if state["answer"] is not None else error_result("The user dismissed the picker.")
    finally:
        ext.off_panel(panel_id)
        if not state["host_closed"]:
            ext.panel_close(panel_id)


# ---- guards and events ----

@ext.intercept_tool_call_x
def guard_bash(tool, args):
    command = args.get("command") if tool == "bash" else None
    if not isinstance(command, str):
        return None
    if re.search(r"\brm\s+-(rf|fr)\b", command):
        return ToolCallDecision(block=True, reason='refused: matches danger pattern "rm -rf"')
    if re.search(r"\bgit\s+push\b.*--force(?!-)", command):
        return ToolCallDecision(modified_args={**args, "command": re.sub(r"--force(?!-)", "--force-with-lease", command)})
    return None


@ext.intercept_assistant_message
def redact_keys(text):
    return AssistantMessageDecision(replace_text=API_KEY.sub("[redacted]", text))


@ext.intercept_before_agent_start
def mention_notes(event):
    return event.system_prompt + "\n\nThe user keeps notes: call add_note when they ask you to remember something."


def on_session_start(event):
    count = len(notes.load())
    if count:
        ext.notify("info", f"{count} saved note{'s' if count != 1 else ''}: /notes to browse")


ext.on_event("session_start", on_session_start)

if __name__ == "__main__":
    ext.run()
