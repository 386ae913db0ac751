/**
 * The extension's log channel with every secret value the host knows redacted from everything written to it
 * (transport/secretValues.ts): the message, string arguments, an Error's message and stack, objects (by key and by
 * value, as the protocol trace). extension.ts wraps the channel it creates once, so every writer — commands, views,
 * each driver's `DriverContext.log` — goes through it without knowing.
 */
import type * as vscode from 'vscode';
import type { SecretValues } from '../transport/secretValues';
import { redactSecrets } from '../transport/traceRedaction';

/** One log argument, redacted: VS Code formats what it is given, so an Error becomes its (redacted) stack. */
function redactArg(arg: unknown, values: SecretValues): unknown {
  if (typeof arg === 'string') {
    return values.redact(arg);
  }
  if (arg instanceof Error) {
    return values.redact(arg.stack ?? `${arg.name}: ${arg.message}`);
  }
  return redactSecrets(arg, values);
}

export function redactingLog(channel: vscode.LogOutputChannel, values: SecretValues): vscode.LogOutputChannel {
  const args = (rest: readonly unknown[]): unknown[] => rest.map((a) => redactArg(a, values));
  return {
    get name() {
      return channel.name;
    },
    get logLevel() {
      return channel.logLevel;
    },
    onDidChangeLogLevel: channel.onDidChangeLogLevel,
    trace: (message, ...rest) => channel.trace(values.redact(message), ...args(rest)),
    debug: (message, ...rest) => channel.debug(values.redact(message), ...args(rest)),
    info: (message, ...rest) => channel.info(values.redact(message), ...args(rest)),
    warn: (message, ...rest) => channel.warn(values.redact(message), ...args(rest)),
    error: (error, ...rest) => channel.error(typeof error === 'string' ? values.redact(error) : (redactArg(error, values) as string), ...args(rest)),
    append: (value) => channel.append(values.redact(value)),
    appendLine: (value) => channel.appendLine(values.redact(value)),
    replace: (value) => channel.replace(values.redact(value)),
    clear: () => channel.clear(),
    show: (...showArgs: [boolean?] | [vscode.ViewColumn?, boolean?]) => (channel.show as (...a: unknown[]) => void)(...showArgs),
    hide: () => channel.hide(),
    dispose: () => channel.dispose(),
  };
}
