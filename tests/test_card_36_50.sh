#!/bin/sh
# TTS(36,50) on the card: tests/test_card_set.sh.
CARD_SET=36-50 . "${srcdir:-.}/tests/test_card_set.sh"
