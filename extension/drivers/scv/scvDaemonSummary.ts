/**
 * Turns an SCV `DaemonStatus` (WIRE.md §2.10) into what the Connections tree shows: a one-line server description
 * (version, pid) and short `details` lines for components, delegations, a pending restart and a confirm question.
 * The raw status rides along under `status` for "Show SCV Daemon Status". Pure.
 */
import type { DaemonStatus } from '../../protocol/scvDaemonControl';
import type { PeerInfo } from '../../protocol/scvTypes';

export interface ScvDaemonSummary {
  readonly serverDescription: string;
  readonly details: Readonly<Record<string, unknown>>;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function summarizeComponents(status: DaemonStatus): string {
  if (status.components.length === 0) {
    return 'none';
  }
  return status.components
    .map((c) => `${c.id} ${c.state}${c.error ? ` (${c.error})` : ''}${c.restarts > 0 ? `, ${plural(c.restarts, 'restart')}` : ''}`)
    .join('; ');
}

export function summarizeDelegations(status: DaemonStatus): string {
  const d = status.delegations;
  const orphaned = d.entries.filter((e) => e.orphaned).length;
  const agents = [...new Set(d.entries.map((e) => e.agent))];
  return (
    `${d.active} active, ${d.reaped} reaped` +
    (orphaned > 0 ? `, ${orphaned} orphaned` : '') +
    (agents.length > 0 ? ` (${agents.join(', ')})` : '')
  );
}

export function summarizeDaemonStatus(server: PeerInfo | undefined, status: DaemonStatus, checkedAt: number): ScvDaemonSummary {
  const name = server?.name ?? 'scv-server';
  const details: Record<string, unknown> = {
    daemon: `${name} ${status.version}, pid ${status.pid}`,
    components: summarizeComponents(status),
    delegations: summarizeDelegations(status),
    ...(status.restart
      ? { restart: `restarting to ${status.restart.to_version} when idle (deadline ${new Date(status.restart.deadline_unix_seconds * 1000).toISOString()})` }
      : {}),
    ...(status.confirm ? { confirm: `question ${status.confirm.id}: ${status.confirm.state}` } : {}),
    checkedAt: new Date(checkedAt).toISOString(),
    status,
  };
  return { serverDescription: `${name} ${status.version} · pid ${status.pid}`, details };
}
