package builtin_test

import (
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
)

// TestValidationAnswersAsKube137 replays the validation cases recorded
// against kube-apiserver 1.33.13 (testdata/kube-validation*.json, 575
// requests), as kube-apiserver 1.37.2 answered them
// (testdata/kube-1.37-validation.json, from
// docs/kube-behaviour/19-releases/record-validation.py), against kapi at
// 1.37. Each case where kapi does not answer as 1.37 is listed in
// diverging137 under the class of change it belongs to (19-releases.md).
func TestValidationAnswersAsKube137(t *testing.T) {
	replayKubeCasesAt(t, apiserver.Release137, diverging137, "testdata/kube-1.37-validation.json")
}

// The classes of what kube 1.37 answers otherwise than 1.33 in these cases.
const (
	// kube 1.36+ reports a change to a field declarative validation keeps
	// immutable with no value (null), where kapi prints the value.
	immutableNull137 = "1.37 reports this immutable field's value as null (declarative validation); kapi prints it"
	// Validation moved to declarative rules for these kinds (HPA, CronJob,
	// PDB, ResourceQuota, StorageClass, VolumeAttachment, Node, CSINode,
	// IPAddress, Ingress, NetworkPolicy, RuntimeClass, EndpointSlice,
	// StatefulSet, RBAC, CSR, Service names...): other wording, other
	// order, other causes.
	wording137 = "1.37 words or orders these causes otherwise (declarative validation); kapi answers as 1.33"
	// A cause 1.33 reported twice (two validation passes) 1.37 reports once.
	causes137 = "1.37 reports a cause once that 1.33 reported twice; kapi as 1.33"
	// 1.37 accepts what 1.33 refused: an HPA scaling to zero with an
	// external metric, Service and Ingress backend names that start with
	// a digit (relaxations behind gates on by default by 1.37).
	relaxed137 = "1.37 accepts this (a relaxation on by default by 1.37); kapi refuses it as 1.33"
	// 1.37 refuses IP addresses and CIDRs 1.33 accepted (leading zeros,
	// a CIDR with host bits set).
	strictIP137 = "1.37 refuses this address or CIDR (stricter IP parsing); kapi accepts it as 1.33"
	// The recording replays each case on one live server: these depend on
	// state left by earlier cases (a PersistentVolume kept by its
	// pv-protection finalizer without controllers) or on a resourceVersion
	// the live server required.
	liveState137 = "recorded on a live server with earlier cases' state; not comparable"
)

var diverging137 = map[string]string{
	"a CSI volume is accepted":        liveState137,
	"a volume's claim ref may be set": liveState137,
}
