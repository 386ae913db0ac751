/**
 * What the agent and the terminal processes share about the supervisor's process group (agentSupervisor.ts): its
 * report of a failed spawn, a signal to the whole group, and a timer that does not keep the host alive.
 */

/** The supervisor's report of a failed spawn (`{"spawnError":"ENOENT"}` on fd 3), if it made one. */
export function spawnErrorIn(text: string): string | undefined {
  for (const line of text.split('\n')) {
    try {
      const code = (JSON.parse(line) as { spawnError?: unknown }).spawnError;
      if (typeof code === 'string') {
        return code;
      }
    } catch {
      // not a report
    }
  }
  return undefined;
}

/** `signal` to every process of the group led by `pgid` (nothing when the group is empty already). */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is empty already
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
