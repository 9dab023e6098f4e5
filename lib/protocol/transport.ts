// What the request layer needs from a connection between zot and an extension, on either end:
// send one frame, hand what is read to one receiver, close with a reason. Requests ride on top:
// the owner of a transport opens them in PendingRequests and settles them from its receiver.

/** A frame as it is sent: `type` first on the wire (see encodeFrame), any other fields. */
export type OutgoingFrame = { type: string } & Record<string, unknown>;

export interface FrameTransport<Out extends OutgoingFrame = OutgoingFrame> {
  /** Sends one frame; false when it was not sent (the transport is closed, or the frame cannot go). */
  send(frame: Out): boolean;
  /** Ends the transport; its pending requests settle as closed with `reason`. */
  close(reason: string): void;
  readonly closed: boolean;
}

/** Where a transport hands what it read, in arrival order. */
export interface FrameReceiver<In> {
  onFrame(frame: In): void;
}
