/* SPDX-License-Identifier: MIT */
#ifndef TEST_RANDOMBYTES_H
#define TEST_RANDOMBYTES_H
void randombytes(unsigned char *out, unsigned long long len);
#endif
