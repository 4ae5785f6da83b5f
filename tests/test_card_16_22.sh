#!/bin/sh
# TTS(16,22) on the card: tests/test_card_set.sh.
CARD_SET=16-22 . "${srcdir:-.}/tests/test_card_set.sh"
