#!/bin/sh
# TTS(20,28) on the card: tests/test_card_set.sh.
CARD_SET=20-28 . "${srcdir:-.}/tests/test_card_set.sh"
