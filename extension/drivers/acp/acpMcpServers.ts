/**
 * The MCP servers an ACP profile lists, as the agent is sent them. ACP passes them in every `session/new`,
 * `session/load` and `session/resume`; a stdio server (a command the agent starts) every agent must take, a remote
 * one (`http`, `sse`) only an agent whose `agentCapabilities.mcpCapabilities` says so — the others are not sent, and
 * the run says which and why. Values of `env` and `headers` are secrets (tokens): they are registered with the
 * host's secret-value registry here, and the trace redacts `{name, value}` lists under those keys by key.
 *
 * Neither claude-agent-acp nor codex-acp confirms which servers it started: both report only failures (Claude as a
 * notice or a text chunk with `_meta.claudeCode.kind = "mcpServerStatus"`, Codex as a failed tool call titled
 * `mcp__<name>__startup`), which reach the transcript like any other update. So the run says the servers were
 * passed and that the agent does not confirm them.
 */
import type { McpCapabilities, McpServer } from '@agentclientprotocol/sdk';
import type { McpServerSetting } from '../../protocol/connectionProfile';
import { isRemoteMcpServer } from '../../protocol/connectionProfile';
import type { SecretValues } from '../../transport/secretValues';
import { processSecretValues } from '../../transport/secretValues';

export interface McpServerPlan {
  /** What goes into each session request. */
  readonly passed: readonly McpServer[];
  /** Listed in the profile, not sent: the agent cannot take that kind. */
  readonly withheld: readonly { readonly name: string; readonly why: string }[];
}

const pairs = (record: Readonly<Record<string, string>> | undefined): { name: string; value: string }[] =>
  Object.entries(record ?? {}).map(([name, value]) => ({ name, value }));

/** The profile's servers as the agent can take them (see the module comment); their secret values registered. */
export function planMcpServers(listed: readonly McpServerSetting[] | undefined, capabilities: McpCapabilities | undefined, secrets: SecretValues = processSecretValues): McpServerPlan {
  const passed: McpServer[] = [];
  const withheld: { name: string; why: string }[] = [];
  for (const server of listed ?? []) {
    if (isRemoteMcpServer(server)) {
      if (capabilities?.[server.type] !== true) {
        withheld.push({ name: server.name, why: `the agent does not take ${server.type} MCP servers` });
        continue;
      }
      const headers = pairs(server.headers);
      // "Bearer <token>": the token alone may show up in an error too.
      headers.forEach((h) => [h.value, /^[A-Za-z]+\s+(\S+)$/.exec(h.value)?.[1]].forEach((v) => secrets.add(v)));
      passed.push({ type: server.type, name: server.name, url: server.url, headers });
      continue;
    }
    const env = pairs(server.env);
    env.forEach((e) => secrets.add(e.value));
    passed.push({ name: server.name, command: server.command, args: [...(server.args ?? [])], env });
  }
  return { passed, withheld };
}

/** What the run says about its MCP servers (undefined: the profile lists none). */
export function mcpServerNotice(plan: McpServerPlan): { readonly text: string; readonly level: 'info' | 'warning' } | undefined {
  if (plan.passed.length === 0 && plan.withheld.length === 0) {
    return undefined;
  }
  const kind = (s: McpServer): string => ('type' in s ? s.type : 'stdio');
  const lines = [
    ...(plan.passed.length > 0
      ? [`MCP servers passed to the agent: ${plan.passed.map((s) => `${s.name} (${kind(s)})`).join(', ')}; the agent does not confirm them.`]
      : []),
    ...plan.withheld.map((w) => `MCP server ${w.name} was not passed: ${w.why}.`),
  ];
  return { text: lines.join('\n'), level: plan.withheld.length > 0 ? 'warning' : 'info' };
}
