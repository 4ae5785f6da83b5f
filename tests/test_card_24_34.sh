#!/bin/sh
# TTS(24,34) on the card: tests/test_card_set.sh.
CARD_SET=24-34 . "${srcdir:-.}/tests/test_card_set.sh"
