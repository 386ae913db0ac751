/**
 * The daemons this extension speaks to and the shape of a connection profile (one entry of the setting
 * `agentSwitchboard.connections`). The settings reader validates with `connectionProfileSchema`; the JSON schema
 * VS Code reads lives in package.json and a unit test (test/unit/protocol/connectionProfile.test.ts) checks that it
 * has the same properties, types, required list and protocols.
 *
 * zod/mini, as the core's other schemas: this one is read at activation, and full zod would be a large part of
 * dist/extension.js (extensionBundles.mjs). The protocol list itself is in ./protocolNames.ts so the webview contract
 * can use it too.
 */
import * as z from 'zod/mini';
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
    name: z.string().check(z.minLength(1)),
    type: z.optional(z.literal('stdio')),
    command: z.string().check(z.minLength(1)),
    args: z.optional(z.array(z.string())),
    env: z.optional(z.record(z.string(), z.string())),
  }),
  z.object({
    name: z.string().check(z.minLength(1)),
    type: z.enum(['http', 'sse']),
    url: z.string().check(z.minLength(1)),
    headers: z.optional(z.record(z.string(), z.string())),
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
  name: z.string().check(z.minLength(1)),
  protocol: z.enum(PROTOCOL_NAMES),
  /** Unix socket (AgencyProxy, SCV, a single hyperhive socket). */
  socketPath: z.optional(z.string()),
  /** hyperhive socket directory (default /run/hyperhive). */
  hiveDir: z.optional(z.string()),
  /** A3S harness base URL. */
  url: z.optional(z.string()),
  /** A3S: allow a non-loopback URL (explicit opt-in). */
  allowRemote: z.optional(z.boolean()),
  /** A3S run identity parts. */
  releaseIdentity: z.optional(z.string()),
  sessionId: z.optional(z.string()),
  readinessPath: z.optional(z.string()),
  livenessPath: z.optional(z.string()),
  /** ACP: the agent's executable (found on PATH, or an absolute path), e.g. `claude-agent-acp`, `npx`, `gemini`. */
  command: z.optional(z.string()),
  /** ACP: its arguments, e.g. `["--acp"]` for Gemini CLI. */
  args: z.optional(z.array(z.string())),
  /** ACP: extra environment variables (never secrets: API keys are asked for and kept in the secret store). */
  env: z.optional(z.record(z.string(), z.string())),
  /** ACP: the directory sessions start in (default: the window's first workspace folder). */
  cwd: z.optional(z.string()),
  /** ACP: the mode new sessions start in (an id the agent offers, e.g. `default` for Claude Code, `read-only` for
   *  Codex); absent: the agent's own default, which for current agents may act without asking. */
  startMode: z.optional(z.string().check(z.minLength(1))),
  /** ACP: MCP servers passed to every session, as far as the agent's `mcpCapabilities` allow. */
  mcpServers: z.optional(z.array(mcpServerSchema)),
  /** Connect when the extension starts (default: the setting agentSwitchboard.autoConnect). */
  autoConnect: z.optional(z.boolean()),
  /** ACP, AgencyProxy: start runs in a git worktree of their own (issue #26): ask in *New Run…* (default), always, never. */
  runWorktree: z.optional(z.enum(['ask', 'always', 'never'])),
});

/** One connection profile, as the drivers receive it. */
export type ConnectionProfile = Readonly<z.infer<typeof connectionProfileSchema>>;
