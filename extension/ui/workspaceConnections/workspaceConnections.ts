/**
 * Connection profiles a repository's settings define (`.vscode/settings.json`) and the user's consent to them.
 *
 * - In an untrusted workspace they are never connected (the tree says they need a trusted workspace); granting
 *   trust re-reads the settings (extension.ts).
 * - A profile the review refuses (a relative command, code-changing `env`, `allowRemote`:
 *   drivers/profileTrust/profileReview.ts) is never connected; the tree and any connect attempt say why.
 * - Otherwise it connects — automatically or by hand — only once the user allowed it in a modal that names exactly
 *   what will run or be reached. The consent is kept per workspace (`workspaceState`) under the digest of the exact
 *   profile content: any change asks again. Declining keeps nothing but an in-memory note for the tree.
 *
 * Every connect goes through `gate` (ConnectionManager's ConnectGate), so the tree's Connect, the palette's
 * Connect… and auto-connect all meet the same check.
 */
import * as vscode from 'vscode';
import type { WorkspaceConnectionStatus } from '../../drivers/profileTrust/consentStatus';
import { consentStatusOf } from '../../drivers/profileTrust/consentStatus';
import type { ProfileReview, ReviewEnvironment } from '../../drivers/profileTrust/profileReview';
import { reviewProfile } from '../../drivers/profileTrust/profileReview';
import type { SourcedProfile } from '../../drivers/profileTrust/profileSources';
import { isWorkspaceDefined } from '../../drivers/profileTrust/profileSources';
import { canonicalJson } from '../../drivers/profileTrust/secretBinding';
import type { ConnectionProfile } from '../../protocol/connectionProfile';
import { Disposable } from '../disposable';

/** Where the digests of allowed profiles are kept (this workspace only). */
const CONSENT_KEY = 'agentSwitchboard.workspaceConnectionConsent';
export const ALLOW_AND_CONNECT = 'Allow and Connect';
export const DONT_ALLOW = "Don't Allow";

/** What the consent prompt shows. */
export interface ConsentRequest {
  readonly connectionId: string;
  readonly name: string;
  readonly message: string;
  readonly detail: string;
}

/** Shows a consent request; resolves true only for an explicit "Allow and Connect". */
export type ConsentPrompt = (request: ConsentRequest) => Promise<boolean>;

/**
 * The default prompt: a modal, since what it allows is running a program. It only ever follows the user's own
 * Connect or Review click (never window open). "Don't Allow" is the close affordance: Escape and the close box mean
 * no, and there is no third, ambiguous Cancel.
 */
export const modalConsentPrompt: ConsentPrompt = async (request) => {
  const allow: vscode.MessageItem = { title: ALLOW_AND_CONNECT };
  const deny: vscode.MessageItem = { title: DONT_ALLOW, isCloseAffordance: true };
  return (await vscode.window.showWarningMessage(request.message, { modal: true, detail: request.detail }, allow, deny)) === allow;
};

/** The user chose Don't Allow (or closed the prompt): not an error to report. */
export class ConsentDeclined extends Error {
  constructor(name: string) {
    super(`You did not allow the workspace connection "${name}".`);
  }
}

export type { WorkspaceConnectionStatus };

interface Entry {
  readonly sourced: SourcedProfile;
  readonly review: ProfileReview;
}

export class WorkspaceConnections extends Disposable {
  private entries = new Map<string, Entry>();
  /** Digests declined in this window: memory only (declining leaves no trace). */
  private readonly declined = new Set<string>();
  /** Digests the window-open notification already mentioned. */
  private readonly announced = new Set<string>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changeEmitter.event;
  constructor(
    private readonly state: vscode.Memento,
    /** Asks the person; given once, at construction (ui/userPrompts.ts), so nothing can swap it afterwards. */
    private readonly prompt: ConsentPrompt,
  ) {
    super();
  }

  /** Reviews the workspace-defined profiles among `profiles` (the user's need no consent). */
  update(profiles: readonly SourcedProfile[], env: ReviewEnvironment): void {
    this.entries = new Map(profiles.filter((p) => isWorkspaceDefined(p.origin)).map((p) => [p.id, { sourced: p, review: reviewProfile(p.profile, p.origin, env) }]));
    this.changeEmitter.fire();
  }

  /** The workspace-defined connections, in settings order. */
  ids(): string[] {
    return [...this.entries.keys()];
  }

  isWorkspaceDefined(connectionId: string): boolean {
    return this.entries.has(connectionId);
  }

  review(connectionId: string): ProfileReview | undefined {
    return this.entries.get(connectionId)?.review;
  }

  status(connectionId: string): WorkspaceConnectionStatus | undefined {
    const entry = this.entries.get(connectionId);
    if (!entry) {
      return undefined;
    }
    return consentStatusOf({
      trusted: vscode.workspace.isTrusted,
      refusal: entry.review.refusal,
      digest: entry.review.digest,
      allowed: this.allowedDigests(),
      declined: this.declined,
    });
  }

  /** Whether auto-connect may connect it without asking: the user's own, or a workspace one already allowed. */
  autoConnectable(connectionId: string): boolean {
    const status = this.status(connectionId);
    return status === undefined || status === 'allowed';
  }

  /** Why a connection may not be made without asking first (undefined: it may); for the drivers' own reconnects. */
  refusal(connectionId: string): string | undefined {
    const status = this.status(connectionId);
    return status === undefined || status === 'allowed' ? undefined : `"${this.nameOf(connectionId)}" from this workspace's settings is not allowed (Review Workspace Connections…).`;
  }

  /** ConnectionManager's gate: see the module comment. Rejects with the reason, or `ConsentDeclined`. */
  readonly gate = async (connectionId: string, profile: ConnectionProfile): Promise<void> => {
    const entry = this.entries.get(connectionId);
    if (!entry) {
      return;
    }
    const name = entry.sourced.profile.name;
    if (canonicalJson(entry.sourced.profile) !== canonicalJson(profile)) {
      throw new Error(`The workspace connection "${name}" changed since it was reviewed; try again.`);
    }
    switch (this.status(connectionId)) {
      case 'untrusted':
        throw new Error(`"${name}" is defined by this workspace's settings, which are used only once you trust the workspace.`);
      case 'refused':
        throw new Error(`"${name}" (from this workspace's settings) is not used: ${entry.review.refusal ?? ''}`);
      case 'allowed':
        return;
      default:
        if (!(await this.ask(connectionId))) {
          throw new ConsentDeclined(name);
        }
    }
  };

  /** Shows the consent prompt for one workspace connection; true when the user allowed it (then it is stored). */
  async ask(connectionId: string): Promise<boolean> {
    const entry = this.entries.get(connectionId);
    if (!entry || entry.review.refusal) {
      return false;
    }
    const request = consentRequestOf(connectionId, entry);
    const allowed = await this.prompt(request);
    // The settings may have changed while the prompt was open: only the content the user saw is allowed.
    const current = this.entries.get(connectionId);
    if (allowed && current?.review.digest === entry.review.digest) {
      await this.state.update(CONSENT_KEY, [...new Set([...this.allowedDigests(), entry.review.digest])]);
      this.declined.delete(entry.review.digest);
    } else {
      this.declined.add(entry.review.digest);
    }
    this.changeEmitter.fire();
    return allowed && current?.review.digest === entry.review.digest;
  }

  /** Forgets every consent given in this workspace; returns the connections that were allowed. */
  async forgetConsent(): Promise<string[]> {
    const allowed = this.ids().filter((id) => this.status(id) === 'allowed');
    await this.state.update(CONSENT_KEY, undefined);
    this.changeEmitter.fire();
    return allowed;
  }

  /** Workspace connections waiting for a first decision that the window has not mentioned yet; marks them told. */
  takeUnannounced(): string[] {
    const fresh = this.ids().filter((id) => {
      const digest = this.entries.get(id)!.review.digest;
      return this.status(id) === 'unreviewed' && !this.announced.has(digest);
    });
    for (const id of fresh) {
      this.announced.add(this.entries.get(id)!.review.digest);
    }
    return fresh;
  }

  nameOf(connectionId: string): string {
    return this.entries.get(connectionId)?.sourced.profile.name ?? connectionId;
  }

  private allowedDigests(): string[] {
    const stored = this.state.get<unknown>(CONSENT_KEY);
    return Array.isArray(stored) ? stored.filter((d): d is string => typeof d === 'string') : [];
  }
}

/** The prompt's text: the profile's name and origin, then exactly what allowing it does. */
function consentRequestOf(connectionId: string, entry: Entry): ConsentRequest {
  const { profile } = entry.sourced;
  return {
    connectionId,
    name: profile.name,
    message: `Allow the connection "${profile.name}" from this workspace's settings?`,
    detail: [
      `The repository's .vscode/settings.json defines this ${entry.review.kind} connection. Allowing it will:`,
      '',
      ...entry.review.effects,
      '',
      'Allow it only if you trust this repository. You are asked again if the profile changes. Agent Switchboard: Forget Workspace Connection Consent takes it back.',
    ].join('\n'),
  };
}
