/* Reading back challenge manifests (tools/manifest.h). */
#include "manifest.h"

#include <stdio.h>
#include <string.h>

int manifest_field(const char *text, const char *key, char *out, size_t len)
{
    char pat[80];
    int pl = snprintf(pat, sizeof pat, "\"%s\": \"", key);
    if (pl < 0 || (size_t)pl >= sizeof pat || !len)
        return -1;
    const char *s = strstr(text, pat);
    if (!s)
        return -1;
    s += pl;
    size_t n = strcspn(s, "\"\\\n");
    if (s[n] != '"' || n >= len)
        return -1;
    memcpy(out, s, n);
    out[n] = 0;
    return 0;
}

int manifest_commitment(const char *text, char out[129])
{
    if (manifest_field(text, "commitment", out, 129) != 0 ||
        strlen(out) != 128 || strspn(out, "0123456789abcdef") != 128)
        return -1;
    return 0;
}
