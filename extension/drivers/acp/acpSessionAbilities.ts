/**
 * What an ACP agent can do with its sessions beyond new/prompt, as its `initialize` answer advertises it:
 * `loadSession` (top level, stable), and `sessionCapabilities` — `list`, `resume`, `close` (stable v1) and `fork`
 * (unstable: typed and called through the unstable SDK, see acpSdk.ts). A feature is used only when advertised.
 */
import type { InitializeResponse } from '@agentclientprotocol/sdk/unstable';

export interface AcpSessionAbilities {
  /** `session/load`: the agent replays the session, then it goes on. */
  readonly load: boolean;
  /** `session/resume`: it goes on without a replay. */
  readonly resume: boolean;
  /** `session/list`: the agent's sessions, paged (sessions started elsewhere too). */
  readonly list: boolean;
  /** `session/close`: the agent frees a session. */
  readonly close: boolean;
  /** `session/fork`: a new session with the history of another. */
  readonly fork: boolean;
}

export const NO_SESSION_ABILITIES: AcpSessionAbilities = { load: false, resume: false, list: false, close: false, fork: false };

/** `{}` advertises a feature; absent or null does not. */
export function sessionAbilitiesOf(init: InitializeResponse | undefined): AcpSessionAbilities {
  const caps = init?.agentCapabilities;
  const offered = (value: unknown): boolean => value !== undefined && value !== null;
  const session = caps?.sessionCapabilities;
  return {
    load: caps?.loadSession === true,
    resume: offered(session?.resume),
    list: offered(session?.list),
    close: offered(session?.close),
    fork: offered(session?.fork),
  };
}
