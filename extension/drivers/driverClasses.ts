/**
 * The five drivers, as one module: in the shipped extension a bundle of its own (dist/driverClasses.js, see
 * extensionBundles.mjs) that daemonRegistry.ts requires when the first connection opens, so activation does not load
 * the drivers, their protocol schemas and their copy of zod. One bundle for all five, not one each: the kit they
 * share (base driver, run recorder, journals, reconnect loop) is then loaded once and exists once.
 */
export { A3sDriver } from './a3s/a3sDriver';
export { AcpDriver } from './acp/acpDriver';
export { AgencyProxyDriver } from './agencyProxy/agencyProxyDriver';
export { HiveDriver } from './hive/hiveDriver';
export { ScvDriver } from './scv/scvDriver';
