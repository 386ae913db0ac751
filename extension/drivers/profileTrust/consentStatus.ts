/**
 * Where a workspace-defined profile stands. Untrusted comes first: in an untrusted workspace nothing a repository's
 * settings define is used, not even offered for consent (VS Code 1.139 does not hand the extension a restricted
 * setting's workspace value then at all; this is the same rule, kept should an editor hand it over anyway). Then a
 * refusal (profileReview.ts), then the stored consents of this workspace, then a decline made in this window.
 */
export type WorkspaceConnectionStatus = 'untrusted' | 'refused' | 'allowed' | 'declined' | 'unreviewed';

export interface ConsentFacts {
  readonly trusted: boolean;
  readonly refusal: string | undefined;
  readonly digest: string;
  /** The digests allowed in this workspace. */
  readonly allowed: readonly string[];
  /** The digests declined in this window (memory only). */
  readonly declined: ReadonlySet<string>;
}

export function consentStatusOf(facts: ConsentFacts): WorkspaceConnectionStatus {
  if (!facts.trusted) {
    return 'untrusted';
  }
  if (facts.refusal !== undefined) {
    return 'refused';
  }
  if (facts.allowed.includes(facts.digest)) {
    return 'allowed';
  }
  return facts.declined.has(facts.digest) ? 'declined' : 'unreviewed';
}
