/**
 * Which ACP session modes let the agent act without asking, so every place that shows or offers a mode can say so:
 * Claude Code's `auto` ("Claude handles permission decisions"), `bypassPermissions` and `acceptEdits` (edits without
 * asking); Codex's `agent` ("Auto review", its default), `workspace-write` ("Workspace access") and
 * `agent-full-access`; Gemini CLI's `autoEdit` and `yolo`. A mode is judged by its id and its name, since agents name them freely; an
 * unknown mode is not marked (it may still not ask — the approvals the run shows are what the agent sends). Pure.
 */

/** What a mode that does not ask lets the agent do, in words for a label; undefined for a mode that asks. */
export function autonomyOfMode(id: string, name = ''): string | undefined {
  const words = `${id} ${name}`.toLowerCase();
  if (/bypass|dangerous|yolo|full[\s_-]*access/.test(words)) {
    return 'runs tools and edits without asking';
  }
  if (/accept[\s_-]*edits|auto[\s_-]*edit/.test(words)) {
    return 'edits files without asking';
  }
  if (/auto[\s_-]*review/.test(name.toLowerCase())) {
    return 'edits workspace files without asking; asks only for what it judges unsafe';
  }
  if (/workspace[\s_-]*(write|access)/.test(words)) {
    return 'edits workspace files without asking';
  }
  if (/^auto\b|\bauto[\s_-]*(mode|approve)?$/.test(id.toLowerCase()) || /^auto\b/.test(name.toLowerCase())) {
    return 'decides permissions itself, without asking';
  }
  return undefined;
}

/** The mode's name as shown with the run: `Auto ⚠ decides permissions itself, without asking`. */
export function shownModeName(id: string, name: string): string {
  const autonomy = autonomyOfMode(id, name);
  return autonomy === undefined ? name : `${name} ⚠ ${autonomy}`;
}

/** A mode's description in a picker, led by what it lets the agent do without asking (autonomousModes.ts). */
export function modeDetail(mode: { readonly id: string; readonly name: string; readonly description?: string | null }): { detail?: string } {
  const autonomy = autonomyOfMode(mode.id, mode.name);
  const detail = [autonomy !== undefined ? `⚠ The agent ${autonomy}.` : undefined, mode.description ?? undefined].filter(Boolean).join(' ');
  return detail === '' ? {} : { detail };
}
