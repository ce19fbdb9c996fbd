#ifndef STATEHUB_CWEBKITGTK_SHIM_H
#define STATEHUB_CWEBKITGTK_SHIM_H
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#include <dlfcn.h>
#include <stdbool.h>

/// What `statehub_wtf_claim_main_thread` found.
typedef enum {
    /// The calling thread is WTF's main thread (it is now, or already was).
    STATEHUB_WTF_MAIN_THREAD_OURS = 0,
    /// Another thread had become WTF's main thread first: a `JavaScriptEngine` started before
    /// the first web view (its `jsc:main` initialises WTF). WebKit aborts the process when its
    /// web context is then made on this thread.
    STATEHUB_WTF_MAIN_THREAD_TAKEN = 1,
    /// The library exports neither function: nothing was checked.
    STATEHUB_WTF_MAIN_THREAD_UNKNOWN = 2,
} statehub_wtf_main_thread;

/// Makes the calling thread WTF's main thread unless another one already is, as WebKit's own
/// start-up would (`WTF::initializeMainThread()`, idempotent inside WTF, then
/// `WTF::isMainThread()`). Both are exported C++ functions (`nm -D libjavascriptcoregtk-4.1`)
/// that no header declares, looked up by their mangled names as CJSCore does.
static inline statehub_wtf_main_thread statehub_wtf_claim_main_thread(void) {
    void *initialize = dlsym(RTLD_DEFAULT, "_ZN3WTF20initializeMainThreadEv");
    void *isMain = dlsym(RTLD_DEFAULT, "_ZN3WTF12isMainThreadEv");
    if (initialize == NULL || isMain == NULL) return STATEHUB_WTF_MAIN_THREAD_UNKNOWN;
    ((void (*)(void))initialize)();
    return ((bool (*)(void))isMain)() ? STATEHUB_WTF_MAIN_THREAD_OURS : STATEHUB_WTF_MAIN_THREAD_TAKEN;
}
#endif
