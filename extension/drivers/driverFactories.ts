/** The driver for each protocol (every name in PROTOCOL_NAMES: the compiler checks none is missing). */
import type { ProtocolName } from '../model/modelTypes';
import { A3sDriver } from './a3s/a3sDriver';
import { AgencyProxyDriver } from './agencyProxy/agencyProxyDriver';
import type { DriverFactory } from './connectionManager';
import { HiveDriver } from './hive/hiveDriver';
import { ScvDriver } from './scv/scvDriver';

export const driverFactories: Record<ProtocolName, DriverFactory> = {
  'agency-proxy': (context) => new AgencyProxyDriver(context),
  a3s: (context) => new A3sDriver(context),
  scv: (context) => new ScvDriver(context),
  hive: (context) => new HiveDriver(context),
};
