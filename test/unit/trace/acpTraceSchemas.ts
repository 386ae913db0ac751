/**
 * Every ACP message in a suite trace, checked against the SDK's own schemas (the generated zod schemas of
 * `@agentclientprotocol/sdk`'s unstable protocol, which includes the stable one): a request's params by its method,
 * a response's result by the method of the request it answers (matched by connection, direction and id), a
 * notification's params by its method. Lines the transport could not parse (`unparsed`, a test's malformed frame)
 * are not messages and are skipped; extension methods (`_…`) have no schema. Used by checkTraceCoverage.ts.
 */
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface Schema {
  safeParse(value: unknown): { readonly success: boolean; readonly error?: { readonly issues?: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[] } };
}
type Schemas = Readonly<Record<string, Schema>>;

/** Requests by direction: `out` the client's (to the agent), `in` the agent's; [params, result] schema names. */
const REQUESTS: Readonly<Record<'out' | 'in', Readonly<Record<string, readonly [string, string]>>>> = {
  out: {
    initialize: ['zInitializeRequest', 'zInitializeResponse'],
    authenticate: ['zAuthenticateRequest', 'zAuthenticateResponse'],
    'session/new': ['zNewSessionRequest', 'zNewSessionResponse'],
    'session/load': ['zLoadSessionRequest', 'zLoadSessionResponse'],
    'session/resume': ['zResumeSessionRequest', 'zResumeSessionResponse'],
    'session/list': ['zListSessionsRequest', 'zListSessionsResponse'],
    'session/close': ['zCloseSessionRequest', 'zCloseSessionResponse'],
    'session/fork': ['zForkSessionRequest', 'zForkSessionResponse'],
    'session/prompt': ['zPromptRequest', 'zPromptResponse'],
    'session/set_mode': ['zSetSessionModeRequest', 'zSetSessionModeResponse'],
    'session/set_config_option': ['zSetSessionConfigOptionRequest', 'zSetSessionConfigOptionResponse'],
  },
  in: {
    'session/request_permission': ['zRequestPermissionRequest', 'zRequestPermissionResponse'],
    'fs/read_text_file': ['zReadTextFileRequest', 'zReadTextFileResponse'],
    'fs/write_text_file': ['zWriteTextFileRequest', 'zWriteTextFileResponse'],
    'terminal/create': ['zCreateTerminalRequest', 'zCreateTerminalResponse'],
    'terminal/output': ['zTerminalOutputRequest', 'zTerminalOutputResponse'],
    'terminal/wait_for_exit': ['zWaitForTerminalExitRequest', 'zWaitForTerminalExitResponse'],
    'terminal/kill': ['zKillTerminalRequest', 'zKillTerminalResponse'],
    'terminal/release': ['zReleaseTerminalRequest', 'zReleaseTerminalResponse'],
    'elicitation/create': ['zCreateElicitationRequest', 'zCreateElicitationResponse'],
  },
};

const NOTIFICATIONS: Readonly<Record<'out' | 'in', Readonly<Record<string, string>>>> = {
  out: { 'session/cancel': 'zCancelNotification', '$/cancel_request': 'zCancelRequestNotification' },
  in: { 'session/update': 'zSessionNotification', 'elicitation/complete': 'zCompleteElicitationNotification', '$/cancel_request': 'zCancelRequestNotification' },
};

/** The SDK's generated schemas (not exported by name: loaded from the package's own file next to its entry). */
export async function loadAcpSchemas(): Promise<Schemas> {
  const entry = require.resolve('@agentclientprotocol/sdk/unstable');
  return (await import(pathToFileURL(join(dirname(entry), 'schema', 'zod.gen.js')).href)) as Schemas;
}

export interface AcpTraceCheck {
  readonly checked: number;
  readonly problems: readonly string[];
}

interface Line {
  readonly protocol?: string;
  readonly connection?: string;
  readonly dir?: string;
  readonly frame?: unknown;
}

function issuesOf(schema: Schema, value: unknown): string | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) {
    return undefined;
  }
  return (parsed.error?.issues ?? []).slice(0, 3).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') || 'invalid';
}

/** Checks the ACP lines of a trace (JSON lines); other protocols' lines are left alone. */
export function checkAcpTrace(trace: string, schemas: Schemas): AcpTraceCheck {
  const problems: string[] = [];
  const pending = new Map<string, string>();
  let checked = 0;
  const check = (where: string, schemaName: string, value: unknown): void => {
    const schema = schemas[schemaName];
    if (!schema) {
      problems.push(`${where}: the SDK has no schema ${schemaName}`);
      return;
    }
    checked += 1;
    const wrong = issuesOf(schema, value);
    if (wrong !== undefined) {
      problems.push(`${where}: ${wrong}`);
    }
  };
  for (const text of trace.split('\n')) {
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      continue; // not JSON: traceCoverage counts those
    }
    const frame = line.frame as Record<string, unknown> | null | undefined;
    if (line.protocol !== 'acp' || (line.dir !== 'in' && line.dir !== 'out') || frame === null || typeof frame !== 'object' || 'unparsed' in frame) {
      continue;
    }
    const dir = line.dir;
    const method = typeof frame.method === 'string' ? frame.method : undefined;
    const where = `${line.connection ?? '?'} ${dir} ${method ?? `response ${String(frame.id)}`}`;
    if (method?.startsWith('_')) {
      continue;
    }
    if (method !== undefined && frame.id !== undefined) {
      const pair = REQUESTS[dir][method];
      if (!pair) {
        problems.push(`${where}: not a request this side sends`);
        continue;
      }
      pending.set(`${line.connection}|${dir}|${String(frame.id)}`, method);
      check(where, pair[0], frame.params);
    } else if (method !== undefined) {
      const name = NOTIFICATIONS[dir][method];
      if (name) {
        check(where, name, frame.params);
      } else {
        problems.push(`${where}: not a notification this side sends`);
      }
    } else if (frame.id !== undefined) {
      const asked = dir === 'in' ? 'out' : 'in';
      const key = `${line.connection}|${asked}|${String(frame.id)}`;
      const requested = pending.get(key);
      pending.delete(key);
      if (requested === undefined) {
        continue; // a request from before the trace began, or answered twice: nothing to check it against
      }
      if ('error' in frame) {
        const error = frame.error as { code?: unknown; message?: unknown } | null;
        checked += 1;
        if (!error || !Number.isInteger(error.code) || typeof error.message !== 'string') {
          problems.push(`${where} (${requested}): an error without an integer code and a message`);
        }
      } else {
        check(`${where} (${requested})`, REQUESTS[asked][requested]![1], frame.result);
      }
    }
  }
  return { checked, problems };
}
