/**
 * How the run board suite (board.test.ts) drives and reads the board: its connections, a new AgencyProxy run, a
 * run's row as the board projects it, the rows' texts in the workbench, and the computed colour of a row's icon
 * against the current theme's value of its token.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { api } from './support';
import { ui } from './support';

export const AP_NAME = 'Board daemon';
export const AP = `agency-proxy:${AP_NAME}`;
export const ACP_NAME = 'Board agent';
export const ACP = `acp:${ACP_NAME}`;
/** The board's rows in the workbench (its pane is the one headed "Runs"). */
export const BOARD_ROWS = '.pane:has(.pane-header:has-text("Runs")) .monaco-list-row';
/** The sidebar's views below the board. */
export const OTHER_VIEWS = ['Connections', 'Approval Rules', 'Transcript'];

type Api = Awaited<ReturnType<typeof api>>;

export async function newApRun(prompt: string, interactive = false): Promise<string> {
  const runKey = await vscode.commands.executeCommand('agentSwitchboard.newRun', { connectionId: AP, provider: 'claude', model: '', permission: 'edit', prompt, interactive });
  assert.equal(typeof runKey, 'string', 'the command returns the new run');
  return runKey as string;
}

export function rowOf(a: Api, runKey: string) {
  return a.board.provider
    .snapshot()
    .flatMap((g) => g.rows)
    .find((r) => r.runKey === runKey);
}

/** `#rgb` / `#rrggbb` / `#rrggbbff` (a theme token's value) as the browser computes a colour: `rgb(r, g, b)`. */
function rgbOf(hex: string): string {
  const h = hex.trim().replace(/^#/, '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.length === 8 && h.endsWith('ff') ? h.slice(0, 6) : h;
  assert.match(full, /^[0-9a-f]{6}$/i, `an opaque colour: ${hex}`);
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

/** The computed colour of the icon of the board row showing `text`, and the current theme's value of `token`. */
export async function iconColour(text: string, token: string): Promise<{ icon: string; token: string }> {
  const variable = `--vscode-${token.replace(/\./g, '-')}`;
  const style = await ui<Record<string, string>>({ action: 'style', selector: `${BOARD_ROWS}:has-text("${text}") .custom-view-tree-node-item-icon`, properties: ['color', variable] });
  return { icon: style.color ?? '', token: rgbOf(style[variable] ?? '') };
}

export async function boardTexts(): Promise<string[]> {
  return ui<string[]>({ action: 'text', selector: BOARD_ROWS }).catch((): string[] => []);
}
