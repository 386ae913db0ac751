/**
 * The extension host never stalls (issue #25 §3), for change sets: the longest main-thread stall (bench/stallProbe.ts)
 * while a realistic 4 MiB A3S change set (bench/changeSetPatch.ts) arrives, is shown and is applied, against the
 * same probe on an idle host in the same process. The code is the extension's own, driven directly (no VS Code):
 *
 * - arrives: the HTTP body as the client gets it (bytes → text → JSON), the A3S verification (schema, strict
 *   base64, sha256), the patch into the store, the views' derivations of it (side panel, board counts) until the
 *   patch is read, the driver's cache file and the run's summary counts;
 * - shown: the webview's diff payload the host builds, and its serialisation as `postMessage` does;
 * - applied: Apply All's plan against the workspace files (read already: the fs is stubbed, as the other stall rows
 *   do) and the bytes of the edit it hands to `workspace.applyEdit`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { patchTextSliced } from '../extension/changeSets/changeSetVerification';
import type { PatchFile } from '../extension/changeSets/patchTypes';
import { saveChangeSetCache } from '../extension/drivers/a3s/a3sRunRecords';
import { readA3sChangeSet } from '../extension/drivers/a3s/changeSet';
import { changeLineCounts } from '../extension/drivers/kit/runSummaries';
import { runKeyOf } from '../extension/model/modelTypes';
import { RunStore } from '../extension/model/runStore';
import { A3S_LIMITS } from '../extension/protocol/a3s';
import { changeStatsOf } from '../extension/ui/board/boardChangeStats';
import { planChangeSetApplySliced } from '../extension/ui/changeSets/applyPlan';
import { buildChangeSetPanel } from '../extension/ui/changeSets/changeSetFiles';
import { readChangeSet } from '../extension/ui/changeSets/changeSetReading';
import { changeSetMessageSliced } from '../extension/ui/changeSets/changeSetWebview';
import { TimeSlices } from '../extension/base/timeSlices';
import { hostToWebviewSchema } from '../extension/protocol/webviewMessages';
import type { BenchRow } from './benchKit';
import { collectGarbage } from './benchKit';
import { changeSetBody } from './changeSet';
import { realisticChangeSet } from './changeSetPatch';
import type { RealisticChangeSet } from './changeSetPatch';
import { idleStalls, stallRow, stallsDuring } from './stallProbe';

const CONNECTION = 'bench-a3s';
const RUN = 'run-4mib';
const RUN_KEY = runKeyOf(CONNECTION, RUN);

interface Setup {
  readonly dir: string;
  readonly changeSet: RealisticChangeSet;
  /** The 200 response body as it comes off the socket. */
  readonly body: Buffer;
  readonly patchBytes: number;
}

let setup: Setup | undefined;

function createSetup(): Setup {
  const dir = mkdtempSync(join(tmpdir(), 'sb-csstall-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const changeSet = realisticChangeSet(A3S_LIMITS.patchBytes);
  const patch = Buffer.from(changeSet.patch, 'utf8');
  return { dir, changeSet, body: Buffer.from(JSON.stringify(changeSetBody(patch)), 'utf8'), patchBytes: patch.length };
}

function freshStore(): RunStore {
  const store = new RunStore();
  store.dispatch({ type: 'connectionAdded', connection: { id: CONNECTION, name: 'bench', protocol: 'a3s' } });
  return store;
}

export async function benchChangeSetStalls(): Promise<BenchRow[]> {
  setup ??= createSetup();
  const s = setup;
  collectGarbage();
  const idle = await idleStalls(500);

  collectGarbage();
  const store = freshStore();
  let files: readonly PatchFile[] = [];
  const arrive = await stallsDuring(async () => {
    const body: unknown = JSON.parse(s.body.toString('utf8'));
    const verified = await readA3sChangeSet(body);
    const changeSet = { source: 'daemon' as const, status: 'ready' as const, patch: await patchTextSliced(verified, new TimeSlices()), baseTree: verified.baseTree, resultTree: verified.resultTree };
    store.dispatch({ type: 'changeSet', changeSet: { runKey: RUN_KEY, ...changeSet } });
    const info = store.state.changeSets.get(RUN_KEY)!;
    // What the views derive when the store changes: the side panel and the board's counts.
    buildChangeSetPanel(info);
    changeStatsOf(info);
    const parsed = await readChangeSet(info);
    buildChangeSetPanel(info); // read: the panel of its files
    if (!parsed.ok) {
      throw new Error(parsed.error);
    }
    files = parsed.files;
    await saveChangeSetCache(s.dir, RUN, changeSet);
    changeLineCounts(info);
  });
  const info = store.state.changeSets.get(RUN_KEY)!;

  collectGarbage();
  let payloadChars = 0;
  const show = await stallsDuring(async () => {
    const message = await changeSetMessageSliced({ key: RUN_KEY, title: 'bench run' }, info, files, new TimeSlices());
    // What the transcript surface does before posting (postValidated), then postMessage's serialisation.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (!hostToWebviewSchema.safeParse(message).success) {
      throw new Error('the changeSet message does not validate');
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
    payloadChars = JSON.stringify(message).length;
  });

  collectGarbage();
  const workspace = s.changeSet.workspace;
  let operations = 0;
  let written = 0;
  const apply = await stallsDuring(async () => {
    const read = (path: string) => (workspace.has(path) ? { exists: true, text: workspace.get(path)! } : { exists: false });
    const slices = new TimeSlices();
    const plan = await planChangeSetApplySliced(files, s.changeSet.textFiles.map((index) => ({ index })), read, () => undefined, slices);
    if (!plan.ok) {
      throw new Error(`the plan failed: ${plan.problems.slice(0, 3).map((p) => `${p.path} ${p.reason}`).join('; ')}`);
    }
    operations = plan.operations.length;
    // The bytes buildEdit hands to the WorkspaceEdit (its loop awaits each document it opens).
    for (const op of plan.operations) {
      written += op.kind === 'delete' ? 0 : Buffer.from(op.kind === 'rename' ? (op.text ?? '') : op.text, 'utf8').length;
      await slices.pause();
    }
  });

  const mib = (s.patchBytes / 1048576).toFixed(2);
  const hunks = files.reduce((n, f) => n + f.hunks.length, 0);
  return [
    {
      id: 'stalls.changeSet.idle',
      name: 'Idle host: the most the main thread ran between two probe ticks in 500 ms (the baseline of the change-set rows)',
      value: idle.stallMs,
      unit: 'ms',
      met: null,
      note: `wall: longest gap ${idle.maxGapMs.toFixed(0)} ms; monitorEventLoopDelay max ${idle.loopDelayMaxMs.toFixed(1)} ms; probe: a 1 ms timer chain (bench/stallProbe.ts)`,
    },
    stallRow('stalls.changeSet.arrive', `Stall while a ${mib} MiB change set arrives (${files.length} files, ${hunks} hunks)`, arrive, idle, `${(s.body.length / 1048576).toFixed(2)} MiB body → JSON, verify (schema, strict base64, sha256), UTF-8, store, panel + board counts, parse, cache file, summary counts`),
    stallRow('stalls.changeSet.show', 'Stall while its diff is shown in the transcript', show, idle, `the changeSet message the host builds (${(payloadChars / 1048576).toFixed(2)} MiB as JSON) and its serialisation`),
    stallRow('stalls.changeSet.apply', `Stall while it is applied (${s.changeSet.textFiles.length} files)`, apply, idle, `Apply All's plan of ${operations} operations against the workspace files (read already), ${(written / 1048576).toFixed(1)} MiB of edit bytes`),
  ];
}
