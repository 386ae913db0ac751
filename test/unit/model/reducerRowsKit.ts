/**
 * The reducer table's rows (reducerTable.test.ts): one per RunEvent kind and per ModelAction type, each the actions
 * that build the initial state, the action under test, and what must come out. Shared with the replay test
 * (drivers/kit/replayEqualsLive.test.ts), which folds the same rows through a journaled driver and replays them.
 */
import assert from 'node:assert/strict';
import type { ModelAction, RunEvent } from '../../../extension/model/modelActions';
import type { ModelState, RunInfo } from '../../../extension/model/modelTypes';
import { emptyModelState } from '../../../extension/model/modelTypes';
import { reduce } from '../../../extension/model/reducer';

export const C = 'c';
export const K = 'c::r';
export const NOW = 5000;

export interface Row {
  readonly name: string;
  /** Applied after the base state (connection `c`, run `r` running). */
  readonly given?: readonly (ModelAction | RunEvent)[];
  readonly action: ModelAction | RunEvent;
  /** Only the listed fields are compared; `openTools` as a plain object. */
  readonly run?: Readonly<Record<string, unknown>>;
  readonly patches: readonly unknown[];
  readonly changed: boolean;
  /** Anything beyond the run (connections, change sets, identity of the state). */
  readonly check?: (after: ModelState, before: ModelState) => void;
}

export const isEvent = (a: ModelAction | RunEvent): a is RunEvent => 'kind' in a;
export const asAction = (a: ModelAction | RunEvent): ModelAction => (isEvent(a) ? { type: 'runEvent', runKey: K, event: a } : a);
const add = (item: Record<string, unknown>) => ({ op: 'add', item });
const update = (id: string, changes: Record<string, unknown>) => ({ op: 'update', id, changes });
const append = (id: string, field: 'text' | 'output', chunk: string) => ({ op: 'append', id, field, chunk });
const tool = (id: string, fields: Record<string, unknown>) => ({ id, kind: 'tool', input: null, output: '', truncated: false, status: 'running', ...fields });
const unchangedState = (after: ModelState, before: ModelState) => assert.equal(after, before, 'the same state object');

export function runFields(run: RunInfo | undefined, keys: readonly string[]): Record<string, unknown> {
  const plain: Record<string, unknown> = { ...run, openTools: run && Object.fromEntries(run.openTools) };
  return Object.fromEntries(keys.map((k) => [k, plain[k]]));
}

export function baseState(): ModelState {
  const setup: ModelAction[] = [
    { type: 'connectionAdded', connection: { id: C, name: 'demo', protocol: 'agency-proxy' } },
    { type: 'runUpserted', connectionId: C, runId: 'r', fields: { title: 'T', state: 'running', createdAt: 1 } },
  ];
  return setup.reduce((s, a) => reduce(s, a, NOW).state, emptyModelState);
}

export const eventRows: Row[] = [
  { name: 'userPrompt closes the open text and adds a user item', given: [{ kind: 'textDelta', text: 'a' }], action: { kind: 'userPrompt', text: 'hi', note: 'queued' },
    run: { itemCount: 2, openTextId: undefined }, patches: [update('x0', { streaming: false }), add({ id: 'u1', kind: 'user', text: 'hi', note: 'queued' })], changed: false },
  { name: 'textDelta opens a streaming text item', action: { kind: 'textDelta', text: 'Hel' },
    run: { itemCount: 1, openTextId: 'x0' }, patches: [add({ id: 'x0', kind: 'text', text: 'Hel', streaming: true })], changed: false },
  { name: 'textDelta appends to the open text item', given: [{ kind: 'textDelta', text: 'Hel' }], action: { kind: 'textDelta', text: 'lo' },
    run: { itemCount: 1, openTextId: 'x0' }, patches: [append('x0', 'text', 'lo')], changed: false, check: unchangedState },
  { name: 'textDelta after reasoning closes the reasoning', given: [{ kind: 'reasoningDelta', text: 'hm' }], action: { kind: 'textDelta', text: 'ok' },
    run: { itemCount: 2, openTextId: 'x1', openReasoningId: undefined }, patches: [update('r0', { streaming: false }), add({ id: 'x1', kind: 'text', text: 'ok', streaming: true })], changed: false },
  { name: 'textCompleted replaces the streamed text and closes it', given: [{ kind: 'textDelta', text: 'dra' }], action: { kind: 'textCompleted', text: 'Final' },
    run: { itemCount: 1, openTextId: undefined }, patches: [update('x0', { text: 'Final', streaming: false })], changed: false },
  { name: 'textCompleted without streamed text adds a closed item', action: { kind: 'textCompleted', text: 'Final' },
    run: { itemCount: 1, openTextId: undefined }, patches: [add({ id: 'x0', kind: 'text', text: 'Final', streaming: false })], changed: false },
  { name: 'textCompleted with empty text and nothing streamed adds nothing', action: { kind: 'textCompleted', text: '' }, run: { itemCount: 0 }, patches: [], changed: false },
  { name: 'reasoningDelta opens, then appends, and closes the open text', given: [{ kind: 'textDelta', text: 'a' }, { kind: 'reasoningDelta', text: 'x' }], action: { kind: 'reasoningDelta', text: 'y' },
    run: { itemCount: 2, openReasoningId: 'r1', openTextId: undefined }, patches: [append('r1', 'text', 'y')], changed: false },
  { name: 'messageBoundary closes the open text', given: [{ kind: 'textDelta', text: 'a' }], action: { kind: 'messageBoundary' },
    run: { openTextId: undefined, itemCount: 1 }, patches: [update('x0', { streaming: false })], changed: false },
  { name: 'messageBoundary with nothing open is a no-op', action: { kind: 'messageBoundary' }, patches: [], changed: false, check: unchangedState },
  { name: 'toolCall adds a running tool and tracks its call id', action: { kind: 'toolCall', callId: 'c1', name: 'Read', input: { file_path: 'a' } },
    run: { itemCount: 1, openTools: { c1: 't0' } }, patches: [add(tool('t0', { callId: 'c1', name: 'Read', input: { file_path: 'a' } }))], changed: false },
  { name: 'toolCall with status proposed', action: { kind: 'toolCall', callId: 'c1', name: 'Edit', input: {}, status: 'proposed' },
    patches: [add(tool('t0', { callId: 'c1', name: 'Edit', input: {}, status: 'proposed' }))], changed: false },
  { name: 'toolCall seen again refreshes name and input', given: [{ kind: 'toolCall', callId: 'c1', name: 'Read', input: 1 }], action: { kind: 'toolCall', callId: 'c1', name: 'Read2', input: 2 },
    run: { itemCount: 1, openTools: { c1: 't0' } }, patches: [update('t0', { name: 'Read2', input: 2 })], changed: false },
  { name: 'toolInputDelta shows the streamed input on the open call', given: [{ kind: 'toolCall', callId: 'c1', name: 'Bash', input: '' }], action: { kind: 'toolInputDelta', callId: 'c1', delta: '{"cmd' },
    patches: [update('t0', { input: '{"cmd' })], changed: false },
  { name: 'toolInputDelta for an unknown call adds a tool first', action: { kind: 'toolInputDelta', callId: 'c9', delta: '{' },
    run: { itemCount: 1, openTools: { c9: 't0' } }, patches: [add(tool('t0', { callId: 'c9', name: 'tool', input: '' })), update('t0', { input: '{' })], changed: false },
  { name: 'toolStarted marks a proposed call running', given: [{ kind: 'toolCall', callId: 'c1', name: 'Edit', input: {}, status: 'proposed' }], action: { kind: 'toolStarted', callId: 'c1' },
    patches: [update('t0', { status: 'running' })], changed: false },
  { name: 'toolStarted for an unknown call adds it', action: { kind: 'toolStarted', callId: 'c2', name: 'bash' },
    run: { openTools: { c2: 't0' } }, patches: [add(tool('t0', { callId: 'c2', name: 'bash' }))], changed: false },
  { name: 'toolProgress sets the progress line', given: [{ kind: 'toolStarted', callId: 'c1', name: 'bash' }], action: { kind: 'toolProgress', callId: 'c1', text: '50%' },
    patches: [update('t0', { progress: '50%' })], changed: false },
  { name: 'toolOutputDelta appends to the output', given: [{ kind: 'toolStarted', callId: 'c1', name: 'bash' }], action: { kind: 'toolOutputDelta', callId: 'c1', delta: 'line\n' },
    patches: [append('t0', 'output', 'line\n')], changed: false },
  { name: 'toolTerminals links the open call to its terminals', given: [{ kind: 'toolStarted', callId: 'c1', name: 'bash' }], action: { kind: 'toolTerminals', callId: 'c1', terminalIds: ['term-1'] },
    patches: [update('t0', { terminals: ['term-1'] })], changed: false },
  { name: 'toolTerminals of a call not open adds no row', action: { kind: 'toolTerminals', callId: 'gone', terminalIds: ['term-1'] }, patches: [], changed: false },
  { name: 'toolResult settles the open call and forgets it', given: [{ kind: 'toolCall', callId: 'c1', name: 'Read', input: 1 }, { kind: 'toolProgress', callId: 'c1', text: '1/2' }],
    action: { kind: 'toolResult', callId: 'c1', ok: true, output: 'contents' },
    run: { openTools: {}, itemCount: 1 }, patches: [update('t0', { status: 'succeeded', output: 'contents', truncated: false, progress: null })], changed: false },
  { name: 'toolResult failure keeps its error kind and truncation', given: [{ kind: 'toolCall', callId: 'c1', name: 'Bash', input: 1 }],
    action: { kind: 'toolResult', callId: 'c1', ok: false, output: 'no', truncated: true, errorKind: 'denied' },
    patches: [update('t0', { status: 'failed', output: 'no', truncated: true, progress: null, errorKind: 'denied' })], changed: false },
  { name: 'toolResult pairs an anonymous call by order', given: [{ kind: 'toolCall', callId: null, name: 'Bash', input: 1 }], action: { kind: 'toolResult', callId: null, ok: null, output: '?' },
    run: { openAnonymousToolId: undefined }, patches: [update('t0', { status: 'unknown', output: '?', truncated: false, progress: null })], changed: false },
  { name: 'toolResult for an unknown call adds a settled tool', action: { kind: 'toolResult', callId: 'ghost', ok: true, output: 'o', name: 'Grep' },
    run: { itemCount: 1, openTools: {} }, patches: [add(tool('t0', { callId: 'ghost', name: 'Grep', status: 'succeeded', output: 'o' }))], changed: false },
  { name: 'usage sets the run\'s usage in place: no row, the views refresh', action: { kind: 'usage', used: 1200, size: 200_000, cost: { amount: 0.5, currency: 'USD' } },
    run: { itemCount: 0, usage: { used: 1200, size: 200_000, cost: { amount: 0.5, currency: 'USD' } } }, patches: [], changed: true },
  { name: 'filesEdited puts the paths on the run with when: no row', action: { kind: 'filesEdited', paths: ['/w/a.ts', '/w/b.ts'], at: 42 },
    run: { itemCount: 0, reportedEdits: { '/w/a.ts': 42, '/w/b.ts': 42 } }, patches: [], changed: true },
  { name: 'filesEdited again moves a path last with its new time', given: [{ kind: 'filesEdited', paths: ['/w/a.ts', '/w/b.ts'], at: 42 }],
    action: { kind: 'filesEdited', paths: ['/w/a.ts'], at: 50 }, run: { reportedEdits: { '/w/b.ts': 42, '/w/a.ts': 50 } }, patches: [], changed: true },
  { name: 'filesEdited with the same paths and time changes nothing', given: [{ kind: 'filesEdited', paths: ['/w/a.ts'], at: 42 }],
    action: { kind: 'filesEdited', paths: ['/w/a.ts'], at: 42 }, patches: [], changed: false },
  { name: 'usage without a cost keeps the cost said before', given: [{ kind: 'usage', used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } }],
    action: { kind: 'usage', used: 20, size: 100 }, run: { usage: { used: 20, size: 100, cost: { amount: 0.5, currency: 'USD' } } }, patches: [], changed: true },
  { name: 'compaction: the first report of an id adds its row', given: [{ kind: 'textDelta', text: 'a' }], action: { kind: 'compaction', compactionId: 'c1', status: 'in_progress' },
    run: { itemCount: 2, openTextId: undefined, compactionItems: { c1: 'k1' } },
    patches: [update('x0', { streaming: false }), add({ id: 'k1', kind: 'compaction', data: { compactionId: 'c1', status: 'in_progress' }, summary: 'Compacting the context…', text: '' })], changed: false },
  { name: 'compaction: a summary chunk grows the row\'s text', given: [{ kind: 'compaction', compactionId: 'c1', status: 'in_progress' }],
    action: { kind: 'compaction', compactionId: 'c1', summaryDelta: 'Kept: the plan.' }, run: { itemCount: 1 }, patches: [append('k0', 'text', 'Kept: the plan.')], changed: false },
  { name: 'compaction: its end changes the same row (status and summary)', given: [{ kind: 'compaction', compactionId: 'c1', status: 'in_progress' }],
    action: { kind: 'compaction', compactionId: 'c1', status: 'completed', summary: 'All of it.' }, run: { itemCount: 1 },
    patches: [update('k0', { data: { compactionId: 'c1', status: 'completed' }, summary: 'Context compacted' }), update('k0', { text: 'All of it.' })], changed: false },
  { name: 'compaction: a failure says why', given: [{ kind: 'compaction', compactionId: 'c1', status: 'in_progress' }],
    action: { kind: 'compaction', compactionId: 'c1', status: 'failed', error: 'too long' }, run: { itemCount: 1 },
    patches: [update('k0', { data: { compactionId: 'c1', status: 'failed', error: 'too long' }, summary: 'Context compaction failed: too long' })], changed: false },
  { name: 'data adds an item of its kind', action: { kind: 'data', dataKind: 'usage', data: { input_tokens: 3 }, summary: '3 in' },
    run: { itemCount: 1 }, patches: [add({ id: 'd0', kind: 'usage', data: { input_tokens: 3 }, summary: '3 in' })], changed: false },
  { name: 'error closes the stream and adds an error item', given: [{ kind: 'textDelta', text: 'a' }], action: { kind: 'error', message: 'boom', code: 'internal' },
    patches: [update('x0', { streaming: false }), add({ id: 'e1', kind: 'error', message: 'boom', code: 'internal' })], changed: false },
  { name: 'notice adds a notice without closing the stream', given: [{ kind: 'textDelta', text: 'a' }], action: { kind: 'notice', text: 'reconnected', level: 'info' },
    run: { openTextId: 'x0' }, patches: [add({ id: 'n1', kind: 'notice', text: 'reconnected', level: 'info' })], changed: false },
  { name: 'stateChanged sets the state quietly', action: { kind: 'stateChanged', state: 'completed', detail: 'exit 0' },
    run: { state: 'completed', stateDetail: 'exit 0', itemCount: 0 }, patches: [], changed: true },
  { name: 'stateChanged with announce adds a notice at the matching level', action: { kind: 'stateChanged', state: 'failed', announce: true },
    run: { state: 'failed' }, patches: [add({ id: 'n0', kind: 'notice', text: 'Run failed', level: 'error', state: 'failed' })], changed: true },
  { name: 'stateChanged to canceled ends every tool call still in flight as cancelled',
    given: [{ kind: 'toolCall', callId: 'a', name: 'bash', input: null }, { kind: 'toolCall', callId: null, name: 'read', input: null }, { kind: 'toolCall', callId: 'b', name: 'ls', input: null }, { kind: 'toolResult', callId: 'b', ok: true, output: '' }],
    action: { kind: 'stateChanged', state: 'canceled' },
    run: { state: 'canceled', openTools: {}, openAnonymousToolId: undefined }, patches: [update('t0', { status: 'cancelled', progress: null }), update('t1', { status: 'cancelled', progress: null })], changed: true },
  { name: 'stateChanged to another terminal state ends open tool calls as unknown; a non-terminal one leaves them',
    given: [{ kind: 'toolCall', callId: 'a', name: 'bash', input: null }, { kind: 'stateChanged', state: 'waiting_approval' }],
    action: { kind: 'stateChanged', state: 'lost' },
    run: { state: 'lost', openTools: {} }, patches: [update('t0', { status: 'unknown', progress: null })], changed: true },
  { name: 'a cancelled turn ends its open tool calls as cancelled',
    given: [{ kind: 'toolCall', callId: 'a', name: 'bash', input: null }],
    action: { kind: 'turn', turnId: 't1', phase: 'cancelled' },
    run: { openTools: {} }, patches: [update('t0', { status: 'cancelled', progress: null }), add({ id: 'n1', kind: 'turn', turnId: 't1', phase: 'cancelled' })], changed: false },
  { name: 'turn adds a turn item', action: { kind: 'turn', turnId: 't1', phase: 'failed', code: 'step_limit', message: 'too many' },
    patches: [add({ id: 'n0', kind: 'turn', turnId: 't1', phase: 'failed', code: 'step_limit', message: 'too many' })], changed: false },
  { name: 'message adds a message item', action: { kind: 'message', from: 'ruth', body: 'hi', messageId: '4', inReplyTo: '3' },
    run: { itemCount: 1, messageItems: { 4: 'm0' } }, patches: [add({ id: 'm0', kind: 'message', from: 'ruth', body: 'hi', messageId: '4', inReplyTo: '3' })], changed: false },
  { name: 'message with an id already shown replaces that row (an upsert), adding none', given: [{ kind: 'message', from: 'another session', body: 'Hel', messageId: 'q1' }, { kind: 'textDelta', text: 'a' }],
    action: { kind: 'message', from: 'From subagent Explore', body: 'Hello', messageId: 'q1' },
    run: { itemCount: 2, messageItems: { q1: 'm0' } }, patches: [update('m0', { from: 'From subagent Explore', body: 'Hello', messageId: 'q1' })], changed: false },
  { name: 'message without an id always adds a row', given: [{ kind: 'message', from: 'ci', body: 'one' }], action: { kind: 'message', from: 'ci', body: 'one' },
    run: { itemCount: 2, messageItems: undefined }, patches: [add({ id: 'm1', kind: 'message', from: 'ci', body: 'one' })], changed: false },
  { name: 'raw adds a raw item', action: { kind: 'raw', label: 'future_event', data: { x: 1 } }, patches: [add({ id: 'w0', kind: 'raw', label: 'future_event', data: { x: 1 } })], changed: false },
  { name: 'fileCheckpoint adds a turn marker', action: { kind: 'fileCheckpoint', checkpointId: 'c2', mark: 'turn', turn: 1, files: 3, rewindable: true },
    run: { itemCount: 1, redoItemId: undefined }, patches: [add({ id: 'k0', kind: 'checkpoint', checkpointId: 'c2', mark: 'turn', rewindable: true, turn: 1, files: 3 })], changed: false },
  { name: 'a marker arriving mid-answer leaves the answer open (its snapshot ends whenever git is done)', given: [{ kind: 'textDelta', text: 'Hel' }],
    action: { kind: 'fileCheckpoint', checkpointId: 'c1', mark: 'turn', turn: 0, rewindable: true },
    run: { itemCount: 2, openTextId: 'x0' }, patches: [add({ id: 'k1', kind: 'checkpoint', checkpointId: 'c1', mark: 'turn', rewindable: true, turn: 0 })], changed: false },
  { name: 'a rewound mark offers Redo and takes it from the rewind before', given: [{ kind: 'fileCheckpoint', checkpointId: 'r3', mark: 'rewound', rewindable: false, summary: 'one' }],
    action: { kind: 'fileCheckpoint', checkpointId: 'r4', mark: 'rewound', rewindable: false, summary: 'two' },
    run: { itemCount: 2, redoItemId: 'k1' }, patches: [update('k0', { redo: false }), add({ id: 'k1', kind: 'checkpoint', checkpointId: 'r4', mark: 'rewound', rewindable: false, summary: 'two', redo: true })], changed: false },
  { name: 'a new turn marker ends the last rewind’s Redo', given: [{ kind: 'fileCheckpoint', checkpointId: 'r3', mark: 'rewound', rewindable: false }],
    action: { kind: 'fileCheckpoint', checkpointId: 'c4', mark: 'turn', turn: 2, rewindable: false, unavailable: 'No checkpoint of /x: gone' },
    run: { itemCount: 2, redoItemId: undefined }, patches: [update('k0', { redo: false }), add({ id: 'k1', kind: 'checkpoint', checkpointId: 'c4', mark: 'turn', rewindable: false, turn: 2, unavailable: 'No checkpoint of /x: gone' })], changed: false },
];

const seq = (sequence: number, event: RunEvent): ModelAction => ({ type: 'runEvent', runKey: K, sequence, event });

export const actionRows: Row[] = [
  { name: 'runEvent with the next sequence moves lastSequence', action: seq(1, { kind: 'textDelta', text: 'a' }), run: { lastSequence: 1 },
    patches: [add({ id: 'x0', kind: 'text', text: 'a', streaming: true })], changed: false },
  { name: 'runEvent at or below lastSequence is dropped', given: [seq(1, { kind: 'textDelta', text: 'a' })], action: seq(1, { kind: 'textDelta', text: 'a' }),
    run: { lastSequence: 1 }, patches: [], changed: false, check: unchangedState },
  { name: 'runEvent past a jump closes the stream and records the gap first', given: [seq(1, { kind: 'textDelta', text: 'a' })], action: seq(4, { kind: 'textDelta', text: 'b' }),
    run: { lastSequence: 4, openTextId: 'x2', itemCount: 3 },
    patches: [update('x0', { streaming: false }), add({ id: 'g1', kind: 'gap', from: 2, to: 3, reason: 'not in the daemon journal any more' }), add({ id: 'x2', kind: 'text', text: 'b', streaming: true })],
    changed: false },
  { name: 'runEvent for an unknown run is ignored', action: { type: 'runEvent', runKey: 'c::nope', event: { kind: 'raw', label: 'x', data: 1 } }, patches: [], changed: false, check: unchangedState },
  { name: 'connectionAdded creates an idle connection', action: { type: 'connectionAdded', connection: { id: 'd', name: 'D', protocol: 'scv' } }, patches: [], changed: true,
    check: (s) => assert.deepEqual(s.connections.get('d'), { id: 'd', name: 'D', protocol: 'scv', state: { kind: 'idle' }, capabilities: [] }) },
  { name: 'connectionAdded again renames and keeps the state', given: [{ type: 'connectionState', connectionId: C, state: { kind: 'connected', since: 1 } }],
    action: { type: 'connectionAdded', connection: { id: C, name: 'renamed', protocol: 'agency-proxy' } }, patches: [], changed: true,
    check: (s) => assert.deepEqual([s.connections.get(C)?.name, s.connections.get(C)?.state], ['renamed', { kind: 'connected', since: 1 }]) },
  { name: 'connectionRemoved drops its runs and change sets', given: [{ type: 'changeSet', changeSet: { runKey: K, source: 'local', status: 'capturing' } }],
    action: { type: 'connectionRemoved', connectionId: C }, patches: [], changed: true,
    check: (s) => assert.deepEqual([s.connections.size, s.runs.size, s.changeSets.size], [0, 0, 0]) },
  { name: 'connectionRemoved of an unknown connection is a no-op', action: { type: 'connectionRemoved', connectionId: 'zz' }, patches: [], changed: false, check: unchangedState },
  { name: 'connectionState replaces the state', action: { type: 'connectionState', connectionId: C, state: { kind: 'failed', reason: 'nope' } }, patches: [], changed: true,
    check: (s) => assert.deepEqual(s.connections.get(C)?.state, { kind: 'failed', reason: 'nope' }) },
  { name: 'connectionState of an unknown connection is a no-op', action: { type: 'connectionState', connectionId: 'zz', state: { kind: 'idle' } }, patches: [], changed: false, check: unchangedState },
  { name: 'connectionInfo merges only the given fields', given: [{ type: 'connectionInfo', connectionId: C, serverDescription: 'old', warning: 'w' }],
    action: { type: 'connectionInfo', connectionId: C, capabilities: ['run.start'], serverDescription: 'agency-proxy 0.3', details: { a: 1 } }, patches: [], changed: true,
    check: (s) => {
      const c = s.connections.get(C)!;
      assert.deepEqual([c.capabilities, c.serverDescription, c.details, c.warning], [['run.start'], 'agency-proxy 0.3', { a: 1 }, 'w']);
    } },
  { name: 'runUpserted creates a run with defaults', action: { type: 'runUpserted', connectionId: C, runId: 'new', fields: { provider: 'claude', model: undefined } }, patches: [], changed: true,
    check: (s) => assert.deepEqual(runFields(s.runs.get('c::new'), ['title', 'state', 'createdAt', 'lastSequence', 'provider', 'model', 'itemCount', 'pendingApprovals', 'openTools']),
      { title: 'new', state: 'starting', createdAt: NOW, lastSequence: 0, provider: 'claude', model: undefined, itemCount: 0, pendingApprovals: [], openTools: {} }) },
  { name: 'runUpserted merges into a known run, never moving lastSequence or clearing a field', given: [seq(1, { kind: 'raw', label: 'x', data: 1 })],
    action: { type: 'runUpserted', connectionId: C, runId: 'r', fields: { title: 'New title', state: undefined } },
    run: { title: 'New title', state: 'running', lastSequence: 1, itemCount: 1 }, patches: [], changed: true },
  { name: 'runUpserted to a terminal state ends open tool calls', given: [{ kind: 'toolCall', callId: 'a', name: 'bash', input: null }],
    action: { type: 'runUpserted', connectionId: C, runId: 'r', fields: { state: 'interrupted' } },
    run: { state: 'interrupted', openTools: {} }, patches: [update('t0', { status: 'unknown', progress: null })], changed: true },
  { name: 'runUpserted links a subagent to its parent run', action: { type: 'runUpserted', connectionId: C, runId: 'child', fields: { title: 'Explore', parentRunId: 'r' } }, patches: [], changed: true,
    check: (s) => assert.equal(s.runs.get('c::child')?.parentRunId, 'r') },
  { name: 'runUpserted sets the slash commands', action: { type: 'runUpserted', connectionId: C, runId: 'r', fields: { slashCommands: [{ name: 'plan', description: 'Make a plan', hint: 'what to plan' }] } },
    run: { slashCommands: [{ name: 'plan', description: 'Make a plan', hint: 'what to plan' }], title: 'T', state: 'running' }, patches: [], changed: true },
  { name: 'runUpserted replaces the slash commands whole; an empty list withdraws them', given: [{ type: 'runUpserted', connectionId: C, runId: 'r', fields: { slashCommands: [{ name: 'a', description: 'A' }, { name: 'b', description: 'B' }] } }],
    action: { type: 'runUpserted', connectionId: C, runId: 'r', fields: { slashCommands: [] } }, run: { slashCommands: [] }, patches: [], changed: true },
  { name: 'runUpserted without slash commands keeps them', given: [{ type: 'runUpserted', connectionId: C, runId: 'r', fields: { slashCommands: [{ name: 'a', description: 'A' }] } }],
    action: { type: 'runUpserted', connectionId: C, runId: 'r', fields: { title: 'Renamed', slashCommands: undefined } }, run: { slashCommands: [{ name: 'a', description: 'A' }], title: 'Renamed' }, patches: [], changed: true },
  { name: 'runRemoved drops the run and its change set', given: [{ type: 'changeSet', changeSet: { runKey: K, source: 'local', status: 'capturing' } }],
    action: { type: 'runRemoved', runKey: K }, patches: [], changed: true, check: (s) => assert.deepEqual([s.runs.has(K), s.changeSets.has(K), s.connections.has(C)], [false, false, true]) },
  { name: 'runRestored replaces the run and its approvals (not live), with no patches',
    given: [{ type: 'runEvent', runKey: K, event: { kind: 'approvalRequested', approvalId: 'old', title: 'Old', detail: null, options: ['deny'] } }],
    action: { type: 'runRestored', connectionId: C, runId: 'r', checkpoint: {
      run: { title: 'Back', state: 'idle', createdAt: 1, lastSequence: 7, pendingApprovals: ['a'], openTools: [['call', 't1']], itemCount: 2 },
      approvals: [{ approvalId: 'a', itemId: 'a1', title: 'Edit', detail: null, options: ['deny'], requestedAt: 3, status: 'pending', live: true }],
      seq: 9, items: [] } },
    run: { title: 'Back', lastSequence: 7, itemCount: 2, pendingApprovals: ['a'] }, patches: [], changed: true,
    check: (s) => {
      assert.deepEqual([...s.approvals.keys()], [`${K}::a`], 'the earlier approvals of the run are gone');
      assert.deepEqual([s.approvals.get(`${K}::a`)?.live, s.approvals.get(`${K}::a`)?.runKey, s.runs.get(K)?.openTools.get('call')], [false, K, 't1']);
    } },
  { name: 'runRemoved of an unknown run is a no-op', action: { type: 'runRemoved', runKey: 'c::zz' }, patches: [], changed: false, check: unchangedState },
  { name: 'runGap closes the stream and adds an inclusive gap', given: [seq(2, { kind: 'textDelta', text: 'a' })], action: { type: 'runGap', runKey: K, from: 2, to: 9, reason: 'acked away' },
    run: { lastSequence: 9, openTextId: undefined, itemCount: 3 },
    patches: [update('x1', { streaming: false }), add({ id: 'g2', kind: 'gap', from: 3, to: 9, reason: 'acked away' })], changed: true },
  { name: 'runGap below lastSequence keeps lastSequence', given: [seq(5, { kind: 'raw', label: 'x', data: 1 })], action: { type: 'runGap', runKey: K, from: 1, to: 3, reason: 'r' },
    run: { lastSequence: 5 }, patches: [add({ id: 'g2', kind: 'gap', from: 2, to: 3, reason: 'r' })], changed: true },
  { name: 'runGap with an empty range is a no-op', action: { type: 'runGap', runKey: K, from: 4, to: 4, reason: 'r' }, patches: [], changed: false, check: unchangedState },
  { name: 'runQueue replaces the queue and its paused flag', action: { type: 'runQueue', runKey: K, queue: [{ queueId: 'q1', revision: 1, prompt: 'next' }], paused: true },
    run: { queue: [{ queueId: 'q1', revision: 1, prompt: 'next' }], queuePaused: true }, patches: [], changed: true },
  { name: 'runPanels replaces the panels', given: [{ type: 'runPanels', runKey: K, panels: [{ id: 'a', title: 'A', entries: [] }] }],
    action: { type: 'runPanels', runKey: K, panels: [{ id: 'b', title: 'B', entries: [] }] }, run: { panels: [{ id: 'b', title: 'B', entries: [] }] }, patches: [], changed: true },
  { name: 'runPanels with merge replaces by id and appends new ones', given: [{ type: 'runPanels', runKey: K, panels: [{ id: 'a', title: 'A', entries: [] }, { id: 'b', title: 'B', entries: [] }] }],
    action: { type: 'runPanels', runKey: K, merge: true, panels: [{ id: 'b', title: 'B2', entries: [] }, { id: 'c', title: 'C', entries: [] }] },
    run: { panels: [{ id: 'a', title: 'A', entries: [] }, { id: 'b', title: 'B2', entries: [] }, { id: 'c', title: 'C', entries: [] }] }, patches: [], changed: true },
  { name: 'runsSummarized shows a stored run from its summary, not loaded', action: { type: 'runsSummarized', connectionId: C, runs: [{ runId: 'old', fields: { title: 'Old', state: 'completed', createdAt: 3 },
    summary: { itemCount: 40, lastSequence: 99, usage: { used: 5, size: 10 }, digest: { lastLine: 'done', changes: { added: 2, removed: 1 } } } }] }, patches: [], changed: true,
    check: (s) => assert.deepEqual(runFields(s.runs.get('c::old'), ['title', 'state', 'createdAt', 'itemCount', 'lastSequence', 'usage', 'unloaded']),
      { title: 'Old', state: 'completed', createdAt: 3, itemCount: 40, lastSequence: 99, usage: { used: 5, size: 10 }, unloaded: { lastLine: 'done', changes: { added: 2, removed: 1 } } }) },
  { name: 'runsSummarized never replaces a run already shown', action: { type: 'runsSummarized', connectionId: C, runs: [{ runId: 'r', fields: { title: 'Old' }, summary: { itemCount: 4, lastSequence: 9, digest: {} } }] },
    patches: [], changed: false, check: unchangedState },
  { name: 'runsSummarized brings many runs back in one pass, leaving a shown one as it is',
    action: { type: 'runsSummarized', connectionId: C, runs: [
      { runId: 'a', fields: { title: 'A', state: 'completed', createdAt: 1 }, summary: { itemCount: 1, lastSequence: 1, digest: {} } },
      { runId: 'r', fields: { title: 'Old' }, summary: { itemCount: 4, lastSequence: 9, digest: {} } },
      { runId: 'b', fields: { title: 'B', state: 'failed', createdAt: 2 }, summary: { itemCount: 2, lastSequence: 5, digest: { lastLine: 'no' } } },
    ] }, patches: [], changed: true,
    check: (s) => {
      assert.deepEqual([...s.runs.keys()], [K, 'c::a', 'c::b'], 'in the order given, after the run already shown');
      assert.deepEqual(runFields(s.runs.get('c::b'), ['title', 'state', 'itemCount', 'unloaded']), { title: 'B', state: 'failed', itemCount: 2, unloaded: { lastLine: 'no' } });
      assert.equal(s.runs.get(K)?.unloaded, undefined, 'the shown run keeps its transcript');
    } },
  { name: 'runReleased drops a finished run to its digest and its settled approvals with it',
    given: [{ kind: 'approvalRequested', approvalId: 'a', title: 'Edit', detail: null, options: ['deny'] }, { kind: 'approvalSettled', approvalId: 'a', decision: 'deny', by: 'daemon' },
      { kind: 'textDelta', text: 'x' }, { type: 'runUpserted', connectionId: C, runId: 'r', fields: { state: 'completed' } }],
    action: { type: 'runReleased', runKey: K, digest: { lastLine: 'x' } }, run: { itemCount: 2, unloaded: { lastLine: 'x' }, openTextId: undefined, state: 'completed' }, patches: [], changed: true,
    check: (s) => assert.equal(s.approvals.size, 0) },
  { name: 'runReleased keeps a run that waits for a person', given: [{ kind: 'approvalRequested', approvalId: 'a', title: 'Edit', detail: null, options: ['deny'] }],
    action: { type: 'runReleased', runKey: K, digest: {} }, patches: [], changed: false, check: unchangedState },
  { name: 'runLoading empties an unloaded run for its replay, fields kept',
    given: [{ type: 'runsSummarized', connectionId: C, runs: [{ runId: 'old', fields: { title: 'Old', state: 'completed' }, summary: { itemCount: 40, lastSequence: 99, digest: { lastLine: 'done' } } }] }],
    action: { type: 'runLoading', runKey: 'c::old' }, patches: [], changed: true,
    check: (s) => assert.deepEqual(runFields(s.runs.get('c::old'), ['title', 'state', 'itemCount', 'lastSequence', 'unloaded']), { title: 'Old', state: 'completed', itemCount: 0, lastSequence: 0, unloaded: undefined }) },
  { name: 'runLoading of a loaded run is a no-op', action: { type: 'runLoading', runKey: K }, patches: [], changed: false, check: unchangedState },
  { name: 'changeSet stores the change set of its run', action: { type: 'changeSet', changeSet: { runKey: K, source: 'daemon', status: 'ready', patch: 'diff' } }, patches: [], changed: true,
    check: (s) => assert.deepEqual(s.changeSets.get(K), { runKey: K, source: 'daemon', status: 'ready', patch: 'diff' }) },
];

