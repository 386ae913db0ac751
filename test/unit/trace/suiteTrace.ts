/**
 * The unit and chaos tiers' share of the protocol trace (issue 13 §4): when SWITCHBOARD_TRACE_FILE is set, the test
 * kits that build drivers and clients add this tap, so every frame a test exchanges with a reference daemon is
 * appended to that file by the product's own ProtocolTrace (same line format, same redaction as the extension).
 * Connection names get a `unit:` prefix so they never collide with the integration suites' connection names,
 * whose tests read the same kind of file.
 */
import type { FrameTap } from '../../../extension/transport/frameTap';
import { combineTaps, ProtocolTrace } from '../../../extension/transport/protocolTrace';
import type { TraceProtocol } from '../../../extension/transport/protocolTrace';

let trace: ProtocolTrace | undefined;

function suiteTrace(): ProtocolTrace | undefined {
  const file = process.env.SWITCHBOARD_TRACE_FILE;
  if (!file) {
    return undefined;
  }
  if (trace?.file !== file) {
    // A broken trace file must be visible in the test output, but it must not fail the test that happened to write.
    trace = new ProtocolTrace(file, (error) => console.error(`suite trace ${file}: ${String(error)}`));
  }
  return trace;
}

/**
 * `tap` plus the suite trace when it is enabled (else `tap` itself, or undefined when neither). Pass the test's
 * own recording tap, if any, as `tap`: the test still sees exactly the frames it saw before.
 */
export function withSuiteTrace(protocol: TraceProtocol, connection: string, tap: FrameTap): FrameTap;
export function withSuiteTrace(protocol: TraceProtocol, connection: string, tap?: FrameTap): FrameTap | undefined;
export function withSuiteTrace(protocol: TraceProtocol, connection: string, tap?: FrameTap): FrameTap | undefined {
  const active = suiteTrace();
  if (!active) {
    return tap;
  }
  return combineTaps(active.tap(protocol, `unit:${connection}`), tap);
}

/** Resolves when every trace line written so far is on disk (for tests that read the trace back). */
export function flushSuiteTrace(): Promise<void> {
  return trace?.flush() ?? Promise.resolve();
}
