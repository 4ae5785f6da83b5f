/* SPDX-License-Identifier: MIT */
/* The Cortex-M build has no C library: cortexm/main.c defines these. */
#ifndef TTS_CM_STRING_H
#define TTS_CM_STRING_H
#include <stddef.h>
void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
#endif
