/**
 * How long an ACP agent keeps an "always" answer (`allow_always`, `reject_always`), as far as it says so. ACP has no
 * field for it; the agents put it in the option's name. claude-agent-acp names a rule it keeps for the session
 * "… during this session" / "… for this session" and one it writes to the project's settings "… from this
 * project" or "… don't ask again …"; codex-acp says "… in this session", "… for this conversation", "… for this
 * turn" or "… in the future", but also names a session-only answer "don't ask again for these files". So only the
 * words that name a lifetime count here; anything else is labelled "as long as the agent keeps it", which is true
 * of every agent. Our own approval rules (model/commandRules.ts) stay the way to allow similar requests that the
 * editor, not the agent, keeps.
 */
import type { PermissionOption } from '@agentclientprotocol/sdk';

export const AGENT_KEEPS_IT = 'as long as the agent keeps it';
export const THIS_SESSION = 'this session';

const LIFETIMES: readonly { readonly words: RegExp; readonly lasts: string }[] = [
  { words: /\b(this|the) (session|conversation)\b/i, lasts: THIS_SESSION },
  { words: /\bthis turn\b/i, lasts: 'this turn' },
  { words: /\b(in the future|future (requests|tool calls)|from this project|for this project|in this project)\b/i, lasts: 'kept by the agent after this session' },
];

/** The lifetime of an "always" option in words for its button (see the module comment). */
export function optionLasts(option: PermissionOption): string {
  return LIFETIMES.find((l) => l.words.test(option.name))?.lasts ?? AGENT_KEEPS_IT;
}
