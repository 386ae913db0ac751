/**
 * Framing of the screenshots the README shows (copied from test-results/ into docs/screenshots/): the sidebar made
 * wide enough for the change-set view's toolbar and the board's row descriptions for one screenshot, then put back,
 * so the suites that follow find the layout as it was.
 */
import * as vscode from 'vscode';
import { screenshot } from './support';

/** Steps of `workbench.action.decreaseViewWidth` (60 px each): the default 300 px sidebar becomes about 540 px. */
const WIDER_STEPS = 4;

/**
 * Runs `arrange` (what must be on screen: it waits for its own states) with the sidebar wider, saves the screenshot
 * `name`, and puts the width back. "View width" is the editor part's: a narrower editor is a wider sidebar, whatever
 * has the focus.
 */
export async function wideSidebarScreenshot(name: string, arrange: () => Promise<void> = async () => {}): Promise<string> {
  for (let i = 0; i < WIDER_STEPS; i++) {
    await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
  }
  try {
    await arrange();
    return await screenshot(name);
  } finally {
    for (let i = 0; i < WIDER_STEPS; i++) {
      await vscode.commands.executeCommand('workbench.action.increaseViewWidth');
    }
  }
}
