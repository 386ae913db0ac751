/** The last line of a run's output: from the newest item that says something, read from the end only. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lastLine, lastOutputLine } from '../../../extension/model/lastOutputLine';
import type { TranscriptItem } from '../../../extension/protocol/transcriptTypes';

function tail(items: readonly TranscriptItem[]) {
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    length: items.length,
    at(i: number) {
      reads++;
      return items[i];
    },
  };
}

const text = (id: string, t: string): TranscriptItem => ({ id, kind: 'text', text: t, streaming: false });

test('the last non-empty line of the newest text, whitespace collapsed', () => {
  assert.equal(lastOutputLine(tail([text('1', 'old'), text('2', 'Plan:\n\n  read   the README  \n\n')])), 'read the README');
});

test('a closing code fence or a rule is skipped for the line above it', () => {
  assert.equal(lastOutputLine(tail([text('1', '```ts\nconst x = 1;\n```\n')])), 'const x = 1;');
  assert.equal(lastLine('Done.\n---\n'), 'Done.');
});

test('items that say nothing are skipped; tools, approvals, errors and the user say what they are', () => {
  const usage: TranscriptItem = { id: 'u', kind: 'usage', data: {}, summary: '12 tokens' };
  const tool: TranscriptItem = { id: 't', kind: 'tool', callId: 'c', name: 'Bash', input: {}, status: 'running', output: 'line 1\nline 2\n', truncated: false };
  assert.equal(lastOutputLine(tail([tool, usage])), 'Bash: line 2');
  const silentTool: TranscriptItem = { ...tool, output: '' };
  assert.equal(lastOutputLine(tail([silentTool])), 'Bash');
  const approval: TranscriptItem = { id: 'a', kind: 'approval', approvalId: 'ap', title: 'Edit', detail: {}, summary: 'Edit README.md', options: [], status: 'pending', hasDiff: false };
  assert.equal(lastOutputLine(tail([approval])), 'Approval: Edit README.md');
  assert.equal(lastOutputLine(tail([{ id: 'e', kind: 'error', message: 'boom' }])), 'boom');
  const ended: TranscriptItem = { id: 'n', kind: 'notice', text: 'Run completed', level: 'info', state: 'completed' };
  assert.equal(lastOutputLine(tail([text('1', 'All done.'), ended])), 'All done.', 'a state notice is the icon\'s to say');
  assert.equal(lastOutputLine(tail([{ id: 'n2', kind: 'notice', text: 'Reconnected', level: 'info' }])), 'Reconnected');
  assert.equal(lastOutputLine(tail([{ id: 'p', kind: 'user', text: 'do it\n' }])), 'You: do it');
  assert.equal(lastOutputLine(tail([{ id: 'r', kind: 'reasoning', text: 'hmm', streaming: false }])), undefined);
  assert.equal(lastOutputLine(undefined), undefined);
  assert.equal(lastOutputLine(tail([])), undefined);
});

test('the cost is bounded: a few items from the end, the tail of a long text, a shortened line', () => {
  const quiet: TranscriptItem[] = Array.from({ length: 1000 }, (_, i) => ({ id: `g${i}`, kind: 'gap', from: i, to: i, reason: 'x' }));
  const t = tail([text('first', 'never reached'), ...quiet]);
  assert.equal(lastOutputLine(t), undefined);
  assert.ok(t.reads <= 16, `read ${t.reads} items`);
  const long = `${'a'.repeat(1_000_000)}\nlast`;
  assert.equal(lastLine(long), 'last');
  const wide = lastLine('x'.repeat(500))!;
  assert.equal(wide.length, 200);
  assert.ok(wide.endsWith('…'));
});

test('an approval reads "Approval:" only while it waits; a settled or expired one says how it ended', () => {
  const approval: TranscriptItem = { id: 'a', kind: 'approval', approvalId: 'ap', title: 'Edit', detail: {}, options: ['allow_once', 'deny'], status: 'pending', hasDiff: false };
  assert.equal(lastOutputLine(tail([{ ...approval, status: 'deciding', decision: 'allow_once' }])), 'Approval: Edit');
  assert.equal(lastOutputLine(tail([{ ...approval, status: 'expired', reason: 'The daemon no longer knows this run.' }])), 'Approval expired: Edit');
  assert.equal(lastOutputLine(tail([{ ...approval, status: 'decided', decision: 'allow_once' }])), 'Allowed: Edit');
  assert.equal(lastOutputLine(tail([{ ...approval, status: 'decided', decision: 'deny' }])), 'Denied: Edit');
});
