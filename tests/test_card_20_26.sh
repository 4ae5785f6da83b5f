#!/bin/sh
# TTS(20,26) on the card: tests/test_card_set.sh.
CARD_SET=20-26 . "${srcdir:-.}/tests/test_card_set.sh"
