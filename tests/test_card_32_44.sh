#!/bin/sh
# TTS(32,44) on the card: tests/test_card_set.sh.
CARD_SET=32-44 . "${srcdir:-.}/tests/test_card_set.sh"
