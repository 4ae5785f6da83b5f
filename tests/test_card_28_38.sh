#!/bin/sh
# TTS(28,38) on the card: tests/test_card_set.sh.
CARD_SET=28-38 . "${srcdir:-.}/tests/test_card_set.sh"
