#!/usr/bin/env python3
"""todo: a persistent todo list you and the model share, on zot's Python SDK (zot_ext).

- /todo opens a panel: up/down move, x marks done (or open again), d deletes, esc closes.
- /todo add <text> adds a todo.
- The model gets two tools: todo_add and todo_list.

The list lives in todos.json inside the data_dir zot announces in hello_ack (the extension's
own folder), so it survives restarts. zot puts the SDK on PYTHONPATH for the extensions it
starts; see README.md for running it elsewhere.
"""

import os
import sys
import threading

sys.dont_write_bytecode = True  # no __pycache__ beside the example in a zot checkout
from store import TodoFileError, TodoStore

try:
    from zot_ext import Extension, display, error_result, noop, open_panel, text_result
except ImportError as err:
    sys.stderr.write(f"todo: cannot import zot_ext, zot's Python SDK ({err}). zot provides it to the\n"
                     "extensions it starts; elsewhere, copy sdk/python/zot_ext.py beside main.py.\n")
    sys.exit(1)

PANEL = "todo"
FOOTER = "↑/↓ move · x done/undone · d delete · esc close"
USAGE = "usage: /todo opens the list, /todo add <text> adds a todo"

ext = Extension("todo", "1.0.0")
store = TodoStore(os.path.join(os.path.dirname(os.path.abspath(__file__)), "todos.json"))
# The panel's state. Commands and tools run on their own threads, panel keys on another.
panel = {"open": False, "row": 0}
panel_lock = threading.Lock()


@ext.on_hello
def use_data_dir(host):
    if host.data_dir:
        store.path = os.path.join(host.data_dir, "todos.json")


def numbered(items):
    return "\n".join(f"{i + 1}. [{'x' if t['done'] else ' '}] {t['text']}" for i, t in enumerate(items))


def panel_frame(items, row):
    """(title, lines) of the panel with the cursor on `row`."""
    done = sum(1 for t in items if t["done"])
    title = f"Todos ({done}/{len(items)} done)"
    if not items:
        return title, ["(nothing to do: /todo add <text> adds a todo)"]
    return title, [f"{'›' if i == row else ' '} [{'x' if t['done'] else ' '}] {t['text']}" for i, t in enumerate(items)]


def redraw():
    """Re-renders the panel if it is open (a render for a closed panel would open it again)."""
    with panel_lock:
        if not panel["open"]:
            return
        items = store.items()
        panel["row"] = min(panel["row"], max(len(items) - 1, 0))
        title, lines = panel_frame(items, panel["row"])
        ext.panel_render(PANEL, title, lines, FOOTER)


# ---- the command ----

@ext.command("todo", "your todo list: /todo opens it, /todo add <text> adds one")
def todo_command(args):
    try:
        if args == "add" or args.startswith("add "):
            text = args[3:].strip()
            if not text:
                return noop(error="usage: /todo add <text>")
            number = store.add(text)
            redraw()
            return display(f"added todo #{number}: {text}")
        if args:
            return noop(error=USAGE)
        items = store.items()
    except TodoFileError as err:
        return noop(error=str(err))
    with panel_lock:
        panel["open"], panel["row"] = True, 0
    title, lines = panel_frame(items, 0)
    return open_panel(PANEL, title, lines, FOOTER)


def on_key(key, text):
    with panel_lock:
        if not panel["open"]:
            return
        row = panel["row"]
        try:
            items = store.items()
            if key == "up":
                row = max(row - 1, 0)
            elif key == "down":
                row = min(row + 1, max(len(items) - 1, 0))
            elif key == "rune" and text.lower() == "x":
                store.toggle(row)
            elif key == "rune" and text.lower() == "d":
                store.remove(row)
            elif key == "esc":  # for hosts that pass esc on instead of closing the panel themselves
                panel["open"] = False
                ext.panel_close(PANEL)
                return
            items = store.items()
        except TodoFileError as err:
            ext.panel_render(PANEL, "Todos", [f"error: {err}"], FOOTER)
            return
        panel["row"] = min(row, max(len(items) - 1, 0))
        title, lines = panel_frame(items, panel["row"])
        ext.panel_render(PANEL, title, lines, FOOTER)


def on_close():
    with panel_lock:
        panel["open"] = False


ext.on_panel_key(PANEL, on_key)
ext.on_panel_close(PANEL, on_close)


# ---- tools for the model ----

@ext.tool("todo_add", "Add an item to the user's persistent todo list.",
          {"type": "object", "properties": {"text": {"type": "string", "description": "the todo, one line"}},
           "required": ["text"]})
def todo_add(args, ctx):
    text = args.get("text")
    if not isinstance(text, str) or not text.strip():
        return error_result('todo_add needs {"text": "<the todo>"}')
    try:
        number = store.add(" ".join(text.split()))
    except TodoFileError as err:
        return error_result(str(err))
    redraw()
    return text_result(f"Added todo #{number}: {' '.join(text.split())}")


@ext.tool("todo_list", "List the user's todo list: numbered, [x] marks done items.",
          {"type": "object", "properties": {}})
def todo_list(args, ctx):
    try:
        items = store.items()
    except TodoFileError as err:
        return error_result(str(err))
    return text_result(numbered(items) or "The todo list is empty.")


if __name__ == "__main__":
    ext.run()
