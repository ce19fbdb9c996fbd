#ifndef STATEHUB_CWEBKITGTK_SHIM_H
#define STATEHUB_CWEBKITGTK_SHIM_H
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>
#endif
