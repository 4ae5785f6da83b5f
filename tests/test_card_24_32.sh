#!/bin/sh
# TTS(24,32) on the card: tests/test_card_set.sh.
CARD_SET=24-32 . "${srcdir:-.}/tests/test_card_set.sh"
