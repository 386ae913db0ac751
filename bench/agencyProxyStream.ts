/**
 * A recorded AgencyProxy event stream, generated deterministically: turns of reasoning chunks, many small text
 * chunks (markdown), tool calls with their results, usage and message boundaries — the mix a `claude` run sends.
 */
import { encodeJsonFrame } from '../extension/transport/lengthPrefixed';
import { prng, prose, randInt } from './benchKit';

export const BENCH_RUN_ID = 'bench-run';

/** `count` event frames (sequence 1..count) as JSON values. */
export function agencyProxyFrames(count: number, seed = 1): Record<string, unknown>[] {
  const random = prng(seed);
  const frames: Record<string, unknown>[] = [];
  let sequence = 0;
  let tool = 0;
  const push = (type: string, payload?: unknown): void => {
    sequence += 1;
    const event = payload === undefined ? { type } : { type, payload };
    frames.push({ kind: 'event', run_id: BENCH_RUN_ID, sequence, event });
  };
  push('session_opened', { provider_session_id: 'sess-bench', model: 'sonnet' });
  while (frames.length < count) {
    for (let i = randInt(random, 3, 15); i > 0; i--) {
      push('reasoning', prose(random, randInt(random, 8, 60)));
    }
    for (let i = randInt(random, 20, 150); i > 0; i--) {
      push('text', prose(random, randInt(random, 2, 40)));
    }
    if (random() < 0.7) {
      tool += 1;
      const id = `toolu_${tool}`;
      push('tool_call', { id, name: random() < 0.5 ? 'Read' : 'Bash', input: { file_path: `/work/src/file${tool}.ts`, command: prose(random, 30) } });
      push('tool_result', { id, ok: random() < 0.9, output: prose(random, randInt(random, 40, 1500)) });
    }
    push('usage', { input_tokens: randInt(random, 100, 90_000), output_tokens: randInt(random, 10, 4000), cache_read_input_tokens: 800 });
    push('message_boundary');
  }
  return frames.slice(0, count);
}

/** The frames encoded as length-prefixed Text frames, cut into socket-sized reads (frames straddle reads). */
export function encodeAsReads(frames: readonly unknown[], readBytes = 65_536): Buffer[] {
  const whole = Buffer.concat(frames.map((f) => encodeJsonFrame(f)));
  const reads: Buffer[] = [];
  for (let offset = 0; offset < whole.length; offset += readBytes) {
    reads.push(whole.subarray(offset, offset + readBytes));
  }
  return reads;
}
