/** Options and argument shapes of `HiveClient`. */
import type { HiveCmd, JournalPriority } from '../../protocol/hive';
import type { FrameTap } from '../../transport/frameTap';

/** `agent`: privileged verbs refused client-side. `unknown` (e.g. `/run/hive/mcp.sock`): the daemon decides. */
export type HiveSocketRole = 'agent' | 'manager' | 'unknown';

export interface HiveClientOptions {
  readonly socketPath: string;
  readonly role: HiveSocketRole;
  /** Default per-request timeout (connect + response). Default 10 s; slow verbs have their own defaults. */
  readonly timeoutMs?: number;
  /** Per-`cmd` timeout overrides. */
  readonly timeouts?: Readonly<Partial<Record<HiveCmd, number>>>;
  /** Longest accepted response line. Default 16 MiB (logs). */
  readonly maxLineBytes?: number;
  readonly frameTap?: FrameTap;
  /** Extra attempts for idempotent reads after a transport failure (not after a timeout). Default 1. */
  readonly readRetries?: number;
  readonly retryDelayMs?: number;
}

export interface HostJournalQuery {
  readonly unit?: string;
  /** journalctl `-M` machine name, verbatim (e.g. `h-iris`). */
  readonly container?: string;
  /** Default 30, max 100 (daemon). */
  readonly lines?: number;
  readonly priority?: JournalPriority;
  readonly grep?: string;
  readonly since?: string;
  readonly until?: string;
}

export interface AskOptions {
  readonly options?: readonly string[];
  readonly multi?: boolean;
  readonly ttlSeconds?: number;
  /** `operator` or an agent name; absent = daemon default. */
  readonly to?: string;
}

/** Mutable schedule fields. `description`/`intervalSeconds` cannot be cleared on this wire (WIRE.md 4.9 #5). */
export interface ScheduleEdit {
  readonly body?: string;
  readonly description?: string;
  readonly intervalSeconds?: number;
  readonly nextFireAtUnix?: number;
  readonly targetsAdd?: readonly string[];
  readonly targetsRemove?: readonly string[];
}
