/**
 * Whether a run takes a message from the user now — the one rule the composer, the tree's Send Message and the
 * palette share. Pure (no `vscode`).
 */
import type { Capability, RunInfo } from '../model/modelTypes';
import { runStateDisplay } from '../protocol/runStateDisplay';
import { isTerminalRunState } from '../protocol/transcriptTypes';

/**
 * An active run of a daemon that injects or queues messages; or a *stopped* hyperhive agent: its broker keeps an
 * operator message in the agent's inbox until the agent's next start (WIRE.md 4.6), so the message is not lost.
 * (Whether the connection is up is the caller's question.)
 */
export function takesMessages(run: RunInfo, capabilities: readonly Capability[]): boolean {
  const hive = capabilities.includes('hive.operatorMessage');
  // A subagent takes its instructions from its parent session (ACP: no session mutation unless the agent allows it).
  if (run.parentRunId !== undefined || isTerminalRunState(run.state) || (run.state === 'stopped' && !hive)) {
    return false;
  }
  return hive || capabilities.includes('run.inject') || capabilities.includes('run.queue');
}

/**
 * Why the run takes no message now, in words for the person (undefined: it does). The same rule as `takesMessages`,
 * plus whether its daemon is connected; for a sender that must say why (Send Notes to Agent).
 */
export function messageRefusal(run: RunInfo, capabilities: readonly Capability[], connected: boolean): string | undefined {
  if (run.parentRunId !== undefined) {
    return 'it is a subagent: it takes its instructions from its parent session';
  }
  if (isTerminalRunState(run.state)) {
    return `it has ended (${runStateDisplay(run.state).label.toLowerCase()})`;
  }
  if (!takesMessages(run, capabilities)) {
    return run.state === 'stopped' ? 'it is stopped' : 'its daemon does not take messages into a running run';
  }
  return connected ? undefined : 'its daemon is not connected';
}
