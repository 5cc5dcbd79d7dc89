#!/bin/bash
# cpu.sh SECONDS name=pid ... prints the CPU time (user + system) each
# process used over a window of SECONDS, to divide by the requests or
# writes perfcompare reports for the same window (docs/performance.md,
# issue 18). Example, CPU per GET of one server while perfcompare runs:
#
#   ./perfcompare -rounds 1 -get-duration 8s -kubeconfig k.kubeconfig -name k -workloads get & sleep 3
#   ./cpu.sh 4 server=$SERVER_PID etcd=$ETCD_PID client=$!
set -euo pipefail
d=$1
shift
tick=$(getconf CLK_TCK)
declare -A before
for np in "$@"; do
	before[${np%%=*}]=$(awk '{print $14 + $15}' "/proc/${np#*=}/stat")
done
sleep "$d"
for np in "$@"; do
	after=$(awk '{print $14 + $15}' "/proc/${np#*=}/stat")
	echo "${np%%=*} $(((after - before[${np%%=*}]) * 1000 / tick)) ms"
done
