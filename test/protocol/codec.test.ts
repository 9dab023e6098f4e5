import { describe, expect, it } from "vitest";
import { encodeFrame, LineDecoder, MAX_FRAME_BYTES } from "../../lib/protocol/index.ts";

function collect(maxFrameBytes?: number) {
  const lines: string[] = [];
  const oversize: number[] = [];
  const decoder = new LineDecoder({ maxFrameBytes, onLine: (l) => lines.push(l), onOversize: (n) => oversize.push(n) });
  return { decoder, lines, oversize };
}

describe("framing: JSONL split on \\n only", () => {
  it("reassembles a multi-byte character split at every byte boundary", () => {
    const frame = encodeFrame({ type: "notify", message: "zoë — 日本 🎉 done" });
    const bytes = Buffer.from(frame, "utf8");
    for (let cut = 1; cut < bytes.length; cut++) {
      const { decoder, lines } = collect();
      decoder.push(bytes.subarray(0, cut));
      decoder.push(bytes.subarray(cut));
      expect(lines).toEqual([frame.slice(0, -1)]);
    }
  });

  it("delivers the same lines however the stream is cut into chunks", () => {
    const text = encodeFrame({ type: "a", s: "zoë 🎉" }) + "\r\n\n" + encodeFrame({ type: "b" }).replace("\n", "\r\n") +
      encodeFrame({ type: "c", s: "日本" }) + '{"type":"d"}';
    const bytes = Buffer.from(text, "utf8");
    const expected = ['{"type":"a","s":"zoë 🎉"}', '{"type":"b"}', '{"type":"c","s":"日本"}', '{"type":"d"}'];
    for (let first = 1; first < bytes.length; first++) {
      for (const second of [first + 1, first + 7, bytes.length]) {
        const { decoder, lines } = collect();
        decoder.push(bytes.subarray(0, first));
        decoder.push(bytes.subarray(first, second));
        decoder.push(bytes.subarray(second));
        decoder.end();
        expect(lines).toEqual(expected);
      }
    }
  });

  it("survives one byte at a time", () => {
    const text = encodeFrame({ type: "a", s: "🎉🎉" }) + encodeFrame({ type: "b" });
    const { decoder, lines } = collect();
    for (const byte of Buffer.from(text)) decoder.push(Uint8Array.of(byte));
    expect(lines.map((l) => JSON.parse(l).type)).toEqual(["a", "b"]);
  });

  it("tolerates \\r\\n and skips empty lines", () => {
    const { decoder, lines } = collect();
    decoder.push(Buffer.from('{"type":"a"}\r\n\r\n\n{"type":"b"}\r\n'));
    expect(lines).toEqual(['{"type":"a"}', '{"type":"b"}']);
  });

  it("delivers empty lines when asked to keep them, and still no line for a final newline", () => {
    const lines: string[] = [];
    const decoder = new LineDecoder({ keepEmptyLines: true, onLine: (l) => lines.push(l) });
    decoder.push(Buffer.from('{"type":"a"}\r\n\r\n\n{"type":"b"}\n'));
    decoder.end();
    expect(lines).toEqual(['{"type":"a"}', "", "", '{"type":"b"}']);
  });

  it("does not split on U+2028 / U+2029 inside strings", () => {
    const frame = encodeFrame({ type: "notify", message: "one\u2028two\u2029three" });
    expect(frame).toContain("\u2028");
    const { decoder, lines } = collect();
    decoder.push(Buffer.from(frame));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).message).toBe("one\u2028two\u2029three");
  });

  it("a final line without a newline counts at end of stream", () => {
    const { decoder, lines } = collect();
    decoder.push(Buffer.from('{"type":"a"}\n{"type":"b"}'));
    expect(lines).toEqual(['{"type":"a"}']);
    decoder.end();
    expect(lines).toEqual(['{"type":"a"}', '{"type":"b"}']);
  });
});

describe("framing: the 4 MiB frame limit", () => {
  const frameOf = (bytes: number) => {
    const prefix = '{"type":"notify","message":"';
    const suffix = '"}';
    return prefix + "x".repeat(bytes - prefix.length - suffix.length) + suffix;
  };

  it("accepts a frame of exactly 4 MiB, also with \\r\\n", () => {
    const frame = frameOf(MAX_FRAME_BYTES);
    expect(Buffer.byteLength(frame)).toBe(MAX_FRAME_BYTES);
    for (const eol of ["\n", "\r\n"]) {
      const { decoder, lines, oversize } = collect();
      decoder.push(Buffer.from(frame + eol));
      expect(oversize).toEqual([]);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.length).toBe(MAX_FRAME_BYTES);
    }
  });

  it("accepts a frame of exactly 4 MiB whose \\r and \\n arrive in separate chunks", () => {
    const { decoder, lines, oversize } = collect();
    decoder.push(Buffer.from(`${frameOf(MAX_FRAME_BYTES)}\r`));
    decoder.push(Buffer.from("\n"));
    expect(oversize).toEqual([]);
    expect(lines.map((l) => l.length)).toEqual([MAX_FRAME_BYTES]);
  });

  it("rejects a frame of 4 MiB + 1 and keeps reading after it", () => {
    const { decoder, lines, oversize } = collect();
    decoder.push(Buffer.from(`${frameOf(MAX_FRAME_BYTES + 1)}\n{"type":"after"}\n`));
    expect(oversize).toHaveLength(1);
    expect(lines).toEqual(['{"type":"after"}']);
  });

  it("rejects a 100 MiB line with bounded memory", () => {
    const { decoder, lines, oversize } = collect();
    const chunk = Buffer.alloc(1024 * 1024, 0x78);
    const before = process.memoryUsage().arrayBuffers;
    let peak = 0;
    for (let i = 0; i < 100; i++) {
      decoder.push(chunk);
      peak = Math.max(peak, process.memoryUsage().arrayBuffers - before);
    }
    decoder.push(Buffer.from('\n{"type":"after"}\n'));
    expect(oversize).toHaveLength(1);
    expect(lines).toEqual(['{"type":"after"}']);
    // The decoder never holds more than one frame's worth of the line.
    expect(peak).toBeLessThan(3 * MAX_FRAME_BYTES);
  });
});

describe("framing: encoding", () => {
  it("writes compact JSON with type as the first key and a newline", () => {
    const line = encodeFrame({ id: "1", type: "tool_result", content: [] } as never);
    expect(line).toBe('{"type":"tool_result","id":"1","content":[]}\n');
  });

  it("puts type first also when the frame was built with it elsewhere", () => {
    expect(encodeFrame({ id: "x", type: "ready" } as { type: string })).toBe('{"type":"ready","id":"x"}\n');
    expect(encodeFrame({ type: "ready", id: "x" })).toBe('{"type":"ready","id":"x"}\n');
  });

  it("does not escape HTML characters", () => {
    expect(encodeFrame({ type: "notify", message: "<a & b>" })).toBe('{"type":"notify","message":"<a & b>"}\n');
  });
});
