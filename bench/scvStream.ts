/**
 * A recorded SCV protocol-3 session, generated deterministically: turns of streamed `assistant.delta` chunks and
 * their canonical `assistant.completed`, tool calls (proposed → started → progress → completed) and turn ends with
 * usage — one NDJSON line per event, consecutive `seq`.
 */
import { prng, prose, randInt } from './benchKit';

export const BENCH_SESSION_ID = 'bench-session';

export function scvEvents(count: number, seed = 2): Record<string, unknown>[] {
  const random = prng(seed);
  const events: Record<string, unknown>[] = [];
  let seq = 0;
  let turn = 0;
  let call = 0;
  while (events.length < count) {
    turn += 1;
    const base = { request_id: `r${turn}`, session_id: BENCH_SESSION_ID, turn_id: `t${turn}` };
    const push = (type: string, fields: Record<string, unknown> = {}): void => {
      seq += 1;
      events.push({ type, ...base, seq, ...fields });
    };
    push('turn.started');
    for (let step = randInt(random, 1, 3); step > 0; step--) {
      let text = '';
      for (let i = randInt(random, 20, 150); i > 0; i--) {
        const chunk = prose(random, randInt(random, 2, 40));
        text += chunk;
        push('assistant.delta', { content: chunk });
      }
      push('assistant.completed', { content: text });
      if (random() < 0.7) {
        call += 1;
        const callId = `call_${call}`;
        push('tool.proposed', { call_id: callId, name: 'bash', arguments: { command: prose(random, 30) } });
        push('tool.started', { call_id: callId, name: 'bash' });
        for (let i = randInt(random, 0, 4); i > 0; i--) {
          push('tool.progress', { call_id: callId, text: prose(random, 20) });
        }
        push('tool.completed', { call_id: callId, name: 'bash', success: random() < 0.9, output: prose(random, randInt(random, 40, 1500)), truncated: false });
      }
    }
    push('turn.completed', { steps: 2, usage: { input_tokens: randInt(random, 100, 90_000), output_tokens: randInt(random, 10, 4000) } });
  }
  return events.slice(0, count);
}

/** The events as NDJSON, cut into socket-sized reads (lines straddle reads). */
export function ndjsonReads(events: readonly unknown[], readBytes = 65_536): Buffer[] {
  const whole = Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
  const reads: Buffer[] = [];
  for (let offset = 0; offset < whole.length; offset += readBytes) {
    reads.push(whole.subarray(offset, offset + readBytes));
  }
  return reads;
}
