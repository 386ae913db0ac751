/** The driver for each protocol. */
import type { ProtocolName } from '../model/modelTypes';
import { AgencyProxyDriver } from './agencyProxy/agencyProxyDriver';
import type { DriverFactory } from './connectionManager';

export const driverFactories: Partial<Record<ProtocolName, DriverFactory>> = {
  'agency-proxy': (context) => new AgencyProxyDriver(context),
};
