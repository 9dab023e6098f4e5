"""zot_ext: the Python SDK for zot extensions. One file, standard library only.

Copy this file beside your extension (or put its folder on ``sys.path``) and::

    from zot_ext import Extension, display, text_result

    ext = Extension("hello", "1.0.0")

    @ext.command("hello", "say hi")
    def hello(args):
        return display("hi " + (args or "there"))

    @ext.tool("shout", "Upper-case a text.", {"type": "object",
              "properties": {"text": {"type": "string"}}, "required": ["text"]})
    def shout(args, ctx):
        return text_result(str(args.get("text", "")).upper())

    ext.run()

Contracts:
- stdout carries protocol frames only: one compact JSON object per line. Constructing an
  Extension points ``sys.stdout`` at stderr, so a stray ``print()`` lands in the log.
- Register events and interceptors before ``run()`` or inside ``on_hello``. Commands and tools
  may also be registered later: after ``ready`` each is announced to the host at once.
- Command handlers, tool handlers and interceptors each run on their own thread. Events and
  panel callbacks run in arrival order on one worker thread: keep them short.
- A handler that raises becomes an error result, an error ``command_response`` or (for
  interceptors) a block with the error as reason; the extension keeps running.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import sys
import threading
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional

__all__ = [
    "Extension", "HostInfo", "ToolContext", "Response", "ToolResult", "BeforeAgentStartEvent",
    "ToolCallDecision", "TurnStartDecision", "AssistantMessageDecision",
    "ToolResultEvent", "ToolResultDecision", "UserPromptDecision", "AgentEndDecision", "ToolConfirmationDecision",
    "CallToolError", "CallToolTimeout", "FrameTooLarge",
    "prompt", "display", "insert", "noop", "open_panel", "tool_prompt",
    "text_block", "image_block", "text_result", "error_result", "image_result",
    "PROTOCOL_VERSION", "MAX_FRAME_BYTES", "CALL_TOOL_TIMEOUT",
]

PROTOCOL_VERSION = 1
MAX_FRAME_BYTES = 4 * 1024 * 1024  # per frame, newline excluded, both directions
SYSTEM_PROMPT_MAX_BYTES = 1024 * 1024  # encoded before_agent_start replacement
CALL_TOOL_TIMEOUT = 60.0  # seconds, the host's own deadline for call_tool
NOTIFY_LEVELS = ("info", "success", "warn", "error")
INTERCEPTABLE = ("before_agent_start", "tool_call", "turn_start", "assistant_message",
                 # intercept_v2: hosts that know them consult these too (older hosts ignore them)
                 "tool_result", "user_prompt_submit", "before_agent_end", "tool_confirmation")
INTERCEPT_V2 = "intercept_v2"
LIFECYCLE_EVENTS = (
    "session_start", "session_end", "user_prompt_submit", "turn_start", "turn_end", "tool_call",
    "tool_result", "tool_confirmation_requested", "permission_decision", "assistant_message",
    "pre_compact", "post_compact", "subagent_start", "subagent_stop",
)


class CallToolError(RuntimeError):
    """call_tool could not produce a result: unsupported host, cancellation, disconnect."""


class CallToolTimeout(CallToolError):
    """No tool_result arrived in time; the SDK has sent call_tool_cancel."""


class FrameTooLarge(ValueError):
    """An outbound frame would exceed the 4 MiB protocol limit; nothing was written."""


def _text(what: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    return value


def _lines(value: Any) -> List[str]:
    if not isinstance(value, (list, tuple)) or not all(isinstance(x, str) for x in value):
        raise TypeError("panel lines must be a list of str")
    return list(value)


def _panel(panel_id: str, title: str, lines: List[str], footer: str) -> Dict[str, Any]:
    spec = {"id": _text("panel id", panel_id), "title": _text("panel title", title), "lines": _lines(lines)}
    if _text("panel footer", footer):
        spec["footer"] = footer
    return spec


# ---- command responses -------------------------------------------------------------------

class Response:
    """What zot does after a slash command. Build one with prompt(), display(), insert(),
    noop(), open_panel() or tool_prompt(); a non-empty ``error`` is shown as a red status line."""

    __slots__ = ("action", "fields", "error")

    def __init__(self, action: str, fields: Optional[Dict[str, Any]] = None, error: Optional[str] = None):
        self.action = action
        self.fields = dict(fields or {})
        self.error = None if error is None else _text("error", error)

    def to_frame(self, request_id: str) -> Dict[str, Any]:
        frame = {"type": "command_response", "id": request_id, "action": self.action, **self.fields}
        if self.error:
            frame["error"] = self.error
        return frame

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Response) and self.to_frame("") == other.to_frame("")

    def __repr__(self) -> str:
        return f"Response({self.to_frame('')!r})"


def prompt(text: str, error: Optional[str] = None) -> Response:
    """Submit ``text`` as a fresh user message; the agent runs a turn on it."""
    return Response("prompt", {"prompt": _text("prompt", text)}, error)


def display(text: str, error: Optional[str] = None) -> Response:
    """Append ``text`` to the chat as a one-shot note (no model call, not in the transcript)."""
    return Response("display", {"display": _text("display", text)}, error)


def insert(text: str, error: Optional[str] = None) -> Response:
    """Insert ``text`` into the editor at the cursor without submitting it."""
    return Response("insert", {"insert": _text("insert", text)}, error)


def noop(error: Optional[str] = None) -> Response:
    """The extension handled the command itself; zot changes nothing."""
    return Response("noop", None, error)


def open_panel(id: str, title: str, lines: List[str], footer: str = "", error: Optional[str] = None) -> Response:
    """Open an extension-owned panel; keys arrive through on_panel_key(id, ...)."""
    return Response("open_panel", {"open_panel": _panel(id, title, lines, footer)}, error)


def tool_prompt(tool_name: str, tool_args: Dict[str, Any], prompt: str, error: Optional[str] = None) -> Response:
    """Submit ``prompt``, run ``tool_name`` with ``tool_args`` through the host's guards, and
    record the call and its result before the model turn. Raises ValueError on bad input."""
    if not isinstance(tool_name, str) or not tool_name or not isinstance(prompt, str) or not prompt:
        raise ValueError("tool_prompt requires a non-empty tool name and prompt")
    if not isinstance(tool_args, dict):
        raise ValueError("tool_prompt tool_args must be a dict (a JSON object)")
    return Response("tool_prompt", {"prompt": prompt, "tool_name": tool_name, "tool_args": tool_args}, error)


# ---- tool results ------------------------------------------------------------------------

def text_block(text: str) -> Dict[str, Any]:
    return {"type": "text", "text": _text("text", text)}


def image_block(data_b64: str, mime_type: str) -> Dict[str, Any]:
    """``data_b64`` must already be base64 text."""
    return {"type": "image", "mime_type": _text("mime_type", mime_type), "data": _text("data", data_b64)}


class ToolResult:
    """A tool's reply: content blocks, an error flag, and deferred tools to activate."""

    __slots__ = ("content", "is_error", "activate_tools")

    def __init__(self, content: Optional[List[Dict[str, Any]]] = None, is_error: bool = False,
                 activate_tools: Optional[List[str]] = None):
        self.content = list(content or [])
        self.is_error = bool(is_error)
        self.activate_tools = list(activate_tools or [])

    def to_frame(self, request_id: str) -> Dict[str, Any]:
        frame: Dict[str, Any] = {"type": "tool_result", "id": request_id, "content": self.content}
        if self.is_error:
            frame["is_error"] = True
        if self.activate_tools:
            frame["activate_tools"] = self.activate_tools
        return frame

    def __repr__(self) -> str:
        return f"ToolResult({self.to_frame('')!r})"


def text_result(text: str) -> ToolResult:
    return ToolResult([text_block(text)])


def error_result(text: str) -> ToolResult:
    return ToolResult([text_block(text)], is_error=True)


def image_result(data_b64: str, mime_type: str) -> ToolResult:
    return ToolResult([image_block(data_b64, mime_type)])


# ---- interception and host info ----------------------------------------------------------

@dataclass
class ToolCallDecision:
    """Zero value allows. ``modified_args`` (a dict) replaces the args unless blocking.
    intercept_v2: ``decision`` "allow" skips the user's confirmation, "ask" insists on it;
    ``additional_context`` is given to the model with the call's result."""
    block: bool = False
    reason: str = ""
    modified_args: Optional[Dict[str, Any]] = None
    decision: Optional[str] = None
    additional_context: str = ""


@dataclass
class ToolResultEvent:
    """A call that ran, before the model gets its result (intercept_v2)."""
    tool_id: str
    tool_name: str
    args: Dict[str, Any]
    status: str
    is_error: bool
    content: List[Dict[str, Any]]


@dataclass
class ToolResultDecision:
    """``replace_content`` (content blocks) is what the model gets instead; ``additional_context`` follows it."""
    replace_content: Optional[List[Dict[str, Any]]] = None
    additional_context: str = ""


@dataclass
class UserPromptDecision:
    """``block`` keeps the prompt from the model (``reason`` for the user); ``additional_context`` goes with it."""
    block: bool = False
    reason: str = ""
    additional_context: str = ""


@dataclass
class AgentEndDecision:
    """``continue_with`` continues the agent with that prompt instead of ending its run."""
    continue_with: str = ""


@dataclass
class ToolConfirmationDecision:
    """``allow`` approves in the user's place, ``block`` denies (with ``reason``); the zero value asks the user."""
    allow: bool = False
    block: bool = False
    reason: str = ""


@dataclass
class TurnStartDecision:
    block: bool = False
    reason: str = ""


@dataclass
class AssistantMessageDecision:
    """``replace_text`` (when not None and different) is what the user sees instead."""
    block: bool = False
    reason: str = ""
    replace_text: Optional[str] = None


@dataclass
class BeforeAgentStartEvent:
    system_prompt: str
    session_id: str = ""
    agent_run_id: str = ""
    cwd: str = ""
    provider: str = ""
    model: str = ""


@dataclass
class HostInfo:
    """Fields of the host's hello_ack; ``raw`` keeps the whole frame."""
    protocol_version: int = 0
    zot_version: str = ""
    provider: str = ""
    model: str = ""
    cwd: str = ""
    extension_dir: str = ""
    data_dir: str = ""
    capabilities: List[str] = field(default_factory=list)
    raw: Dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_frame(cls, f: Dict[str, Any]) -> "HostInfo":
        def s(key: str) -> str:
            v = f.get(key)
            return v if isinstance(v, str) else ""
        caps = f.get("capabilities")
        version = f.get("protocol_version")
        return cls(version if isinstance(version, int) else 0, s("zot_version"), s("provider"), s("model"),
                   s("cwd"), s("extension_dir"), s("data_dir"),
                   [c for c in caps if isinstance(c, str)] if isinstance(caps, list) else [], dict(f))


def _decision(value: Any, cls: type) -> Any:
    """An interceptor's answer: None means the zero value (allow, unchanged)."""
    if value is None:
        return cls()
    if not isinstance(value, cls):
        raise TypeError(f"returned {type(value).__name__}; return a {cls.__name__} or None")
    return value


class ToolContext:
    """Per-invocation state for a tool handler. ``cancelled`` is set on tool_cancel, shutdown and
    host EOF; once set, the handler's return value is discarded (the host ignores it anyway)."""

    def __init__(self, ext: "Extension", call_id: str, name: str):
        self.id = call_id
        self.name = name
        self.cancelled = threading.Event()
        self._ext = ext
        self._calls: set = set()  # outstanding nested call_tool ids

    @property
    def host(self) -> Optional[HostInfo]:
        return self._ext.host

    def call_tool(self, name: str, args: Optional[Dict[str, Any]] = None, timeout: float = CALL_TOOL_TIMEOUT) -> Dict[str, Any]:
        """Extension.call_tool with ``parent_id`` set to this invocation; cancelling the
        invocation cancels the nested call."""
        return self._ext.call_tool(name, args, parent_id=self.id, timeout=timeout)


class _Pending:
    __slots__ = ("done", "result", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: Optional[Dict[str, Any]] = None
        self.error: Optional[str] = None

    def settle(self, result: Optional[Dict[str, Any]] = None, error: Optional[str] = None) -> None:
        if not self.done.is_set():
            self.result, self.error = result, error
            self.done.set()


class _LineReader:
    """Yields inbound lines split on b"\\n" only (a trailing \\r is dropped). Lines over the
    frame limit are skipped up to their newline instead of buffered."""

    def __init__(self, stream: Any, log: Callable[[str], None]):
        self._read = getattr(stream, "read1", None) or (lambda n: os.read(stream.fileno(), n))
        self._log = log
        self._buf = bytearray()
        self._scanned = 0
        self._skipping = False

    def next_line(self) -> Optional[bytes]:
        while True:
            i = self._buf.find(b"\n", self._scanned)
            if i >= 0:
                line = bytes(self._buf[:i])
                del self._buf[:i + 1]
                self._scanned = 0
                if self._skipping:
                    self._skipping = False
                    continue
                if line.endswith(b"\r"):
                    line = line[:-1]
                if len(line) > MAX_FRAME_BYTES:
                    self._log(f"inbound frame exceeds {MAX_FRAME_BYTES} bytes; skipped")
                    continue
                if line.strip():
                    return line
                continue
            self._scanned = len(self._buf)
            # One byte of slack for a trailing \r, which is not part of the frame: a frame of
            # exactly the limit whose \r and \n arrive in different reads is still whole.
            if len(self._buf) > MAX_FRAME_BYTES + 1:
                if not self._skipping:
                    self._log(f"inbound frame exceeds {MAX_FRAME_BYTES} bytes; skipped")
                self._buf.clear()
                self._scanned = 0
                self._skipping = True
            chunk = self._read(65536)
            if not chunk:
                rest = bytes(self._buf).rstrip(b"\r")
                self._buf.clear()
                return rest if rest.strip() and not self._skipping and len(rest) <= MAX_FRAME_BYTES else None
            self._buf += chunk


# ---- the extension -----------------------------------------------------------------------

class Extension:
    """One zot extension. Register handlers, then call run().

    ``capabilities`` adds hello capabilities the SDK cannot infer before run(), e.g.
    ``["panels"]`` when panels are opened only from on_hello registrations. ``stdin``/``stdout``
    are binary streams (default: the process's own)."""

    def __init__(self, name: str, version: str, *, capabilities: Optional[List[str]] = None,
                 stdin: Any = None, stdout: Any = None, intercept_timeout_ms: Optional[int] = None):
        if not isinstance(name, str) or not name:
            raise ValueError("extension name must be a non-empty str (the manifest's name)")
        self.name = name
        self.version = _text("version", version)
        self.host: Optional[HostInfo] = None
        self._extra_caps = list(capabilities or [])
        if intercept_timeout_ms is not None and (not isinstance(intercept_timeout_ms, int) or intercept_timeout_ms < 1):
            raise ValueError("intercept_timeout_ms must be a positive int (milliseconds)")
        self._intercept_timeout_ms = intercept_timeout_ms  # intercept_v2: a longer deadline, capped by the host
        self._in = stdin if stdin is not None else sys.__stdin__.buffer
        self._out = stdout if stdout is not None else sys.__stdout__.buffer
        if stdout is None and sys.stdout is sys.__stdout__:
            sys.stdout = sys.stderr  # a stray print() must not corrupt the protocol stream
        self._write_lock = threading.Lock()
        self._lock = threading.RLock()
        self._phase = "setup"  # setup -> handshake -> ready -> closed
        self._commands: Dict[str, tuple] = {}
        self._tools: Dict[str, tuple] = {}
        self._events: Dict[str, Callable] = {}
        self._intercepts: Dict[str, Callable] = {}
        self._panel_keys: Dict[str, Callable] = {}
        self._panel_closes: Dict[str, Callable] = {}
        self._on_hello: Optional[Callable] = None
        self._host_caps: frozenset = frozenset()
        self._active: Dict[str, ToolContext] = {}
        self._pending: Dict[str, _Pending] = {}
        self._ids = itertools.count(1)
        self._serial: "queue.Queue[tuple]" = queue.Queue()

    # -- registration --

    def _announced(self) -> bool:
        """True once registrations have gone out: later subscriptions cannot be announced."""
        return self._phase in ("ready", "closed")

    @staticmethod
    def _late_subscription(what: str) -> RuntimeError:
        return RuntimeError(f"{what}: subscriptions are announced once, before ready; register before run() or in on_hello")

    def _add(self, table: Dict[str, tuple], key: str, entry: tuple, frame: Dict[str, Any]) -> None:
        """Store a command or tool (call with ``self._lock`` held). After ready the host hears of
        it at once, as the protocol allows; a frame that cannot be sent is not kept."""
        table[key] = entry
        if self._phase != "ready":
            return  # announced by run(), or never (closed)
        try:
            self._send(frame)
        except BaseException:
            del table[key]
            raise

    def command(self, name: str, description: str) -> Callable:
        """Decorator: ``fn(args: str) -> Response`` handles ``/name``; returning None means noop().
        After ready (e.g. from a handler) the register_command frame is sent at once."""
        def register(fn: Callable) -> Callable:
            if not _text("command name", name):
                raise ValueError("command name must not be empty")
            frame = {"type": "register_command", "name": name, "description": _text("description", description)}
            with self._lock:
                if name.lower() in (n.lower() for n in self._commands):
                    raise ValueError(f"command /{name} is already registered")
                self._add(self._commands, name, (description, fn), frame)
            return fn
        return register

    def tool(self, name: str, description: str, schema: Dict[str, Any], deferred: bool = False,
             interactive: bool = False) -> Callable:
        """Decorator: ``fn(args: dict, ctx: ToolContext) -> ToolResult`` (a str becomes
        text_result). ``deferred`` hides it until activated; ``interactive`` lifts the host's
        reply deadline and the handler must honor ``ctx.cancelled``. After ready the
        register_tool frame is sent at once."""
        def register(fn: Callable) -> Callable:
            if not _text("tool name", name):
                raise ValueError("tool name must not be empty")
            if not isinstance(schema, dict):
                raise TypeError(f"tool {name}: schema must be a dict (a JSON Schema object)")
            frame = {"type": "register_tool", "name": name, "description": _text("description", description),
                     "schema": json.loads(json.dumps(schema))}  # fails here, not at run(), if not JSON
            if deferred:
                frame["deferred"] = True
            if interactive:
                frame["interactive"] = True
            with self._lock:
                if name in self._tools:
                    raise ValueError(f"tool {name} is already registered")
                self._add(self._tools, name, (frame, fn), frame)
            return fn
        return register

    def on_hello(self, fn: Callable[[HostInfo], None]) -> Callable:
        """Run ``fn(host)`` after hello_ack, before registrations are announced; it may register."""
        self._on_hello = fn
        return fn

    def on_event(self, name: str, fn: Callable[[Dict[str, Any]], None]) -> Callable:
        """Subscribe to lifecycle event ``name``; ``fn`` receives the whole event frame. After
        ready only an already subscribed event may get a new handler (else RuntimeError)."""
        with self._lock:
            if self._announced() and name not in self._events:
                raise self._late_subscription(f"on_event({name!r})")
        if name not in LIFECYCLE_EVENTS:  # newer hosts may know it: warn, still subscribe
            self.log(f"on_event: {name!r} is not a known lifecycle event")
        with self._lock:
            self._events[_text("event name", name)] = fn
        return fn

    def _intercepted(self) -> List[str]:
        return [e for e in INTERCEPTABLE if e in self._intercepts or f"{e}_x" in self._intercepts]

    def _intercept(self, event: str, fn: Callable) -> Callable:
        """After ready an interceptor may only replace one for an already intercepted event."""
        with self._lock:
            base = event[:-2] if event.endswith("_x") else event
            if self._announced() and base not in self._intercepted():
                raise self._late_subscription(f"{base} interceptor")
            self._intercepts[event] = fn
        return fn

    def intercept_before_agent_start(self, fn: Callable[[BeforeAgentStartEvent], Optional[str]]) -> Callable:
        """Return the complete replacement system prompt ("" removes it) or None to keep it."""
        return self._intercept("before_agent_start", fn)

    def intercept_tool_call(self, fn: Callable[[str, Dict[str, Any]], Any]) -> Callable:
        """``fn(tool, args) -> (allow, reason)`` (a bare bool or None also works)."""
        return self._intercept("tool_call", fn)

    def intercept_tool_call_x(self, fn: Callable[[str, Dict[str, Any]], Optional[ToolCallDecision]]) -> Callable:
        """Richer form that can rewrite args; wins over intercept_tool_call."""
        return self._intercept("tool_call_x", fn)

    def intercept_turn_start(self, fn: Callable[[int], Optional[TurnStartDecision]]) -> Callable:
        return self._intercept("turn_start", fn)

    def intercept_assistant_message(self, fn: Callable[[str], Optional[AssistantMessageDecision]]) -> Callable:
        return self._intercept("assistant_message", fn)

    def intercept_tool_result(self, fn: Callable[[ToolResultEvent], Optional[ToolResultDecision]]) -> Callable:
        """A call's result before the model gets it: replace it or add context (intercept_v2)."""
        return self._intercept("tool_result", fn)

    def intercept_user_prompt(self, fn: Callable[[str], Optional[UserPromptDecision]]) -> Callable:
        """A prompt before it reaches the model: block it or add context (intercept_v2)."""
        return self._intercept("user_prompt_submit", fn)

    def intercept_agent_end(self, fn: Callable[[str, int], Optional[AgentEndDecision]]) -> Callable:
        """The agent is about to end its run (its last text, continuations so far): continue it (intercept_v2)."""
        return self._intercept("before_agent_end", fn)

    def intercept_tool_confirmation(self, fn: Callable[[str, Dict[str, Any], str], Optional[ToolConfirmationDecision]]) -> Callable:
        """The user is about to be asked to confirm a call (tool, args, preview): answer for them (intercept_v2)."""
        return self._intercept("tool_confirmation", fn)

    def on_panel_key(self, panel_id: str, fn: Callable[[str, str], None]) -> None:
        """``fn(key, text)`` for keys while ``panel_id`` is focused (text only for key "rune")."""
        with self._lock:
            self._panel_keys[panel_id] = fn

    def on_panel_close(self, panel_id: str, fn: Callable[[], None]) -> None:
        """``fn()`` when the user closes ``panel_id`` from zot."""
        with self._lock:
            self._panel_closes[panel_id] = fn

    def off_panel(self, panel_id: str) -> None:
        """Forget both panel callbacks of ``panel_id`` (e.g. after a per-call panel ends)."""
        with self._lock:
            self._panel_keys.pop(panel_id, None)
            self._panel_closes.pop(panel_id, None)

    # -- outbound frames --

    def log(self, message: str) -> None:
        """Write a line to stderr, which zot appends to the extension's log file."""
        try:
            sys.__stderr__.write(f"[{self.name}] {message}\n")
            sys.__stderr__.flush()
        except (OSError, ValueError, AttributeError):
            pass

    def _send(self, frame: Dict[str, Any], last: bool = False) -> bool:
        """Write one frame; False when the stream is closed. ``last`` closes the stream for
        every other writer in the same breath. Raises FrameTooLarge, or TypeError/ValueError
        for values JSON cannot carry."""
        # allow_nan=False: NaN/Infinity are not JSON and would break the host's parser.
        data = json.dumps(frame, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
        if len(data) > MAX_FRAME_BYTES:
            raise FrameTooLarge(f"{frame.get('type')} frame is {len(data)} bytes, over the {MAX_FRAME_BYTES}-byte limit")
        with self._write_lock:
            if self._phase == "closed":
                return False
            try:
                self._out.write(data + b"\n")
                self._out.flush()
                if last:
                    self._phase = "closed"
                return True
            except (OSError, ValueError) as err:  # host went away; the reader sees EOF next
                self._phase = "closed"
                self.log(f"stdout closed: {err}")
                return False

    def _after_hello(self, what: str) -> None:
        if self._phase == "setup":
            raise RuntimeError(f"{what} before run() sent hello (the protocol forbids frames before hello)")

    def notify(self, level: str, message: str) -> None:
        if level not in NOTIFY_LEVELS:
            raise ValueError(f"notify level must be one of {', '.join(NOTIFY_LEVELS)}; got {level!r}")
        self._after_hello("notify()")
        self._send({"type": "notify", "level": level, "message": _text("message", message)})

    def clear_notes(self) -> None:
        self._after_hello("clear_notes()")
        self._send({"type": "clear_notes"})

    def submit(self, text: str) -> None:
        """Submit ``text`` as a user prompt (queued behind a running turn; interactive host only)."""
        self._after_hello("submit()")
        self._send({"type": "submit", "text": _text("text", text)})

    def panel_render(self, panel_id: str, title: str, lines: List[str], footer: str = "") -> None:
        """Redraw ``panel_id``; the host opens it when it is not open yet."""
        self._after_hello("panel_render()")
        spec = _panel(panel_id, title, lines, footer)
        self._send({"type": "panel_render", "panel_id": spec.pop("id"), **spec})

    def panel_close(self, panel_id: str) -> None:
        self._after_hello("panel_close()")
        self._send({"type": "panel_close", "panel_id": _text("panel id", panel_id)})

    # -- call_tool --

    def call_tool(self, name: str, args: Optional[Dict[str, Any]] = None, parent_id: Optional[str] = None,
                  timeout: float = CALL_TOOL_TIMEOUT) -> Dict[str, Any]:
        """Run an active host tool and return the host's tool_result frame (``content`` and
        ``is_error`` always present). Blocks the calling thread. Raises CallToolError when the
        host lacks call_tool, on cancellation or disconnect, and CallToolTimeout (after sending
        call_tool_cancel) when ``timeout`` seconds pass without a result."""
        if self._phase != "ready":
            raise CallToolError("call_tool is only available after run() has sent ready")
        if "call_tool" not in self._host_caps:
            raise CallToolError('this zot host does not support call_tool (hello_ack.capabilities lacks "call_tool")')
        if not isinstance(name, str) or not name:
            raise ValueError("call_tool needs a tool name")
        args = {} if args is None else args
        if not isinstance(args, dict):
            raise TypeError("call_tool args must be a dict (a JSON object)")
        call_id = f"call-{next(self._ids)}"
        pending = _Pending()
        frame: Dict[str, Any] = {"type": "call_tool", "id": call_id, "name": name, "args": args}
        if parent_id is not None:
            frame["parent_id"] = parent_id
        with self._lock:
            parent = self._active.get(parent_id) if parent_id is not None else None
            if parent is not None and parent.cancelled.is_set():
                raise CallToolError(f"call_tool {name}: the parent tool call was cancelled")
            self._pending[call_id] = pending
            if parent is not None:
                parent._calls.add(call_id)
        try:
            if not self._send(frame):
                raise CallToolError(f"call_tool {name}: the host is gone")
            if not pending.done.wait(timeout):
                self._send({"type": "call_tool_cancel", "id": call_id})
                raise CallToolTimeout(f"call_tool {name} timed out after {timeout:g}s")
            if pending.error is not None:
                raise CallToolError(f"call_tool {name}: {pending.error}")
            return pending.result  # type: ignore[return-value]
        finally:
            with self._lock:
                self._pending.pop(call_id, None)
                if parent is not None:
                    parent._calls.discard(call_id)

    # -- run loop --

    def _capabilities(self) -> List[str]:
        used = {"commands": self._commands, "tools": self._tools,
                "events": self._events or self._intercepts, "panels": self._panel_keys or self._panel_closes}
        caps = [c for c, on in used.items() if on] + ["tool_cancel", "call_tool", INTERCEPT_V2]
        return caps + [c for c in dict.fromkeys(self._extra_caps) if c not in caps]

    def run(self) -> None:
        """Handshake, announce registrations, send ready, then dispatch until shutdown or EOF.
        Returns normally in both cases (after shutdown_ack on shutdown)."""
        if self._phase != "setup":
            raise RuntimeError("run() may only be called once")
        reader = _LineReader(self._in, self.log)
        self._phase = "handshake"  # before the write, so a broken stdout can still mark it closed
        self._send({"type": "hello", "name": self.name, "version": self.version, "capabilities": self._capabilities()})
        ack = self._await_hello_ack(reader)
        if ack is None:
            return
        self.host = HostInfo.from_frame(ack)
        self._host_caps = frozenset(self.host.capabilities)
        if self._on_hello is not None:
            try:
                self._on_hello(self.host)
            except Exception:
                self.log("on_hello failed:\n" + traceback.format_exc())
        self._announce()
        threading.Thread(target=self._serial_worker, name="zot-ext-events", daemon=True).start()
        while True:
            line = reader.next_line()
            if line is None:
                self._cancel_all("the host closed stdin")
                return
            frame = self._parse(line)
            if frame is not None and self._dispatch(frame):
                return

    def _await_hello_ack(self, reader: _LineReader) -> Optional[Dict[str, Any]]:
        while True:
            line = reader.next_line()
            if line is None:
                self.log("the host closed stdin before hello_ack")
                self._cancel_all("the host closed stdin")
                return None
            frame = self._parse(line)
            if frame is None:
                continue
            if frame.get("type") == "hello_ack":
                return frame
            if frame.get("type") == "shutdown":
                self._dispatch(frame)
                return None
            self.log(f"ignored {frame.get('type')!r} frame before hello_ack")

    def _announce(self) -> None:
        with self._lock:
            for name, (description, _) in self._commands.items():
                self._send({"type": "register_command", "name": name, "description": description})
            for frame, _ in self._tools.values():
                self._send(frame)
            subscribe: Dict[str, Any] = {"type": "subscribe"}
            if self._events:
                subscribe["events"] = list(self._events)
            intercept = self._intercepted()
            if intercept:
                subscribe["intercept"] = intercept
                if self._intercept_timeout_ms is not None:
                    subscribe["intercept_timeout_ms"] = self._intercept_timeout_ms
            if len(subscribe) > 1:
                self._send(subscribe)
            if self._phase != "closed":
                self._phase = "ready"
            # Under the lock: a command registered meanwhile on another thread follows ready.
            self._send({"type": "ready"})

    def _parse(self, line: bytes) -> Optional[Dict[str, Any]]:
        try:
            frame = json.loads(line)
        except ValueError as err:
            self.log(f"malformed frame from host ignored: {err}")
            return None
        if not isinstance(frame, dict):
            self.log("non-object frame from host ignored")
            return None
        return frame

    def _dispatch(self, f: Dict[str, Any]) -> bool:
        """Handle one host frame; True means stop reading (shutdown)."""
        kind = f.get("type")
        if kind == "shutdown":
            self._cancel_all("zot is shutting down")
            self._send({"type": "shutdown_ack"}, last=True)  # nothing may follow the ack
            return True
        handler = {
            "command_invoked": self._on_command, "tool_call": self._on_tool_call,
            "tool_cancel": self._on_tool_cancel, "tool_result": self._on_tool_result,
            "event": self._on_event, "event_intercept": self._on_intercept,
            "panel_key": self._on_panel_key, "panel_close": self._on_panel_close_frame,
        }.get(kind)  # type: ignore[arg-type]
        if handler is not None:
            handler(f)
        elif kind != "hello_ack":
            self.log(f"ignored unknown frame type {kind!r}")
        return False

    def _cancel_all(self, reason: str) -> None:
        """Cancel every running tool and fail every outstanding call_tool."""
        with self._lock:
            contexts = list(self._active.values())
            pending = list(self._pending.values())
        for ctx in contexts:
            ctx.cancelled.set()
        for p in pending:
            p.settle(error=reason)

    @staticmethod
    def _spawn(target: Callable, *args: Any) -> None:
        threading.Thread(target=target, args=args, daemon=True).start()

    def _serial_worker(self) -> None:
        while True:
            fn, args, what = self._serial.get()
            try:
                fn(*args)
            except Exception:
                self.log(f"{what} handler failed:\n" + traceback.format_exc())

    # -- commands --

    def _on_command(self, f: Dict[str, Any]) -> None:
        request_id, name, args = f.get("id"), f.get("name"), f.get("args")
        if not isinstance(request_id, str):
            return self.log("command_invoked without an id ignored")
        with self._lock:
            entry = self._commands.get(name) or next(
                (v for k, v in self._commands.items() if isinstance(name, str) and k.lower() == name.lower()), None)
        if entry is None:
            self._send(noop(error=f"no handler for /{name}").to_frame(request_id))
            return
        self._spawn(self._run_command, request_id, str(name), entry[1], args if isinstance(args, str) else "")

    def _run_command(self, request_id: str, name: str, fn: Callable, args: str) -> None:
        try:
            response = fn(args)
            if response is None:
                response = noop()
            elif not isinstance(response, Response):
                raise TypeError(f"handler returned {type(response).__name__}; return prompt(), display(), insert(), noop(), open_panel() or tool_prompt()")
        except BaseException as err:  # even SystemExit: the host waits for an answer
            self.log(f"/{name} failed:\n" + traceback.format_exc())
            response = noop(error=f"/{name} failed: {type(err).__name__}: {err}")
        try:
            self._send(response.to_frame(request_id))
        except (FrameTooLarge, TypeError, ValueError) as err:
            self._send(noop(error=f"/{name} failed: {err}").to_frame(request_id))

    # -- tools --

    def _on_tool_call(self, f: Dict[str, Any]) -> None:
        call_id, name, args = f.get("id"), f.get("name"), f.get("args")
        if not isinstance(call_id, str):
            return self.log("tool_call without an id ignored")
        with self._lock:
            entry = self._tools.get(name)  # type: ignore[arg-type]
        if entry is None:
            self._send(error_result(f"no handler for tool {name!r}").to_frame(call_id))
            return
        if args is None:
            args = {}
        if not isinstance(args, dict):
            self._send(error_result(f"{name}: args must be a JSON object").to_frame(call_id))
            return
        ctx = ToolContext(self, call_id, str(name))
        with self._lock:  # before the thread starts, so an immediate tool_cancel finds it
            self._active[call_id] = ctx
        self._spawn(self._run_tool, ctx, entry[1], args)

    def _run_tool(self, ctx: ToolContext, fn: Callable, args: Dict[str, Any]) -> None:
        try:
            try:
                result = fn(args, ctx)
                if isinstance(result, str):
                    result = text_result(result)
                elif not isinstance(result, ToolResult):
                    raise TypeError(f"handler returned {type(result).__name__}; return a ToolResult or str")
            except BaseException as err:
                if not ctx.cancelled.is_set():
                    self.log(f"tool {ctx.name} failed:\n" + traceback.format_exc())
                result = error_result(f"{ctx.name} failed: {type(err).__name__}: {err}")
            if ctx.cancelled.is_set():
                return  # abandoned by the host: it ignores late results
            try:
                self._send(result.to_frame(ctx.id))
            except (FrameTooLarge, TypeError, ValueError) as err:
                self._send(error_result(f"{ctx.name} failed: {err}").to_frame(ctx.id))
        finally:
            with self._lock:
                self._active.pop(ctx.id, None)

    def _on_tool_cancel(self, f: Dict[str, Any]) -> None:
        with self._lock:
            ctx = self._active.get(f.get("id"))  # type: ignore[arg-type]
            if ctx is None:
                return
            ctx.cancelled.set()
            nested = [(c, self._pending[c]) for c in ctx._calls if c in self._pending]
        for call_id, p in nested:
            p.settle(error="the parent tool call was cancelled")
            self._send({"type": "call_tool_cancel", "id": call_id})

    def _on_tool_result(self, f: Dict[str, Any]) -> None:
        with self._lock:
            pending = self._pending.get(f.get("id"))  # type: ignore[arg-type]
        if pending is None:
            return self.log(f"tool_result for unknown call {f.get('id')!r} ignored")
        f.setdefault("content", [])
        f.setdefault("is_error", False)
        pending.settle(result=f)

    # -- events and panels (serial, in arrival order) --

    def _on_event(self, f: Dict[str, Any]) -> None:
        with self._lock:
            fn = self._events.get(f.get("event"))  # type: ignore[arg-type]
        if fn is not None:
            self._serial.put((fn, (f,), f"event {f.get('event')}"))

    def _on_panel_key(self, f: Dict[str, Any]) -> None:
        with self._lock:
            fn = self._panel_keys.get(f.get("panel_id"))  # type: ignore[arg-type]
        if fn is not None:
            text = f.get("text")
            self._serial.put((fn, (f.get("key", ""), text if isinstance(text, str) else ""), "panel_key"))

    def _on_panel_close_frame(self, f: Dict[str, Any]) -> None:
        with self._lock:
            fn = self._panel_closes.get(f.get("panel_id"))  # type: ignore[arg-type]
        if fn is not None:
            self._serial.put((fn, (), "panel_close"))

    # -- interception --

    def _on_intercept(self, f: Dict[str, Any]) -> None:
        if not isinstance(f.get("id"), str):
            return self.log("event_intercept without an id ignored")
        self._spawn(self._run_intercept, f)

    def _run_intercept(self, f: Dict[str, Any]) -> None:
        event = f.get("event")
        response: Dict[str, Any] = {"type": "event_intercept_response", "id": f["id"]}
        with self._lock:
            rich = self._intercepts.get(f"{event}_x")
            fn = rich or self._intercepts.get(event)  # type: ignore[arg-type]
        try:
            if fn is not None:
                if event == "before_agent_start":
                    self._decide_start(fn, f, response)
                elif event == "tool_call":
                    self._decide_tool_call(fn, rich is not None, f, response)
                elif event == "turn_start":
                    step = f.get("step")
                    d = _decision(fn(step if isinstance(step, int) else 0), TurnStartDecision)
                    self._apply_block(d, response)
                elif event == "assistant_message":
                    text = f.get("text") if isinstance(f.get("text"), str) else ""
                    d = _decision(fn(text), AssistantMessageDecision)
                    self._apply_block(d, response)
                    if not d.block and d.replace_text is not None and d.replace_text != text:
                        response["replace_text"] = _text("replace_text", d.replace_text)
                else:
                    self._decide_v2(str(event), fn, f, response)
        except Exception as err:
            self.log(f"{event} interceptor failed:\n" + traceback.format_exc())
            response = self._intercept_failure(f, err)
        try:
            self._send(response)
        except (TypeError, ValueError) as err:  # e.g. modified_args holding a set
            self.log(f"{event} interceptor answer not sendable: {err}")
            self._send(self._intercept_failure(f, err))

    def _decide_v2(self, event: str, fn: Callable, f: Dict[str, Any], response: Dict[str, Any]) -> None:
        """The intercept_v2 points: tool_result, user_prompt_submit, before_agent_end, tool_confirmation."""
        def s(key: str) -> str:
            return f[key] if isinstance(f.get(key), str) else ""
        args = f.get("tool_args") if isinstance(f.get("tool_args"), dict) else {}
        if event == "tool_result":
            result = f.get("result") if isinstance(f.get("result"), dict) else {}
            content = [b for b in result.get("content", []) if isinstance(b, dict)] if isinstance(result.get("content"), list) else []
            d = _decision(fn(ToolResultEvent(s("tool_id"), s("tool_name"), args, s("status"), result.get("is_error") is True, content)),
                          ToolResultDecision)
            if d.replace_content is not None:
                if not isinstance(d.replace_content, list):
                    raise TypeError("replace_content must be a list of content blocks")
                response["replace_content"] = d.replace_content
            if d.additional_context:
                response["additional_context"] = _text("additional_context", d.additional_context)
        elif event == "user_prompt_submit":
            d = _decision(fn(s("text")), UserPromptDecision)
            self._apply_block(d, response)
            if not d.block and d.additional_context:
                response["additional_context"] = _text("additional_context", d.additional_context)
        elif event == "before_agent_end":
            count = f.get("continuations")
            d = _decision(fn(s("text"), count if isinstance(count, int) else 0), AgentEndDecision)
            if d.continue_with:
                response["continue_with"] = _text("continue_with", d.continue_with)
        elif event == "tool_confirmation":
            d = _decision(fn(s("tool_name"), args, s("tool_preview")), ToolConfirmationDecision)
            if d.block:
                self._apply_block(d, response)
            elif d.allow:
                response["decision"] = "allow"
                if d.reason:
                    response["reason"] = _text("reason", d.reason)

    @staticmethod
    def _intercept_failure(f: Dict[str, Any], err: BaseException) -> Dict[str, Any]:
        """A broken interceptor answers "allow, unchanged", as the host treats a crash or a
        timeout (the protocol fails open); the traceback is in the extension's log."""
        return {"type": "event_intercept_response", "id": f["id"]}

    @staticmethod
    def _apply_block(d: Any, response: Dict[str, Any]) -> None:
        if d.block:
            response["block"] = True
        if d.reason:
            response["reason"] = _text("reason", d.reason)

    def _decide_start(self, fn: Callable, f: Dict[str, Any], response: Dict[str, Any]) -> None:
        prompt_text = f.get("system_prompt")
        if not isinstance(prompt_text, str):
            return
        def s(key: str) -> str:
            return f[key] if isinstance(f.get(key), str) else ""
        replacement = fn(BeforeAgentStartEvent(prompt_text, s("session_id"), s("agent_run_id"), s("cwd"), s("provider"), s("model")))
        if replacement is None:
            return
        if not isinstance(replacement, str):
            self.log(f"before_agent_start interceptor returned {type(replacement).__name__}, not str; prompt kept")
        elif len(json.dumps(replacement, ensure_ascii=False).encode("utf-8")) > SYSTEM_PROMPT_MAX_BYTES:
            self.log(f"before_agent_start replacement exceeds {SYSTEM_PROMPT_MAX_BYTES} bytes; prompt kept")
        else:
            response["system_prompt"] = replacement

    def _decide_tool_call(self, fn: Callable, rich: bool, f: Dict[str, Any], response: Dict[str, Any]) -> None:
        tool = f.get("tool_name") if isinstance(f.get("tool_name"), str) else ""
        args = f.get("tool_args") if isinstance(f.get("tool_args"), dict) else {}
        if rich:
            d = _decision(fn(tool, args), ToolCallDecision)
            self._apply_block(d, response)
            if not d.block and d.modified_args is not None:
                if not isinstance(d.modified_args, dict):
                    raise TypeError("modified_args must be a dict (a JSON object)")
                response["modified_args"] = d.modified_args
            if not d.block and d.decision in ("allow", "ask"):
                response["decision"] = d.decision
            if not d.block and d.additional_context:
                response["additional_context"] = _text("additional_context", d.additional_context)
            return
        verdict = fn(tool, args)
        allow, reason = (verdict if isinstance(verdict, tuple) else (verdict is None or verdict, ""))
        self._apply_block(TurnStartDecision(not allow, reason or ""), response)
