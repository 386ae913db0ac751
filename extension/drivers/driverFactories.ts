/** The driver for each protocol. */
import type { ProtocolName } from '../model/modelTypes';
import type { DriverFactory } from './connectionManager';

export const driverFactories: Partial<Record<ProtocolName, DriverFactory>> = {};
