/**
 * Every transport reports each frame it sends or receives through a FrameTap, so the protocol trace
 * (SWITCHBOARD_TRACE_FILE / agentSwitchboard.trace.file) sees the exact JSON values on the wire.
 */
export type FrameDirection = 'in' | 'out';

export interface HttpTraceInfo {
  readonly method: string;
  readonly path: string;
  /** Present on responses. */
  readonly status?: number;
}

export type FrameTap = (dir: FrameDirection, frame: unknown, http?: HttpTraceInfo) => void;

export const noFrameTap: FrameTap = () => undefined;

/** Calls `tap`, ignoring anything it throws: tracing must never change what a connection or request does. */
export function tapSafely(tap: FrameTap, dir: FrameDirection, frame: unknown, http?: HttpTraceInfo): void {
  try {
    tap(dir, frame, http);
  } catch {
    // ignored on purpose
  }
}
