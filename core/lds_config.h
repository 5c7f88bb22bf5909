/* SPDX-License-Identifier: MIT */
/*
** lds_config.h — build configuration shared by every lodestar header:
** the export macro, the version, and the C++ guard helpers.
** Only <stddef.h>, <stdint.h> and <stdbool.h> may be included from here.
*/
#ifndef LDS_CONFIG_H
#define LDS_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define LDS_VERSION_MAJOR 0
#define LDS_VERSION_MINOR 2
#define LDS_VERSION_PATCH 0
#define LDS_VERSION "0.2.0"

/* LDS_API marks the public entry points. Build the shared library with
** -DLDS_BUILD_SHARED so they are exported with default visibility while
** everything else is compiled -fvisibility=hidden. */
#if defined(_WIN32) && defined(LDS_BUILD_SHARED)
#define LDS_API __declspec(dllexport)
#elif defined(_WIN32) && defined(LDS_USE_SHARED)
#define LDS_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define LDS_API __attribute__((visibility("default")))
#else
#define LDS_API
#endif

/* Cross-file internals (ldsi_*) are hidden from the shared library (a DLL
** exports only what LDS_API marks dllexport, so nothing is needed there). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define LDSI_HIDDEN __attribute__((visibility("hidden")))
#else
#define LDSI_HIDDEN
#endif

#ifdef __cplusplus
#define LDS_BEGIN_DECLS extern "C" {
#define LDS_END_DECLS }
#else
#define LDS_BEGIN_DECLS
#define LDS_END_DECLS
#endif

#endif /* LDS_CONFIG_H */
