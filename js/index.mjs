/*
 * @statehub/pinia-sync — the ES-module entry a web project (Vite, esbuild, …) imports:
 *
 *   import { createPinia } from 'pinia'
 *   import { createSyncPlugin, invokeNative, onNative } from '@statehub/pinia-sync'
 *   const pinia = createPinia()
 *   pinia.use(createSyncPlugin())
 *
 * The classic scripts below are the implementation (the engine loads them as they are);
 * importing them runs them once and they publish globalThis.StateHubSync and
 * globalThis.StateHubBridge, which this module re-exports. Protocol: docs/PROTOCOL.md.
 */
import './plugin/sync-plugin.js';
import './plugin/chunking.js';   // messages over native's size cap travel in chunks (PROTOCOL.md A.11)
import './bridge/bridge-client.js';

const sync = globalThis.StateHubSync;
const bridge = globalThis.StateHubBridge;

/** Protocol version the plugin speaks (docs/PROTOCOL.md). */
export const PROTOCOL_VERSION = sync.version;
export const createSyncPlugin = sync.createSyncPlugin;
export const flushPending = sync.flushPending;
export const encodeValue = sync.encodeValue;
export const decodeValue = sync.decodeValue;
export const applyOps = sync.applyOps;
export const diffStates = sync.diffStates;
export const OPS_KEY = sync.OPS_KEY;
export const invokeNative = bridge.invokeNative;
export const onNative = bridge.onNative;
export const installDevelopmentStub = bridge.installDevelopmentStub;
export { sync as StateHubSync, bridge as StateHubBridge };
export default createSyncPlugin;
