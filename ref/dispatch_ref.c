/* SPDX-License-Identifier: MIT */
/* The backend list of a build of ref/ alone (without opt/): the portable
 * reference kernels only. The full build links opt/dispatch.c instead. */
#include "internal.h"

static const tts_kernels *probe_ref(void) { return &tts_kernels_ref; }

const tts_backend_entry tts_backend_table[] = {{"ref", probe_ref}};
const size_t tts_backend_table_len = 1;
