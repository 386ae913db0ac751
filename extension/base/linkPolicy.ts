/**
 * Which links from agent output the editor may open. Agent text is untrusted: a `command:` link would run any VS
 * Code command with attacker-chosen arguments, `file:`/`vscode:` links open local resources or install
 * extensions. So only web and mail links are ever opened, and only after the user confirmed the exact address;
 * there is no outcome that opens without asking. Pure, so the rule is tested without VS Code; the UI passes the
 * scheme exactly as `vscode.Uri.parse` read it (the same parser that will open it).
 */
export const OPENABLE_LINK_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'mailto']);

export type LinkDecision =
  /** Ask the user (showing the full address); open only on an explicit "Open". */
  | { readonly kind: 'confirm'; readonly scheme: string }
  /** Never open; tell the user why. */
  | { readonly kind: 'refuse'; readonly scheme: string };

export function linkOpenDecision(scheme: string): LinkDecision {
  return OPENABLE_LINK_SCHEMES.has(scheme) ? { kind: 'confirm', scheme } : { kind: 'refuse', scheme };
}
