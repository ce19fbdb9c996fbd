/*
 * A typed micro-app: the sync plugin, the bridge client and invokeNative as a TypeScript project
 * sees them through js/index.d.ts. scripts/check-js-types.sh compiles it with `tsc --noEmit
 * --strict`; each `@ts-expect-error` line is a misuse the declarations must refuse (tsc fails
 * when such a line compiles).
 */
import createSyncPlugin, {
  flushPending, invokeNative, onNative, installDevelopmentStub, encodeValue, diffStates,
  PROTOCOL_VERSION, type BridgeError, type PiniaPluginContextLike, type SyncPlugin, type Op,
} from '@statehub/pinia-sync'

/** The parts of a pinia this example needs: real Pinia's `Pinia` has `use` with this shape. */
interface PiniaLike { use(plugin: (context: PiniaPluginContextLike) => void): void }

export function installSync(pinia: PiniaLike, post?: (json: string) => void): SyncPlugin {
  const plugin = createSyncPlugin({ flush: 'tick', post })
  pinia.use(plugin)
  return plugin
}

interface Profile { id: string; name: string }

export async function loadProfile(userId: string): Promise<Profile | null> {
  try {
    const profile = await invokeNative<Profile>('getProfile', { userId }, { timeout: 5_000 })
    return profile
  } catch (error) {
    const failure = error as BridgeError
    if (failure.code === 'timeout' || failure.code === 'no_native_shell') return null
    throw failure
  }
}

export function watchTheme(apply: (theme: { version: string }) => void): () => void {
  return onNative<{ version: string }>('themeChanged', apply)
}

export function developInABrowser(): () => void {
  const stub = installDevelopmentStub({ getProfile: (payload: { userId: string }) => ({ id: payload.userId, name: 'Ana' }) })
  stub.emit('themeChanged', { version: '1.2.0' })
  return () => stub.uninstall()
}

export function opsBetween(before: object, after: object): Op[] {
  flushPending()
  const version: 1 = PROTOCOL_VERSION
  void version
  return diffStates(encodeValue(before), encodeValue(after))
}

// Misuses the declarations refuse.
// @ts-expect-error: an action name is a string
invokeNative(42)
// @ts-expect-error: flush is 'tick' or 'sync'
createSyncPlugin({ flush: 'later' })
// @ts-expect-error: onNative returns the function that stops listening, not a promise
onNative('x', () => {}).then(() => {})
