/**
 * The one place that lists the daemons: for each protocol (every name in PROTOCOL_NAMES — the compiler checks none
 * is missing) the factory of its driver and the actions it declares (kit/daemonActions.ts). The UI builds its
 * daemon-specific commands, menus and buttons from here; it never names a driver class.
 */
import type { ProtocolName } from '../model/modelTypes';
import { A3S_ACTIONS } from './a3s/a3sActions';
import { ACP_ACTIONS } from './acp/acpActions';
import { forgetSignIn } from './acp/acpLaunch';
import { AGENCY_PROXY_ACTIONS } from './agencyProxy/agencyProxyActions';
import type { DriverFactory } from './connectionManager';
import type * as DriverClasses from './driverClasses';
import { HIVE_ACTIONS } from './hive/hiveActions';
import type { DaemonAction } from './kit/daemonActions';
import type { DriverSecrets } from './kit/workspaceAccess';
import { SCV_ACTIONS } from './scv/scvActions';

export interface DaemonEntry {
  readonly create: DriverFactory;
  /** The daemon's own actions, beyond what every driver offers through `Driver` (start, send, cancel, decide…). */
  readonly actions: readonly DaemonAction[];
  /**
   * Deletes everything a connection of this daemon keeps in its secret store (its profile was removed); resolves
   * whether anything was kept. Absent: the driver keeps no secrets.
   */
  readonly forgetSecrets?: (secrets: DriverSecrets) => Promise<boolean>;
}

let loaded: typeof DriverClasses | undefined;

/**
 * The driver classes, loaded when the first connection opens (in the shipped extension a bundle of its own:
 * driverClasses.ts says why), not at activation.
 */
function drivers(): typeof DriverClasses {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load of a separate bundle, by design
  loaded ??= require('./driverClasses') as typeof DriverClasses;
  return loaded;
}

export const daemonRegistry: Readonly<Record<ProtocolName, DaemonEntry>> = {
  'agency-proxy': { create: (context) => new (drivers().AgencyProxyDriver)(context), actions: AGENCY_PROXY_ACTIONS },
  scv: { create: (context) => new (drivers().ScvDriver)(context), actions: SCV_ACTIONS },
  a3s: { create: (context) => new (drivers().A3sDriver)(context), actions: A3S_ACTIONS },
  hive: { create: (context) => new (drivers().HiveDriver)(context), actions: HIVE_ACTIONS },
  acp: {
    create: (context) => new (drivers().AcpDriver)(context),
    actions: ACP_ACTIONS,
    forgetSecrets: async (secrets) => {
      const forgotten = await forgetSignIn(secrets);
      return forgotten.methodId !== undefined || forgotten.variables.length > 0;
    },
  },
};

/** The factories the ConnectionManager creates drivers with. */
export const driverFactories: Readonly<Record<ProtocolName, DriverFactory>> = Object.fromEntries(
  Object.entries(daemonRegistry).map(([protocol, entry]) => [protocol, entry.create]),
) as Record<ProtocolName, DriverFactory>;

export interface RegisteredAction {
  readonly protocol: ProtocolName;
  readonly action: DaemonAction;
}

/** Every declared action with its daemon, in registry order. */
export function registeredActions(): readonly RegisteredAction[] {
  return Object.entries(daemonRegistry).flatMap(([protocol, entry]) => entry.actions.map((action) => ({ protocol: protocol as ProtocolName, action })));
}
