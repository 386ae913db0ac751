/**
 * A shell command the real Claude Code and Codex run themselves (they never ask the client's terminals to run it),
 * shown in the run's terminal view: the client advertises `_meta.terminal_output`, the adapters report the command in
 * the tool call's `_meta` (terminal_info, terminal_output, terminal_exit), and the driver opens a read-only view for
 * it (acpShownCommands.ts) that gets the output and the exit code, linked from the tool row. The fake model asks for
 * `printf 'line %s\n' 1 2 3 4 5` (Claude: `Bash`; Codex: `exec_command`); a permission asked on the way is allowed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { DEFAULT_COMMAND_FINAL_TEXT, DEFAULT_COMMAND_OUTPUT } from '../../../fixtures/fakeModel/scenarios';
import type { RealAgentSpec } from './realAgentKit';
import { allowUntilTurnEnds } from './realAgentApprovals';
import { RealAgentHarness, itemText } from './realAgentKit';
import { RecordingTerminalViews } from './recordingTerminalViews';

const TIMEOUT = 120_000;

const AGENTS: readonly RealAgentSpec[] = [
  { kind: 'claude', askingMode: 'default', askingModeName: 'Manual', deniedTurn: 'completed', timeoutMs: TIMEOUT, writes: 'disk' },
  { kind: 'codex', askingMode: 'read-only', askingModeName: 'Read-only', deniedTurn: 'cancelled', timeoutMs: TIMEOUT, writes: 'disk' },
];

type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

for (const spec of AGENTS) {
  test(`${spec.kind}: a command the agent runs itself shows in a terminal of the run (output, exit code), linked from its tool row`, { timeout: TIMEOUT }, async () => {
    const harness = new RealAgentHarness(spec);
    const views = new RecordingTerminalViews();
    const s = await harness.setup({ kind: 'command' }, { startMode: spec.askingMode, terminals: views });
    const runId = await s.rig.driver.startRun({ prompt: 'print five lines', workspaceRoots: [s.ws.dir] });
    // Claude Code asks before Bash in `default`; Codex in `read-only` may run a read-only command without asking.
    const asked = await allowUntilTurnEnds(s.rig, runId, TIMEOUT);
    process.stdout.write(`# ${spec.kind}: ${asked.length} permission(s) asked for the command\n`);
    const init = s.rig.frames.find((f) => (f.frame as { method?: string }).method === 'initialize');
    // Codex reports commands without it too (as terminal_output_delta); Claude Code only with it.
    assert.deepEqual((init?.frame as { params: { clientCapabilities: { _meta?: unknown } } }).params.clientCapabilities._meta, { terminal_output: true });

    const shown = views.opened.filter((t) => t.spec.reported === true);
    assert.equal(shown.length, 1, `one terminal view for the command: ${JSON.stringify(views.opened.map((t) => t.spec))}`);
    const [view] = shown;
    assert.equal(view?.spec.runId, runId);
    assert.match(view?.spec.command ?? '', /printf 'line %s\\n' 1 2 3 4 5/, 'the command line as the agent ran it');
    // Claude Code hands over the output without its last newline.
    assert.equal(view?.output.trimEnd(), DEFAULT_COMMAND_OUTPUT.trimEnd(), 'its whole output, once');
    assert.deepEqual(view?.exit, { exitCode: 0, signal: null });
    assert.equal(views.opened.filter((t) => t.spec.reported !== true).length, 0, 'nothing ran through the client');

    const tool = s.rig.items(runId).find((i): i is ToolItem => i.kind === 'tool' && (i.terminals ?? []).length > 0);
    assert.deepEqual(tool?.terminals, [view?.spec.terminalId], 'the tool row links to that terminal ("Show terminal")');
    assert.match(tool?.output ?? '', /line 5/, 'the row keeps the output too');
    assert.match(itemText(s.rig.items(runId), 'text'), new RegExp(`${DEFAULT_COMMAND_FINAL_TEXT.replace('.', '\\.')}$`), 'the model got the output back');
  });
}
