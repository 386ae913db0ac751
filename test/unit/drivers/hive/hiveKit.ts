/** Shared setup for the hive unit tests: a fresh fake hive per test plus clients with a recording FrameTap. */
import { HiveClient } from '../../../../extension/drivers/hive/client';
import type { HiveClientOptions, HiveSocketRole } from '../../../../extension/drivers/hive/hiveClientOptions';
import type { FrameDirection } from '../../../../extension/transport/frameTap';
import { FakeHive } from '../../../fixtures/hive/hive';
import type { FakeHiveOptions } from '../../../fixtures/hive/hive';
import { withSuiteTrace } from '../../trace/suiteTrace';

export interface RecordedFrame {
  readonly dir: FrameDirection;
  readonly frame: unknown;
}

export interface HiveKit {
  readonly hive: FakeHive;
  readonly frames: RecordedFrame[];
  readonly manager: HiveClient;
  agent(name: string, role?: HiveSocketRole, options?: Partial<HiveClientOptions>): HiveClient;
}

/** Runs `fn` against a fresh fake hive and always stops it. */
export async function withHive(fn: (kit: HiveKit) => Promise<void>, options: FakeHiveOptions = {}): Promise<void> {
  const hive = new FakeHive({ recvMaxWaitSeconds: 2, ...options });
  await hive.start();
  const frames: RecordedFrame[] = [];
  const frameTap = withSuiteTrace('hive', 'fake hive', (dir: FrameDirection, frame: unknown): void => {
    frames.push({ dir, frame });
  });
  const client = (socketPath: string, role: HiveSocketRole, extra: Partial<HiveClientOptions> = {}): HiveClient =>
    new HiveClient({ socketPath, role, frameTap, timeoutMs: 3000, retryDelayMs: 10, ...extra });
  try {
    await fn({
      hive,
      frames,
      manager: client(hive.managerSocket, 'manager'),
      agent: (name, role = 'agent', extra) => client(hive.agentSocket(name), role, extra),
    });
  } finally {
    await hive.stop();
  }
}

/** `Lenient<T>[]` → the parsed values; fails the test if any element fell back to raw. */
export function values<T>(items: readonly ({ ok: true; value: T } | { ok: false; raw: unknown })[]): T[] {
  return items.map((item) => {
    if (!item.ok) {
      throw new Error(`unexpected raw element: ${JSON.stringify(item.raw)}`);
    }
    return item.value;
  });
}
