// PendingRequests: the request/response correlation shared by the host, the SDK's callTool and
// the zot ext test checker.
import { describe, expect, it } from "vitest";
import { PendingRequests, type Settlement } from "../../lib/protocol/index.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("PendingRequests ids", () => {
  it("allocates fresh ids from one counter, with an optional label", () => {
    const requests = new PendingRequests<string>({ idPrefix: "zot" });
    expect([requests.newId(), requests.newId("tool"), requests.newId("intercept")]).toEqual(["zot-1", "zot-tool-2", "zot-intercept-3"]);
    expect(requests.open({}).id).toBe("zot-4");
  });

  it("uses a caller-given id and refuses one that is still pending", () => {
    const requests = new PendingRequests<string>();
    const first = requests.open({ id: "c1" });
    expect(first.id).toBe("c1");
    expect(() => requests.open({ id: "c1" })).toThrow(/"c1" is already pending/);
    requests.resolve("c1", "done");
    expect(requests.open({ id: "c1" }).done).toBe(false); // settled ids may be used again
  });
});

describe("PendingRequests replies", () => {
  it("settles a request with its reply and keeps the caller's meta", async () => {
    const requests = new PendingRequests<string, { replyType: string }>();
    const request = requests.open({ id: "a", meta: { replyType: "tool_result" } });
    expect(requests.get("a")?.meta).toEqual({ replyType: "tool_result" });
    expect(requests.resolve("a", "reply")).toBe(true);
    expect(await request.settled).toEqual({ ok: true, reply: "reply" });
    expect(request.done).toBe(true);
    expect(requests.size).toBe(0);
  });

  it("ignores a late reply and reports it by returning false", async () => {
    const requests = new PendingRequests<string>();
    const request = requests.open({ id: "a", timeoutMs: 10 });
    expect((await request.settled).ok).toBe(false);
    expect(requests.resolve("a", "too late")).toBe(false);
    expect(requests.resolve("never-asked", "stray")).toBe(false);
    expect(request.resolve("too late")).toBe(false);
    expect(await request.settled).toMatchObject({ ok: false, reason: "timeout" });
  });

  it("fails a request on the caller's word, once", async () => {
    const requests = new PendingRequests<string>();
    const request = requests.open({ id: "a" });
    expect(requests.fail("a", "failed", "invalid tool_result")).toBe(true);
    expect(requests.fail("a", "failed", "again")).toBe(false);
    expect(await request.settled).toEqual({ ok: false, reason: "failed", message: "invalid tool_result" });
  });
});

describe("PendingRequests deadlines", () => {
  it("times out after the request's own deadline", async () => {
    const requests = new PendingRequests<string>();
    const started = Date.now();
    const settlement = await requests.open({ timeoutMs: 30 }).settled;
    expect(settlement).toEqual({ ok: false, reason: "timeout", message: "no reply within 30 ms" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it("waits without a deadline when timeoutMs is null", async () => {
    const requests = new PendingRequests<string>();
    const request = requests.open({ id: "a", timeoutMs: null });
    await sleep(40);
    expect(request.done).toBe(false);
    requests.resolve("a", "late but wanted");
    expect(await request.settled).toEqual({ ok: true, reply: "late but wanted" });
  });

  it("starts a deferred deadline only when told", async () => {
    const requests = new PendingRequests<string>();
    const request = requests.open({ timeoutMs: 10, deferDeadline: true });
    await sleep(40);
    expect(request.done).toBe(false);
    request.startDeadline();
    expect(await request.settled).toMatchObject({ ok: false, reason: "timeout" });
  });
});

describe("PendingRequests cancellation", () => {
  it("settles as aborted when the signal fires, with the signal's reason as cause", async () => {
    const requests = new PendingRequests<string>();
    const controller = new AbortController();
    const request = requests.open({ id: "a", signal: controller.signal, timeoutMs: 5_000 });
    const why = new Error("user pressed Esc");
    controller.abort(why);
    expect(await request.settled).toEqual({ ok: false, reason: "aborted", message: "cancelled", cause: why });
    expect(requests.get("a")).toBeUndefined();
  });

  it("comes back aborted at once for a signal that already fired", () => {
    const requests = new PendingRequests<string>();
    const request = requests.open({ id: "a", signal: AbortSignal.abort() });
    expect(request.done).toBe(true);
    expect(requests.size).toBe(0);
  });

  it("runs onSettle synchronously as the request settles, exactly once", () => {
    const requests = new PendingRequests<string>();
    const seen: Settlement<string>[] = [];
    const controller = new AbortController();
    requests.open({ id: "a", signal: controller.signal, onSettle: (s) => seen.push(s) });
    controller.abort();
    expect(seen).toMatchObject([{ ok: false, reason: "aborted" }]);
    requests.resolve("a", "late");
    expect(seen).toHaveLength(1);
  });
});

describe("PendingRequests close", () => {
  it("settles everything pending with the reason, and every later request at once", async () => {
    const requests = new PendingRequests<string>();
    const a = requests.open({ timeoutMs: 5_000 });
    const b = requests.open({ timeoutMs: null });
    requests.close("the extension exited");
    requests.close("a second reason is ignored");
    const closed = { ok: false, reason: "closed", message: "the extension exited" };
    expect(await a.settled).toEqual(closed);
    expect(await b.settled).toEqual(closed);
    expect(requests.closed).toBe(true);
    expect(requests.closedReason).toBe("the extension exited");
    const later = requests.open({ signal: AbortSignal.abort() });
    expect(later.done).toBe(true);
    expect(await later.settled).toEqual(closed); // closed takes precedence over aborted
  });

  it("requests sharing a signal each settle aborted when it fires, and one already answered stays answered", async () => {
    const requests = new PendingRequests<string>();
    const controller = new AbortController();
    const answered = requests.open({ id: "a", signal: controller.signal });
    const waiting = [requests.open({ id: "b", signal: controller.signal }), requests.open({ id: "c", signal: controller.signal })];
    expect(answered.resolve("reply")).toBe(true);
    const late = requests.open({ id: "d", signal: controller.signal });
    controller.abort("stop");
    expect(await answered.settled).toEqual({ ok: true, reply: "reply" });
    for (const request of [...waiting, late]) {
      expect(await request.settled).toEqual({ ok: false, reason: "aborted", message: "cancelled", cause: "stop" });
    }
    expect(requests.size).toBe(0);
    // The signal has fired: a request opened on it now comes back aborted at once.
    expect(requests.open({ id: "e", signal: controller.signal }).done).toBe(true);
  });
});

