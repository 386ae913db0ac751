/**
 * The one-click choices of an approval notification, as command links in its text. VS Code cannot close a message
 * notification (`showWarningMessage`) from the extension, so a request decided elsewhere would stay on screen; a
 * progress notification closes when its task ends, but takes no buttons from an extension (only "Cancel"). Its text
 * does render `[label](command:…)` links, opened with `allowCommands` (VS Code's notification viewer, checked in
 * code-server 1.139.1), so the choices are links (approvalNotifications.ts shows them). They come after the request's
 * words: the notification shows its whole text (it has a button, so VS Code never collapses it to one cut line), and
 * nobody should be offered Allow before seeing what it allows.
 *
 * A link carries only a random token that this window issued for one request and one choice, never the request's
 * key or a decision: a link written by anyone else (an agent's text is stripped of links anyway, notificationText.ts)
 * resolves to nothing. The choice still goes through `ApprovalCenter.decide`, which sends only for a request that
 * still waits and keeps a protected path to "allow once". Pure (no `vscode`).
 */
import type { ApprovalDecision } from '../../protocol/transcriptTypes';
import type { ApprovalKey } from '../../model/runKeys';
import { sanitizeNotificationText } from '../notificationText';

/** The command every link runs, with the token as its one argument (declared in package.json, not in the palette). */
export const NOTIFICATION_LINK_COMMAND = 'agentSwitchboard.approvalNotificationLink';

/** What a link of an approval notification does (its Cancel button, which closes it and decides nothing, is not one). */
export type NotificationChoice = { readonly kind: 'decide'; readonly decision: ApprovalDecision } | { readonly kind: 'rule' } | { readonly kind: 'details' };

export interface LinkTarget {
  readonly approvalKey: ApprovalKey;
  readonly choice: NotificationChoice;
}

export interface ShownChoice {
  readonly label: string;
  readonly choice: NotificationChoice;
}

/**
 * The tokens this window issued, each to one request and one choice. Kept while the request is in the model, so a
 * click that races its settling still reaches `decide` and is answered truthfully; forgotten with the request.
 */
export class NotificationLinkBook {
  private readonly targets = new Map<string, LinkTarget>();

  constructor(private readonly newToken: () => string) {}

  issue(approvalKey: ApprovalKey, choice: NotificationChoice): string {
    const token = this.newToken();
    this.targets.set(token, { approvalKey, choice });
    return token;
  }

  /** The target of a token a link passed back; anything not issued here (or forgotten) is nothing. */
  resolve(token: unknown): LinkTarget | undefined {
    return typeof token === 'string' ? this.targets.get(token) : undefined;
  }

  /** Drops the tokens of requests `keep` says are gone from the model. */
  forgetUnless(keep: (approvalKey: ApprovalKey) => boolean): void {
    for (const [token, target] of this.targets) {
      if (!keep(target.approvalKey)) {
        this.targets.delete(token);
      }
    }
  }

  get size(): number {
    return this.targets.size;
  }
}

/** `command:` URI of a token: JSON args, URI-encoded; a token is hex, so nothing in it can end the link early. */
export function linkUri(token: string): string {
  return `command:${NOTIFICATION_LINK_COMMAND}?${encodeURIComponent(JSON.stringify([token]))}`;
}

/**
 * The notification's text: the (already sanitized) message, then one link per choice. Labels go through the
 * notification sanitizer too (a daemon's "lasts" text is part of some), so no bracket can open or end a link.
 */
export function notificationWithLinks(message: string, choices: readonly ShownChoice[], tokenOf: (choice: NotificationChoice) => string): string {
  const links = choices.map((c) => `[${sanitizeNotificationText(c.label, 60)}](${linkUri(tokenOf(c.choice))})`);
  return `${message} — ${links.join(' · ')}`;
}
