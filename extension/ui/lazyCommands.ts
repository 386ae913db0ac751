/**
 * Commands whose handlers live in a bundle loaded on first use (extensionBundles.mjs). `package.json` declares them,
 * so they are registered at activation — the palette, menus and keybindings find them from the start — and the
 * first call loads the bundle that handles them.
 */
import * as vscode from 'vscode';

export type CommandHandler = (...args: unknown[]) => unknown;

/** Registers `ids`, each calling the handler of that id in what `load` returns (loaded once, on the first call). */
export function registerLazyCommands(ids: readonly string[], load: () => ReadonlyMap<string, CommandHandler>): vscode.Disposable[] {
  return ids.map((id) =>
    vscode.commands.registerCommand(id, (...args: unknown[]) => {
      const handler = load().get(id);
      if (handler === undefined) {
        throw new Error(`${id} has no handler in the bundle that should hold it`);
      }
      return handler(...args);
    }),
  );
}
