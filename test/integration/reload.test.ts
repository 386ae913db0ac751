/**
 * A window reload with three live runs. Phase 1 (one VS Code window) starts three long runs on a daemon that lives
 * outside VS Code and leaves while they stream; phase 2 (a new window on the same profile) must show the runs from
 * storage, re-attach all three after what it stored, and end with transcripts equal to the daemon's journal: no
 * event lost, none doubled. The runner (test/harness/runIntegration.mjs) launches the two phases.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { api, screenshot, setConnections, waitFor } from './support';

const CONNECTION = 'agency-proxy:Reload daemon';
const TITLES = ['reload run 1', 'reload run 2', 'reload run 3'];

function env(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is set by the integration runner for the reload suites`);
  }
  return value;
}

/** The daemon's own journal: every event of every run, in sequence order. */
function daemonJournal(runId: string): { type: string; payload?: unknown }[] {
  const events: { type: string; payload?: unknown }[] = [];
  for (const line of fs.readFileSync(path.join(env('SWITCHBOARD_RELOAD_STATE'), 'journal.ndjson'), 'utf8').split('\n')) {
    if (!line.trim()) {
      continue;
    }
    const record = JSON.parse(line) as { t: string; runId?: string; sequence?: number; event?: { type: string; payload?: unknown } };
    if (record.t === 'event' && record.runId === runId && record.sequence === events.length + 1 && record.event) {
      events.push(record.event);
    }
  }
  return events;
}

suite('Reload phase 1', () => {
  test('three long runs start streaming, then the window goes away', async function () {
    this.timeout(120000);
    const a = await api();
    await setConnections([{ name: 'Reload daemon', protocol: 'agency-proxy', socketPath: env('SWITCHBOARD_RELOAD_SOCKET') }]);
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
    const keys: string[] = [];
    for (const title of TITLES) {
      const key = vscode.commands.executeCommand('agentSwitchboard.newRun', {
        connectionId: CONNECTION,
        provider: 'claude',
        model: '',
        permission: 'read_only',
        prompt: `${title} long:1500 slow notools`,
        approvals: false,
        interactive: false,
      });
      keys.push((await key) as string);
    }
    for (const key of keys) {
      await waitFor(`${key} streaming`, () => (a.store.state.runs.get(key)?.lastSequence ?? 0) > 40, 60000);
    }
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', keys[0]);
    await screenshot('reload-phase1.png');
  });
});

suite('Reload phase 2', () => {
  test('after the reload every run is re-attached and its transcript equals the daemon journal', async function () {
    this.timeout(240000);
    const a = await api();
    const runs = await waitFor('the three runs, restored from storage', () => {
      const found = [...a.store.state.runs.values()].filter((r) => r.connectionId === CONNECTION);
      return found.length === 3 && found;
    });
    await waitFor('connected', () => a.store.state.connections.get(CONNECTION)?.state.kind === 'connected', 30000);
    for (const run of runs) {
      await waitFor(`${run.title} completed`, () => a.store.state.runs.get(run.key)?.state === 'completed', 180000);
    }
    await vscode.commands.executeCommand('agentSwitchboard.showTranscript', runs[0]!.key);
    await screenshot('reload-phase2.png');
    // Each run was re-attached after what this window restored from storage (not replayed from the start).
    await a.flushTrace();
    const attaches = fs
      .readFileSync(env('SWITCHBOARD_TRACE_FILE'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { connection: string; dir: string; frame: { type?: string; run_id?: string; after_sequence?: number } })
      .filter((l) => l.connection === 'Reload daemon' && l.dir === 'out' && l.frame.type === 'attach_run');
    for (const run of runs) {
      const after = Math.max(...attaches.filter((l) => l.frame.run_id === run.runId).map((l) => l.frame.after_sequence ?? 0));
      assert.ok(after > 40, `${run.title} was re-attached after its stored sequence (after_sequence ${after})`);
    }
    for (const run of runs) {
      const journal = daemonJournal(run.runId);
      const items = a.store.transcript(run.key)!.snapshot();
      const text = items.map((i) => (i.kind === 'text' ? i.text : '')).join('');
      const expected = journal.filter((e) => e.type === 'text').map((e) => String(e.payload)).join('');
      assert.equal(text, expected, `${run.title}: the text equals the daemon journal`);
      assert.equal(a.store.state.runs.get(run.key)!.lastSequence, journal.length, `${run.title}: every sequence folded once`);
      assert.equal(items.filter((i) => i.kind === 'gap').length, 0, `${run.title}: no gap`);
      assert.equal(items.filter((i) => i.kind === 'user').length, 1, `${run.title}: the prompt once`);
    }
    await setConnections([]);
  });
});
