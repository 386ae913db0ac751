/**
 * How a daemon's provider list is offered in New Run: every provider the daemon reports, whether it can run now,
 * and what to do when it cannot (install it, log in). A provider is never hidden because another one is
 * installed: the user must see why "codex" is not offered. Pure (no `vscode`), so the rules are unit-tested.
 */
import type { ProviderChoice } from '../driver';

/** The official install commands of the providers AgencyProxy probes (WIRE.md 1.6: claude, codex, copilot). */
const INSTALL_COMMANDS: Readonly<Record<string, string>> = {
  claude: 'npm install -g @anthropic-ai/claude-code',
  codex: 'npm install -g @openai/codex',
  copilot: 'npm install -g @github/copilot',
};

export interface ProviderPresentation {
  readonly provider: string;
  /** Short state: "2.1.0 · logged in", "not installed", "logged out". */
  readonly description: string;
  /** A second line: the hint or the daemon's detail text. */
  readonly detail?: string;
  /** False when a run would fail at once (not installed, logged out). */
  readonly runnable: boolean;
  /** What to do first, for providers that cannot run. */
  readonly hint?: string;
  /** A shell command that fixes it, when one is known (offered as "Copy Command"). */
  readonly command?: string;
}

function nonEmpty(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}

export function presentProvider(p: ProviderChoice): ProviderPresentation {
  const version = nonEmpty(p.version);
  const outdated = p.outdated ? 'update available' : undefined;
  if (!p.installed) {
    const command = INSTALL_COMMANDS[p.provider];
    const hint = command ? `Install it: ${command}` : `Install the ${p.provider} CLI on this machine.`;
    return { provider: p.provider, description: 'not installed', detail: nonEmpty(p.detail) ?? hint, runnable: false, hint, ...(command ? { command } : {}) };
  }
  if (p.authState === 'logged_out') {
    const command = nonEmpty(p.loginHint);
    const hint = command ? `Log in first: ${command}` : `Log in to ${p.provider} first.`;
    return {
      provider: p.provider,
      description: [version, 'logged out', outdated].filter(Boolean).join(' · '),
      detail: hint,
      runnable: false,
      hint,
      ...(command ? { command } : {}),
    };
  }
  const state = p.authState === 'logged_in' ? 'logged in' : 'login state unknown';
  // Unknown may still work (the probe could not tell): pickable, with the login hint in case the run fails.
  const detail = p.authState === 'logged_in' ? nonEmpty(p.detail) : nonEmpty(p.loginHint) ? `If the run fails, log in: ${p.loginHint!.trim()}` : nonEmpty(p.detail);
  return {
    provider: p.provider,
    description: [version, state, outdated].filter(Boolean).join(' · '),
    ...(detail ? { detail } : {}),
    runnable: true,
  };
}

/** Every reported provider, the runnable ones first, each group in the daemon's order. */
export function presentProviders(providers: readonly ProviderChoice[]): ProviderPresentation[] {
  const all = providers.map(presentProvider);
  return [...all.filter((p) => p.runnable), ...all.filter((p) => !p.runnable)];
}
