#!/bin/bash
# Records docs/kube-behaviour/08-fidelity.md from a fresh reference server
# (shared/reference-server; REF_URL and REF_TOKEN name it): each section is
# a script of 08-fidelity/, run in order.
#   REF_URL=https://127.0.0.1:16443 hack/kube-behaviour/record-08-fidelity.sh > docs/kube-behaviour/08-fidelity.md
set -e
cd "$(dirname "$0")/08-fidelity"
for f in [0-9][0-9]-*.sh; do bash "$f"; done
