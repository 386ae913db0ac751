/**
 * What the extension may send on a hive socket. Connecting to an agent's socket means acting *as* that agent
 * (WIRE.md 4.9 #2), so the inbox-consuming lease verbs of the agent's own harness are never sent: `recv` would
 * steal its messages, `ack_*` would mark them handled, `requeue_inflight` would re-order them, `wake` injects a
 * spoofable message, `graceful_stop_complete` would stop the container early.
 */
import type { HiveCmd, HiveRequest } from '../../protocol/hive';

export const HIVE_HARNESS_ONLY_CMDS = [
  'recv',
  'ack_turn',
  'ack_until',
  'requeue_inflight',
  'wake',
  'graceful_stop_complete',
] as const satisfies readonly HiveCmd[];

export type HiveHarnessOnlyCmd = (typeof HIVE_HARNESS_ONLY_CMDS)[number];

/** Every request an operator UI may send. */
export type OperatorHiveRequest = Exclude<HiveRequest, { cmd: HiveHarnessOnlyCmd }>;

const HARNESS_ONLY: ReadonlySet<string> = new Set(HIVE_HARNESS_ONLY_CMDS);

export function isHarnessOnlyCmd(cmd: string): cmd is HiveHarnessOnlyCmd {
  return HARNESS_ONLY.has(cmd);
}

/**
 * Requests that create a row each time (WIRE.md 4.6): a lost reply must never lead to an automatic resend; the
 * caller checks `recent` first (6.4).
 */
export const HIVE_NON_IDEMPOTENT_CMDS: ReadonlySet<HiveCmd> = new Set<HiveCmd>(['send', 'operator_msg', 'wake', 'ask']);

/** Non-mutating reads: safe to retry after a transport failure. */
export const HIVE_IDEMPOTENT_READ_CMDS: ReadonlySet<HiveCmd> = new Set<HiveCmd>([
  'status',
  'recent',
  'get_loose_ends',
  'list_todos',
  'count_pending_reminders',
  'reminder_rollup',
  'get_agent_meta',
  'get_host_journal',
  'get_logs',
  'list_schedules',
  'list_descendants',
]);

/** Default per-request timeouts; anything not listed uses the client's `timeoutMs`. */
export const HIVE_SLOW_CMD_TIMEOUTS_MS: Readonly<Partial<Record<HiveCmd, number>>> = {
  get_logs: 30_000,
  get_host_journal: 30_000,
  // Lifecycle verbs may answer only after the container changed state (unverified); a rebuild takes minutes.
  kill: 120_000,
  start: 120_000,
  restart: 180_000,
  update: 600_000,
  request_init_config: 60_000,
  create_repo: 60_000,
};
