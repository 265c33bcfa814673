#!/bin/sh
# `tee_engine.sh LOG BOARDLAB GAME AGENT`: `BOARDLAB engine --game GAME
# --agent AGENT`, with every line it is sent appended to LOG, so that a test
# can read what the external agent said.
log="$1"; shift
boardlab="$1"; shift
tee -a "$log" | "$boardlab" engine --game "$1" --agent "$2"
