/**
 * *Continue from here* (ui/checkpoints/checkpointContinuations.ts, issue #26): the order (the message first, then the
 * rewind, then the run: cancelling one step does nothing after it), which way the conversation goes (quoted in a New
 * Run's first message from an earlier turn; the agent's own *Fork Run* from the newest turn, where it has one), and
 * the reasons it refuses. Runs under the bench's vscode stub with recording stand-ins for the rewind, New Run, the
 * daemon action and the send.
 */
import assert from 'node:assert/strict';
import Module from 'node:module';
import { after, before, test } from 'node:test';
import { createVscodeStub } from '../../../bench/vscodeStub';
import type { FileCheckpoint } from '../../../extension/changeSets/fileCheckpointRecords';
import type { ConnectionManager } from '../../../extension/drivers/connectionManager';
import { DEFAULT_CONTINUATION, EARLIER_CONVERSATION_TAG } from '../../../extension/model/earlierConversation';
import type { RunEvent } from '../../../extension/model/modelActions';
import type { Capability } from '../../../extension/model/modelTypes';
import { runKeyOf } from '../../../extension/model/modelTypes';
import { RunStore } from '../../../extension/model/runStore';
import type * as ContinuationsModule from '../../../extension/ui/checkpoints/checkpointContinuations';
import type { FileRewinds, RewindResult } from '../../../extension/ui/checkpoints/fileRewinds';
import type { FirstMessageDraft } from '../../../extension/ui/checkpoints/firstMessageEditor';
import type { NewRunArgs } from '../../../extension/ui/commands/newRunPrompts';

type ModuleLoader = { _load(request: string, parent: unknown, isMain: boolean): unknown };

const { api: stub } = createVscodeStub({});
const shown: string[] = [];
(stub.window as Record<string, unknown>).showInformationMessage = (message: string) => (shown.push(message), Promise.resolve(undefined));
const loader = Module as unknown as ModuleLoader;
const originalLoad = loader._load;
let module: typeof ContinuationsModule;

before(async () => {
  loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
    return request === 'vscode' ? stub : originalLoad.call(this, request, parent, isMain);
  };
  module = await import('../../../extension/ui/checkpoints/checkpointContinuations');
});
after(() => {
  loader._load = originalLoad;
});

const RUN = runKeyOf('acp:Ref', 's1');
const checkpoint = (id: string, turn: number): FileCheckpoint => ({ id, kind: 'turn', turn, at: 1, trees: [{ top: '/w', tree: 'a'.repeat(40) }] as never, unavailable: [] });

interface Options {
  readonly facts?: readonly string[];
  readonly capabilities?: readonly Capability[];
  readonly checkpoints?: boolean;
  readonly message?: string | undefined;
  readonly rewind?: RewindResult;
  readonly newRunKey?: string | undefined;
}

/** A connected ACP run of two turns (markers c1, c2 after them), and the steps it records. */
function setUp(options: Options = {}) {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: 'acp:Ref', name: 'Ref agent', protocol: 'acp' } });
  store.dispatch({ type: 'connectionState', connectionId: 'acp:Ref', state: { kind: 'connected', since: 1 } });
  store.dispatch({ type: 'connectionInfo', connectionId: 'acp:Ref', capabilities: options.capabilities ?? ['run.start'] });
  store.dispatch({ type: 'runUpserted', connectionId: 'acp:Ref', runId: 's1', fields: { title: 'Fix <the> readme', state: 'idle', workspaceRoots: ['/w'] } });
  const event = (e: RunEvent): void => store.dispatch({ type: 'runEvent', runKey: RUN, event: e });
  event({ kind: 'fileCheckpoint', checkpointId: 'c0', mark: 'turn', turn: 0, rewindable: true });
  event({ kind: 'userPrompt', text: 'first prompt' });
  event({ kind: 'textDelta', text: 'first answer' });
  event({ kind: 'turn', turnId: 't1', phase: 'completed' });
  event({ kind: 'fileCheckpoint', checkpointId: 'c1', mark: 'turn', turn: 1, rewindable: true });
  event({ kind: 'userPrompt', text: 'second prompt' });
  event({ kind: 'textDelta', text: 'second answer' });
  event({ kind: 'turn', turnId: 't2', phase: 'completed' });
  event({ kind: 'fileCheckpoint', checkpointId: 'c2', mark: 'turn', turn: 2, rewindable: true });
  const steps: string[] = [];
  const drafts: FirstMessageDraft[] = [];
  const history = [checkpoint('c0', 0), checkpoint('c1', 1), checkpoint('c2', 2)];
  const source = { store: { list: () => Promise.resolve(history) } };
  const rewinds = {
    checkpointsOf: () => {
      if (options.checkpoints === false) {
        throw new Error('hyperhive keeps no file checkpoints here');
      }
      return source;
    },
    rewind: (_: string, id: string) => (steps.push(`rewind ${id}`), Promise.resolve(options.rewind ?? { status: 'rewound', rewindId: 'r3', restored: 1, kept: [], failures: [] })),
  } as unknown as FileRewinds;
  const driver = { actionFacts: (runId?: string) => (runId === undefined ? [] : (options.facts ?? [])) };
  const connections = { driver: () => driver } as unknown as ConnectionManager;
  const newRuns: NewRunArgs[] = [];
  const continuations = new module.CheckpointContinuations({
    store,
    connections,
    residency: { ensureLoaded: () => Promise.resolve() },
    rewinds,
    editFirstMessage: () => (draft) => {
      steps.push('message');
      drafts.push(draft);
      return Promise.resolve('message' in options ? options.message : `${draft.draft}!`);
    },
    newRun: (args) => (steps.push('new run'), newRuns.push(args), Promise.resolve('newRunKey' in options ? options.newRunKey : 'acp:Ref/s9')),
    runAction: (command, runKey, answers) => (steps.push(`action ${command} ${runKey}${answers ? ` ${JSON.stringify(answers)}` : ''}`), Promise.resolve('acp:Ref/fork')),
    send: (runKey, text) => (steps.push(`send ${runKey} ${text}`), Promise.resolve(true)),
  });
  shown.length = 0;
  return { continuations, steps, drafts, newRuns };
}

test('from an earlier turn: the conversation up to it quoted in the first message, then the rewind, then New Run in the run’s folders', async () => {
  const { continuations, steps, drafts, newRuns } = setUp({ facts: ['fork'] });
  const result = await continuations.continueFrom(RUN, 'c1', { model: 'ref-small' });
  assert.deepEqual(result, { status: 'started', runKey: 'acp:Ref/s9', rewind: 'rewound', carriedBy: 'message' });
  assert.deepEqual(steps, ['message', 'rewind c1', 'new run']);
  const draft = drafts[0]!;
  assert.equal(draft.carriedBy, 'message');
  assert.equal(draft.upTo, 'turn 1');
  assert.ok(draft.draft.includes('<user>\nfirst prompt\n</user>') && draft.draft.includes('<agent>\nfirst answer\n</agent>'));
  assert.ok(!draft.draft.includes('second'), 'only up to turn 1');
  assert.ok(draft.draft.includes(`<${EARLIER_CONVERSATION_TAG} run="Fix &lt;the&gt; readme" up-to="turn 1">`));
  assert.deepEqual(newRuns, [{ model: 'ref-small', connectionId: 'acp:Ref', prompt: `${draft.draft}!`, workspaceRoots: ['/w'], worktree: false }]);
});

test('from the newest turn of an agent that forks: its own Fork Run, then the message only; no New Run', async () => {
  const { continuations, steps, drafts, newRuns } = setUp({ facts: ['fork'], message: 'Go on.' });
  const result = await continuations.continueFrom(RUN, 'c2');
  assert.deepEqual(result, { status: 'started', runKey: 'acp:Ref/fork', rewind: 'rewound', carriedBy: 'agent' });
  assert.deepEqual(steps, ['message', 'rewind c2', `action agentSwitchboard.acp.forkRun ${RUN}`, 'send acp:Ref/fork Go on.']);
  assert.deepEqual({ ...drafts[0], runTitle: undefined }, { runTitle: undefined, upTo: 'turn 2', draft: DEFAULT_CONTINUATION, carriedBy: 'agent', how: 'Fork Run' });
  assert.deepEqual(newRuns, []);
});

test('from the newest turn of an agent that cannot fork: the quoted conversation and New Run', async () => {
  const { continuations, steps, drafts } = setUp({ facts: [] });
  assert.equal((await continuations.continueFrom(RUN, 'c2')).status, 'started');
  assert.deepEqual(steps, ['message', 'rewind c2', 'new run']);
  assert.ok(drafts[0]!.draft.includes('second prompt'));
});

test('cancelling the message changes nothing; declining the rewind starts nothing; a cancelled New Run leaves the rewind with Redo', async () => {
  const cancelled = setUp({ message: undefined });
  assert.deepEqual(await cancelled.continuations.continueFrom(RUN, 'c1'), { status: 'not asked' });
  assert.deepEqual(cancelled.steps, ['message']);

  const declined = setUp({ rewind: { status: 'not asked' } });
  assert.deepEqual(await declined.continuations.continueFrom(RUN, 'c1'), { status: 'not rewound', rewind: { status: 'not asked' } });
  assert.deepEqual(declined.steps, ['message', 'rewind c1']);

  const noRun = setUp({ newRunKey: undefined });
  assert.deepEqual(await noRun.continuations.continueFrom(RUN, 'c1'), { status: 'not started', rewind: 'rewound' });
  assert.match(shown[0]!, /No new run was started\. The files of “Fix <the> readme” stay rewound to turn 1: Redo on the rewind’s marker puts them back\./);

  const nothingToRewind = setUp({ rewind: { status: 'nothing to do' } });
  assert.equal((await nothingToRewind.continuations.continueFrom(RUN, 'c1')).status, 'started', 'the files are already there: the run still starts');
});

test('refused with the reason: no checkpoints here (hyperhive) first, a connection that starts no runs, an unknown checkpoint', async () => {
  await assert.rejects(setUp({ checkpoints: false, capabilities: [] }).continuations.continueFrom(RUN, 'c1'), /hyperhive keeps no file checkpoints here/);
  const noStart = setUp({ capabilities: [] });
  await assert.rejects(noStart.continuations.continueFrom(RUN, 'c1'), /“Fix <the> readme” cannot continue in a new run: Ref agent does not start runs from the editor/);
  assert.deepEqual(noStart.steps, [], 'nothing asked, nothing rewound');
  await assert.rejects(setUp().continuations.continueFrom(RUN, 'c7'), /That checkpoint of “Fix <the> readme” is no longer kept\./);
});
