/**
 * Commands whose handlers live in a bundle loaded on first use (extensionBundles.mjs). `package.json` declares them,
 * so they are registered at activation — the palette, menus and keybindings find them from the start — and the
 * first call loads the bundle that handles them.
 */
import * as vscode from 'vscode';

export type CommandHandler = (...args: unknown[]) => unknown;

/**
 * Registers `ids`, each calling the handler of that id in what `load` returns (loaded once, on the first call). A
 * bundle that cannot be loaded (a damaged or partial install) is said in an error message naming `feature` — a menu
 * item's failure is not always shown by VS Code, and a command must never do nothing silently — and the call rejects.
 */
export function registerLazyCommands(ids: readonly string[], load: () => ReadonlyMap<string, CommandHandler>, feature: string): vscode.Disposable[] {
  return ids.map((id) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => {
      let handler: CommandHandler | undefined;
      try {
        handler = load().get(id);
        if (handler === undefined) {
          throw new Error(`${id} has no handler in the bundle that should hold it`);
        }
      } catch (error) {
        const text = error instanceof Error ? error.message : String(error);
        void vscode.window.showErrorMessage(`Agent Switchboard could not load its ${feature} (${id}): ${text}`);
        throw error;
      }
      return handler(...args);
    }),
  );
}
