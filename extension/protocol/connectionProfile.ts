/**
 * The daemons this extension speaks to and the shape of a connection profile (one entry of the setting
 * `agentSwitchboard.connections`). The settings reader validates with `connectionProfileSchema`; the JSON schema
 * VS Code reads lives in package.json and a unit test (test/unit/protocol/connectionProfile.test.ts) checks that it
 * has the same properties, types, required list and protocols.
 *
 * Host only (full zod); the protocol list itself is in ./protocolNames.ts so the webview contract can use it too.
 */
import * as z from 'zod';
import { PROTOCOL_NAMES } from './protocolNames';

export { PROTOCOL_NAMES };
export type { ProtocolName } from './protocolNames';

/**
 * ACP: an MCP server the agent is asked to connect to in every session (`session/new`, `session/load`,
 * `session/resume`). A local one is a command the agent starts (stdio); a remote one a URL (`http`, or the older
 * `sse`), only for agents that advertise it. `env` and `headers` values are secrets (tokens): never traced or logged.
 */
export const mcpServerSchema = z.union([
  z.object({
    name: z.string().min(1),
    type: z.literal('stdio').optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: z.record(z.string(), z.string()).optional(),
  }),
  z.object({
    name: z.string().min(1),
    type: z.enum(['http', 'sse']),
    url: z.string().min(1),
    headers: z.record(z.string(), z.string()).optional(),
  }),
]);
export type McpServerSetting = Readonly<z.infer<typeof mcpServerSchema>>;
export type RemoteMcpServerSetting = Extract<McpServerSetting, { readonly url: string }>;

/** An `http` or `sse` server (a URL), not a command the agent starts. */
export function isRemoteMcpServer(server: McpServerSetting): server is RemoteMcpServerSetting {
  return 'url' in server;
}

export const connectionProfileSchema = z.object({
  /** Shown in the Connections view; unique per protocol. */
  name: z.string().min(1),
  protocol: z.enum(PROTOCOL_NAMES),
  /** Unix socket (AgencyProxy, SCV, a single hyperhive socket). */
  socketPath: z.string().optional(),
  /** hyperhive socket directory (default /run/hyperhive). */
  hiveDir: z.string().optional(),
  /** A3S harness base URL. */
  url: z.string().optional(),
  /** A3S: allow a non-loopback URL (explicit opt-in). */
  allowRemote: z.boolean().optional(),
  /** A3S run identity parts. */
  releaseIdentity: z.string().optional(),
  sessionId: z.string().optional(),
  readinessPath: z.string().optional(),
  livenessPath: z.string().optional(),
  /** ACP: the agent's executable (found on PATH, or an absolute path), e.g. `claude-agent-acp`, `npx`, `gemini`. */
  command: z.string().optional(),
  /** ACP: its arguments, e.g. `["--acp"]` for Gemini CLI. */
  args: z.array(z.string()).optional(),
  /** ACP: extra environment variables (never secrets: API keys are asked for and kept in the secret store). */
  env: z.record(z.string(), z.string()).optional(),
  /** ACP: the directory sessions start in (default: the window's first workspace folder). */
  cwd: z.string().optional(),
  /** ACP: the mode new sessions start in (an id the agent offers, e.g. `default` for Claude Code, `read-only` for
   *  Codex); absent: the agent's own default, which for current agents may act without asking. */
  startMode: z.string().min(1).optional(),
  /** ACP: MCP servers passed to every session, as far as the agent's `mcpCapabilities` allow. */
  mcpServers: z.array(mcpServerSchema).optional(),
  /** Connect when the extension starts (default: the setting agentSwitchboard.autoConnect). */
  autoConnect: z.boolean().optional(),
});

/** One connection profile, as the drivers receive it. */
export type ConnectionProfile = Readonly<z.infer<typeof connectionProfileSchema>>;
