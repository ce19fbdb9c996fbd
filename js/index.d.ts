// Type declarations of @statehub/pinia-sync (written by hand beside the JSDoc of
// plugin/sync-plugin.js and bridge/bridge-client.js; the wire format is docs/PROTOCOL.md).

// ---------------------------------------------------------------------------------------------
// Store sync (PROTOCOL.md part A)
// ---------------------------------------------------------------------------------------------

/** One step of a path: an object key (string) or an array index (number). */
export type PathStep = string | number

/** A path from a store's state root; `[]` is the root. */
export type Path = PathStep[]

/** Values JSON cannot carry, tagged (A.3). */
export type TaggedValue =
  | { $type: 'undefined' }
  | { $type: 'Date'; value: string | null }
  | { $type: 'Map'; entries: [EncodedValue, EncodedValue][] }
  | { $type: 'Set'; values: EncodedValue[] }
  | { $type: 'BigInt'; value: string }
  | { $type: 'Number'; value: 'NaN' | 'Infinity' | '-Infinity' }
  | { $type: 'Object'; value: { [key: string]: EncodedValue } }

/** A JSON value in the tagged encoding. */
export type EncodedValue =
  | null
  | boolean
  | number
  | string
  | EncodedValue[]
  | TaggedValue
  | { [key: string]: EncodedValue }

/** The operation kinds (A.2). */
export type OpKind = 'set' | 'delete' | 'splice'

export type SetOp = { op: 'set'; path: Path; value: EncodedValue }
export type DeleteOp = { op: 'delete'; path: Path }
export type SpliceOp = { op: 'splice'; path: Path; index: number; deleteCount: number; items: EncodedValue[] }
/** A Map or Set changed in place is addressed by position in its tagged value's `entries` / `values` array (A.3.1). */
export type Op = SetOp | DeleteOp | SpliceOp

/** Pinia's mutation types. */
export type MutationTypeName = 'direct' | 'patch object' | 'patch function'

/** One mutation of a message: its type, the action running when it happened, its ops (A.5.2). */
export interface WireMutation {
  type: MutationTypeName
  /** The innermost action running when the write happened; absent outside actions. */
  action?: string
  /** The id of that action call (per engine, counting up from 1); present with `action`. */
  call?: number
  /** The call that was running when this call started; absent for an outermost call (A.5.2). */
  parent?: number
  /** The outermost call of the chain; absent when it is `call` itself. */
  root?: number
  /** The messageId of the native dispatch_action at the root of the chain; absent when page code called it. */
  dispatch?: string | number
  ops: Op[]
}

/** Error codes the plugin sends in `error` messages (A.5.6). */
export type SyncErrorCode = 'unserializable_state' | 'bad_message' | 'unknown_store' | 'op_failed' | 'state_too_deep' | 'getter_failed'

/** A store's getters by name, in the tagged encoding of the state (A.13): computed by the page, never written by native. */
export type WireGetters = { [getter: string]: EncodedValue }

/** Error codes of a failed `action_result` (A.5.4). */
export type ActionErrorCode = 'action_threw' | 'unknown_action' | 'unknown_store' | 'bad_message'

interface EnvelopeBase<Type extends string, Payload> {
  v: 1
  storeId: string | null
  messageId: string | number
  type: Type
  payload: Payload
}

/** A message from the page to native (`nativeBridge.postMessage`). */
export type WebToNativeMessage =
  | (EnvelopeBase<'sync_state', {
      /** PROTOCOL.md A.5.1: with `reason: 'created'` only, first in `payload`; action → declared parameter names ("...rest", null when destructured). */
      actionParameters?: { [action: string]: (string | null)[] };
      state: { [key: string]: EncodedValue };
      /** A.13: every getter of the store; absent when it has none. */
      getters?: WireGetters;
      reason: 'created' | 'resync' | 'hydrated';
    }> & WebSequence)
  | (EnvelopeBase<'apply_mutation', {
      mutations: WireMutation[];
      /** A.13: only the getters whose value changed since the last message that carried them; absent when none did. */
      getters?: WireGetters;
    }> & WebSequence)
  | (EnvelopeBase<'action_result',
      | { ok: true; value: EncodedValue }
      | { ok: false; error: { code: ActionErrorCode; name: string; message: string; stack: string } }> & Partial<WebSequence>)
  | (EnvelopeBase<'store_disposed', {}> & WebSequence)
  | (EnvelopeBase<'error', { code: SyncErrorCode; message: string; path?: Path; detail?: { [key: string]: unknown } }> & Partial<WebSequence>)

interface WebSequence {
  /** Per store, per engine; 1 on `sync_state` "created" (A.4). */
  seq: number
  /** The messageId of the last native sync_state / apply_mutation applied, as sent (A.1). */
  ack?: string | number
}

/** A message from native to the page (`nativeBridge.dispatch(json)`). */
export type NativeToWebMessage =
  | EnvelopeBase<'dispatch_action', { action: string; args?: EncodedValue[] }>
  | EnvelopeBase<'sync_state', { state: { [key: string]: EncodedValue } }>
  | EnvelopeBase<'apply_mutation', { mutations: WireMutation[] }>
  | EnvelopeBase<'request_sync', { reason?: 'seq_gap' | 'op_failed' | 'oversize' | 'bad_message' | 'manual'; detail?: string }>

/** Options of createSyncPlugin. */
export interface SyncPluginOptions {
  /**
   * `'tick'` (default): every mutation of one microtask tick of a store in one message.
   * `'sync'`: one message per mutation, posted synchronously.
   */
  flush?: 'tick' | 'sync'
  /**
   * Where messages go. Default: `window.webkit.messageHandlers.nativeBridge.postMessage`; without
   * it (and without this option) the plugin is inert and warns once.
   */
  post?: (json: string) => void
}

/** What Pinia gives a plugin (the parts the sync plugin uses). */
export interface PiniaPluginContextLike {
  store: {
    $id: string
    $state: object
    $subscribe: (...args: any[]) => () => void
    $onAction: (...args: any[]) => () => void
    $patch: (...args: any[]) => void
    $dispose: () => void
  }
  options: { actions?: { [name: string]: Function } }
}

/** A Pinia plugin: `pinia.use(createSyncPlugin())`. */
export type SyncPlugin = (context: PiniaPluginContextLike) => void

/** Creates the plugin that mirrors every store of a pinia to native. */
export function createSyncPlugin(options?: SyncPluginOptions): SyncPlugin
export default createSyncPlugin

/** Posts every pending batch now (tests; native before a synchronous read). */
export function flushPending(): void
/**
 * Encodes a JS value into the tagged JSON form; unserialisable values become `{"$type":"undefined"}`
 * and are reported in `errors`. `baseDepth`: the state levels above the value (its op path's
 * length; 0 for values outside the state), counted against the depth bound (PROTOCOL.md).
 */
export function encodeValue(value: unknown, basePath?: Path, errors?: { kind: string; path: Path; className?: string }[], baseDepth?: number): EncodedValue
/** Decodes tagged values back into Date, Map, Set, undefined, BigInt, NaN/Infinity (in place). */
export function decodeValue(value: EncodedValue): unknown
/**
 * Applies ops to a plain object in place; returns the (possibly replaced) root. `replaceRoot`
 * replaces the whole state for a `set` at `[]` (default: delete the missing keys, assign the rest).
 */
export function applyOps<T extends object>(root: T, ops: Op[], replaceRoot?: (root: T, value: unknown) => T): T
/** The ops that turn one encoded state into another. */
export function diffStates(before: EncodedValue, after: EncodedValue): Op[]
/** `Symbol.for('statehub.ops')`: where StateHub's runtime puts a mutation's exact ops. */
export const OPS_KEY: unique symbol
export const PROTOCOL_VERSION: 1

// ---------------------------------------------------------------------------------------------
// Capability bridge (PROTOCOL.md part B)
// ---------------------------------------------------------------------------------------------

export type BridgeErrorCode =
  | 'unknown_action'
  | 'bad_payload'
  | 'refused'
  | 'url_not_allowed'
  | 'payload_too_large'
  | 'handler_failed'
  | 'timeout'
  | 'no_native_shell'

/** How a failed invokeNative call rejects. */
export interface BridgeError extends Error {
  code: BridgeErrorCode | string
}

export interface InvokeOptions {
  /** Milliseconds before rejecting with code `timeout` (default 15000; 0 or Infinity: none). */
  timeout?: number
}

/** Calls a native capability; resolves with its `data`, rejects with a BridgeError. */
export function invokeNative<Result = unknown>(action: string, payload?: object | null, options?: InvokeOptions): Promise<Result>

/** Listens to a native event; returns the function that stops listening. */
export function onNative<Data = unknown>(event: string, callback: (data: Data) => void): () => void

/** Answers invokeNative calls in a page with no native shell (development in a browser). */
export function installDevelopmentStub(handlers: {
  [action: string]: (payload: any) => unknown
}): { emit(event: string, data?: unknown): void; uninstall(): void }

export declare const StateHubSync: {
  version: 1
  createSyncPlugin: typeof createSyncPlugin
  encodeValue: typeof encodeValue
  decodeValue: typeof decodeValue
  diffStates: typeof diffStates
  applyOps: typeof applyOps
  flushPending: typeof flushPending
  dispatch(json: string): void
  OPS_KEY: typeof OPS_KEY
}

export declare const StateHubBridge: {
  invokeNative: typeof invokeNative
  onNative: typeof onNative
  receive(json: string): void
  installDevelopmentStub: typeof installDevelopmentStub
}
