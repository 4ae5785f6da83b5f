/* SPDX-License-Identifier: MIT */
/* tts-bench micro (bench/exp_micro.c): argv[1] is "micro"; the exit status. */
#ifndef TTS_EXP_MICRO_H
#define TTS_EXP_MICRO_H

int micro_cli(int argc, char **argv);

#endif
