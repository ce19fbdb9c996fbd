// The only C in StateHub: JavaScriptCore's public C API, the GLib main-context calls the
// engine thread needs, and declarations the library exports but no public header has.
// Only the JSEngine module imports this (see Sources/JSEngine/Platform/).
#ifndef CJSCORE_SHIM_H
#define CJSCORE_SHIM_H

#include <JavaScriptCore/JavaScript.h>
#include <glib.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <stdbool.h>

// Exported by libjavascriptcoregtk-4.1 (checked with `nm -D`), declared only in JSC's
// private headers. On Apple platforms these are private API: see docs/engine.md.

/// Called with the rejected promise and its reason when a rejection has no handler,
/// including an error thrown inside a `.then` callback.
void JSGlobalContextSetUnhandledRejectionCallback(JSGlobalContextRef ctx, JSObjectRef function, JSValueRef *exception);

typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
/// Stops scripts running longer than `limit` seconds when `callback` answers true.
void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit, JSShouldTerminateCallback callback, void *context);
void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);
/// The current JavaScript stack as text, one frame a line: `#0 name() at url:line`.
/// Used inside the time-limit callback to say where a stopped script was.
JSStringRef JSContextCreateBacktrace(JSContextRef ctx, unsigned maxStackSize);

/// JavaScriptCore's own termination exception for the VM of `group`, or NULL when the library
/// does not export `JSC::VM::ensureTerminationException()` and `JSC::JSLockHolder` (C++, looked
/// up by their mangled names; a context group is its VM). Thrown from a native function it ends
/// the running script as the watchdog's stop does: JavaScriptCore tells it from any other
/// exception by identity, so no `catch` or `finally` runs, and the microtasks queued after it are
/// dropped. The first call allocates the exception on JavaScriptCore's heap, and a native
/// function runs with the API lock dropped: allocating there aborted in `Heap::stopIfNecessary`
/// (or worse), so the lock is taken around it, as every API call made from a callback does.
static inline JSValueRef cjs_termination_exception(JSContextGroupRef group) {
    void *ensure = dlsym(RTLD_DEFAULT, "_ZN3JSC2VM26ensureTerminationExceptionEv");
    void *lock = dlsym(RTLD_DEFAULT, "_ZN3JSC12JSLockHolderC1EPNS_2VME");
    void *unlock = dlsym(RTLD_DEFAULT, "_ZN3JSC12JSLockHolderD1Ev");
    if (ensure == NULL || lock == NULL || unlock == NULL || group == NULL) return NULL;
    // A JSLockHolder is one RefPtr<VM>; the buffer leaves room to spare.
    void *holder[4] = { NULL, NULL, NULL, NULL };
    ((void (*)(void *, const void *))lock)(holder, group);
    void *exception = ((void *(*)(const void *))ensure)(group);
    ((void (*)(void *))unlock)(holder);
    return (JSValueRef)exception;
}

// GLib helpers: Swift cannot call macros, and G_SOURCE_REMOVE callbacks are simpler here.

static gboolean cjs_source_remove(gpointer data) { (void)data; return G_SOURCE_REMOVE; }

/// A one-shot timeout source attached to `context` whose only job is to wake
/// `g_main_context_iteration` after `milliseconds`. Caller destroys and unrefs it.
static inline GSource *cjs_attach_wakeup_timeout(GMainContext *context, guint milliseconds) {
    GSource *source = g_timeout_source_new(milliseconds);
    g_source_set_callback(source, cjs_source_remove, NULL, NULL);
    g_source_attach(source, context);
    return source;
}

static inline void cjs_source_destroy(GSource *source) {
    g_source_destroy(source);
    g_source_unref(source);
}

// WTF's main thread. The C API never initialises it (WebKit's own process start-up does), so
// `RunLoop::main()` stays null, and JSC's full-GC activity timer crashes on first use of
// `MemoryPressureHandler` (see docs/engine.md, "WTF main thread"). `WTF::initializeMainThread()`
// is exported (`nm -D`) but is C++: it is looked up by its mangled name. Call it on the thread
// meant to be WTF's main thread, after pushing the GLib main context that thread iterates.

/// Asks JavaScriptCore for polling traps (`JSC_usePollingTraps=true`, read from the environment
/// when JavaScriptCore initialises, so call it before the first context group; a value the user
/// set is kept). Compiled code then checks the trap bit at its loop heads instead of waiting for
/// JavaScriptCore's signal sender to suspend the thread: a watchdog timer that fired while no
/// script ran leaves a stop request standing, the next timer then sends no signal, and a loop
/// already compiled by an earlier turn would never be stopped (docs/engine.md, "Polling traps").
static inline void cjs_prefer_polling_traps(void) {
    setenv("JSC_usePollingTraps", "true", 0);
}

/// Calls `WTF::initializeMainThread()` (idempotent inside WTF); false when the library does
/// not export it.
static inline bool cjs_wtf_initialize_main_thread(void) {
    void *symbol = dlsym(RTLD_DEFAULT, "_ZN3WTF20initializeMainThreadEv");
    if (symbol == NULL) return false;
    ((void (*)(void))symbol)();
    return true;
}

/// Whether the calling thread is WTF's main thread (`WTF::isMainThread()`); false when the
/// library does not export it.
static inline bool cjs_wtf_is_main_thread(void) {
    void *symbol = dlsym(RTLD_DEFAULT, "_ZN3WTF12isMainThreadEv");
    if (symbol == NULL) return false;
    return ((bool (*)(void))symbol)();
}

#endif
