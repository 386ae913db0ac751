/**
 * HiveClient: a guarded operator client for one hyperhive mcp.sock (an agent's or the manager's).
 *
 * Guards, in order, all before connecting: the agent harness's inbox-consuming verbs are always refused
 * (`HiveForbiddenRequestError`); privileged verbs are refused on a socket known to be an agent's
 * (`HivePrivilegedError{clientSide:true}`); the request must pass the wire schema (`HiveInvalidRequestError`).
 * Putting a checked request on the wire and reading its reply is `hiveRoundTrip`'s: a daemon `err` becomes
 * `HiveDaemonError` (or `HivePrivilegedError{clientSide:false}`); only idempotent reads are retried (WIRE.md 6.4).
 */
import { HIVE_PRIVILEGED_CMDS, HiveRequest } from '../../protocol/hive';
import type {
  AgentMeta,
  CancelLooseEndKind,
  ContainerInfo,
  HiveCmd,
  HiveReply,
  HiveResponseKind,
  HiveResponseOf,
  InboxRow,
  Lenient,
  LooseEnd,
  ReminderStats,
  SchedulePromptPayload,
  WireSchedule,
} from '../../protocol/hive';
import { noFrameTap } from '../../transport/frameTap';
import type { FrameTap } from '../../transport/frameTap';
import type { AskOptions, HiveClientOptions, HiveSocketRole, HostJournalQuery, ScheduleEdit } from './hiveClientOptions';
import {
  HiveForbiddenRequestError,
  HiveInvalidRequestError,
  HivePrivilegedError,
  HiveUnexpectedResponseError,
} from './hiveErrors';
import { HIVE_SLOW_CMD_TIMEOUTS_MS, isHarnessOnlyCmd } from './hiveRequestPolicy';
import type { OperatorHiveRequest } from './hiveRequestPolicy';
import { hiveRoundTrip } from './hiveRoundTrip';

export const HIVE_DEFAULT_TIMEOUT_MS = 10_000;
export const HIVE_DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export class HiveClient {
  readonly socketPath: string;
  readonly role: HiveSocketRole;
  private readonly timeoutMs: number;
  private readonly timeouts: Readonly<Partial<Record<HiveCmd, number>>>;
  private readonly maxLineBytes: number;
  private readonly frameTap: FrameTap;
  private readonly readRetries: number;
  private readonly retryDelayMs: number;

  constructor(options: HiveClientOptions) {
    this.socketPath = options.socketPath;
    this.role = options.role;
    this.timeoutMs = options.timeoutMs ?? HIVE_DEFAULT_TIMEOUT_MS;
    this.timeouts = options.timeouts ?? {};
    this.maxLineBytes = options.maxLineBytes ?? HIVE_DEFAULT_MAX_LINE_BYTES;
    this.frameTap = options.frameTap ?? noFrameTap;
    this.readRetries = options.readRetries ?? 1;
    this.retryDelayMs = options.retryDelayMs ?? 100;
  }

  // ---- observer reads (safe on an agent socket) ----

  /** Pending (undelivered) messages for this socket's principal. */
  async status(): Promise<number> {
    return (await this.expect({ cmd: 'status' }, 'status')).unread;
  }

  /** Last `limit` inbox rows, newest first. Non-mutating: does not deliver anything. */
  async recent(limit: number): Promise<Lenient<InboxRow>[]> {
    return (await this.expect({ cmd: 'recent', limit }, 'recent')).rows;
  }

  /** Loose ends of self (absent), a child / any agent (manager), or `"*"` hive-wide (manager only). */
  async getLooseEnds(agent?: string): Promise<Lenient<LooseEnd>[]> {
    return (await this.expect({ cmd: 'get_loose_ends', agent }, 'loose_ends')).loose_ends;
  }

  /** Todos, optionally of one subsystem (reply kind unverified: `loose_ends` expected). */
  async listTodos(subsystem?: string): Promise<Lenient<LooseEnd>[]> {
    return (await this.expect({ cmd: 'list_todos', subsystem }, 'loose_ends')).loose_ends;
  }

  async countPendingReminders(agent?: string): Promise<number> {
    return (await this.expect({ cmd: 'count_pending_reminders', agent }, 'pending_reminders_count')).count;
  }

  /** Reminder stats over the last `sinceSecs` seconds (0 = all). Unknown counters are kept. */
  async reminderRollup(sinceSecs = 0, agent?: string): Promise<ReminderStats> {
    const { kind: _kind, ...stats } = await this.expect({ cmd: 'reminder_rollup', since_secs: sinceSecs, agent }, 'reminder_rollup');
    return stats;
  }

  /** Identity and status of self (`name` absent) or of `name`. */
  async getAgentMeta(name?: string): Promise<AgentMeta> {
    return this.expect({ cmd: 'get_agent_meta', name }, 'agent_meta');
  }

  /** Descendant containers with running state (needs the `lifecycle` tool group). */
  async listDescendants(): Promise<Lenient<ContainerInfo>[]> {
    return (await this.expect({ cmd: 'list_descendants' }, 'containers')).containers;
  }

  /** Host journal lines (needs capability `read_host_journal`). */
  async getHostJournal(query: HostJournalQuery = {}): Promise<string> {
    return (await this.expect({ cmd: 'get_host_journal', ...query }, 'host_journal')).content;
  }

  // ---- operator actions (never retried) ----

  /** Message to this socket's agent from "operator". Not idempotent: never retried; check `recent` after a failure. */
  operatorMsg(body: string): Promise<HiveReply> {
    return this.command({ cmd: 'operator_msg', body });
  }

  /** Send as this socket's principal (the manager, on the manager socket). Never retried. */
  send(to: string, body: string, inReplyTo?: number): Promise<HiveReply> {
    return this.command({ cmd: 'send', to, body, in_reply_to: inReplyTo });
  }

  /** Ask as this socket's principal; resolves to the queued question id. Never retried. */
  async ask(question: string, options: AskOptions = {}): Promise<number> {
    const request = {
      cmd: 'ask' as const,
      question,
      options: options.options ? [...options.options] : undefined,
      multi: options.multi,
      ttl_seconds: options.ttlSeconds,
      to: options.to,
    };
    return (await this.expect(request, 'question_queued')).id;
  }

  /**
   * Answer question `id` *as this socket's principal*: per `hive_mcp_sock.rs` only questions routed to that agent
   * can be answered here; operator-routed questions are answered on the dashboard / host side.
   */
  answer(id: number, answer: string): Promise<HiveReply> {
    return this.command({ cmd: 'answer', id, answer });
  }

  /** Mark one of this principal's todos done. */
  markTodoDone(id: number): Promise<HiveReply> {
    return this.command({ cmd: 'mark_todo_done', id });
  }

  /** Cancel an open loose end this principal owns. */
  cancelLooseEnd(kind: CancelLooseEndKind, id: number): Promise<HiveReply> {
    return this.command({ cmd: 'cancel_loose_end', kind, id });
  }

  // ---- manager (privileged) ----

  kill(name: string): Promise<HiveReply> {
    return this.command({ cmd: 'kill', name });
  }

  start(name: string): Promise<HiveReply> {
    return this.command({ cmd: 'start', name });
  }

  restart(name: string): Promise<HiveReply> {
    return this.command({ cmd: 'restart', name });
  }

  /** Rebuild `name` against the current hyperhive flake (may take minutes). */
  update(name: string): Promise<HiveReply> {
    return this.command({ cmd: 'update', name });
  }

  /** Journal lines of a sub-agent container. */
  async getLogs(agent: string, lines?: number): Promise<string> {
    return (await this.expect({ cmd: 'get_logs', agent, lines }, 'logs')).content;
  }

  async listSchedules(): Promise<Lenient<WireSchedule>[]> {
    return (await this.expect({ cmd: 'list_schedules' }, 'schedules')).schedules;
  }

  fireScheduleNow(id: number): Promise<HiveReply> {
    return this.command({ cmd: 'fire_schedule_now', id });
  }

  editSchedule(id: number, edit: ScheduleEdit): Promise<HiveReply> {
    return this.command({
      cmd: 'edit_schedule',
      id,
      body: edit.body,
      description: edit.description,
      interval_seconds: edit.intervalSeconds,
      next_fire_at_unix: edit.nextFireAtUnix,
      targets_add: edit.targetsAdd ? [...edit.targetsAdd] : undefined,
      targets_remove: edit.targetsRemove ? [...edit.targetsRemove] : undefined,
    });
  }

  /** Cancel schedule `id`, or only remove `targets` from it. */
  cancelSchedule(id: number, targets?: readonly string[]): Promise<HiveReply> {
    return this.command({ cmd: 'cancel_schedule', id, targets: targets ? [...targets] : undefined });
  }

  /** Queue an approval to initialise a new agent's config repo. */
  requestInitConfig(name: string, description?: string): Promise<HiveReply> {
    return this.command({ cmd: 'request_init_config', name, description });
  }

  /** Queue an approval for `nix flake update [inputs...]` (empty = all inputs). */
  requestUpdateMetaInputs(inputs: readonly string[] = [], description?: string): Promise<HiveReply> {
    return this.command({ cmd: 'request_update_meta_inputs', inputs: [...inputs], description });
  }

  /** Queue an approval to add a scheduled prompt (payload flattened beside `cmd`). */
  requestSchedulePrompt(payload: SchedulePromptPayload): Promise<HiveReply> {
    if ('cmd' in payload) {
      return Promise.reject(new HiveInvalidRequestError(this.socketPath, 'request_schedule_prompt', "payload must not contain 'cmd'"));
    }
    return this.command({ ...payload, cmd: 'request_schedule_prompt' });
  }

  // ---- generic ----

  /**
   * Send any operator-allowed request and return the parsed reply (`ok:false` = unknown kind or malformed, with
   * raw JSON). `err` replies throw. Harness-only verbs are refused even if the type system is bypassed.
   */
  async request(request: OperatorHiveRequest, options: { readonly timeoutMs?: number } = {}): Promise<HiveReply> {
    const cmd: string = request.cmd;
    if (isHarnessOnlyCmd(cmd)) {
      throw new HiveForbiddenRequestError(this.socketPath, cmd);
    }
    if (this.role === 'agent' && HIVE_PRIVILEGED_CMDS.has(request.cmd)) {
      throw new HivePrivilegedError(this.socketPath, cmd, true);
    }
    const parsed = HiveRequest.safeParse(withoutUndefined(request));
    if (!parsed.success) {
      throw new HiveInvalidRequestError(this.socketPath, cmd, parsed.error.issues.map((i) => `${i.path.join('.') || cmd}: ${i.message}`).join('; '));
    }
    const timeoutMs = options.timeoutMs ?? this.timeouts[request.cmd] ?? HIVE_SLOW_CMD_TIMEOUTS_MS[request.cmd] ?? this.timeoutMs;
    return hiveRoundTrip(this.socketPath, parsed.data, {
      timeoutMs,
      maxLineBytes: this.maxLineBytes,
      frameTap: this.frameTap,
      readRetries: this.readRetries,
      retryDelayMs: this.retryDelayMs,
    });
  }

  /** A request whose reply is "ok (inferred)": any non-`err` reply counts as done and is returned for display. */
  private command(request: OperatorHiveRequest): Promise<HiveReply> {
    return this.request(request);
  }

  private async expect<K extends HiveResponseKind>(request: OperatorHiveRequest, kind: K): Promise<HiveResponseOf<K>> {
    const reply = await this.request(request);
    if (!reply.ok) {
      const what = reply.kind === undefined ? 'got a reply without kind' : `got '${reply.kind}' that does not parse: ${reply.error}`;
      throw new HiveUnexpectedResponseError(this.socketPath, request.cmd, kind, reply.raw, what);
    }
    if (reply.response.kind !== kind) {
      throw new HiveUnexpectedResponseError(this.socketPath, request.cmd, kind, reply.response, `got '${reply.response.kind}'`);
    }
    return reply.response as HiveResponseOf<K>;
  }
}

/** JSON drops `undefined` anyway; dropping it here keeps the traced frame identical to the bytes sent. */
function withoutUndefined(value: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
