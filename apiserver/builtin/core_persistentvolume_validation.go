package builtin

import (
	"fmt"
	"path"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// Validate is kube's ValidatePersistentVolume: access modes, a storage
// capacity above zero, the reclaim policy, node affinity, exactly one
// volume source (and what the common ones need), the class name and the
// volume mode.
func (persistentVolumeStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	e.persistentVolumeSpec(asMap(o["spec"]))
	return e.list
}

// ValidateUpdate is kube's ValidatePersistentVolumeUpdate: the new volume
// as on create, its source and mode kept, a node affinity once set kept.
// A write to /status is not checked further (kube checks only metadata).
func (s persistentVolumeStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if w.Subresource == "status" {
		return nil
	}
	e := fieldErrs{release: w.Release()}
	spec, oldSpec := asMap(o["spec"]), asMap(old["spec"])
	// kube's strategy validates the new volume, then
	// ValidatePersistentVolumeUpdate validates it again: errors come twice.
	e.persistentVolumeSpec(spec)
	e.persistentVolumeSpec(spec)
	for _, src := range pvSources {
		if !equalJSON(spec[src], oldSpec[src]) {
			e.forbidden("spec.persistentvolumesource", "spec.persistentvolumesource is immutable after creation")
			break
		}
	}
	if !equalJSON(spec["volumeMode"], oldSpec["volumeMode"]) {
		e.invalid("volumeMode", spec["volumeMode"], "field is immutable")
	}
	if oldSpec["nodeAffinity"] != nil && !equalJSON(spec["nodeAffinity"], oldSpec["nodeAffinity"]) {
		e.invalid("nodeAffinity", kubeValue{"core.VolumeNodeAffinity{Required:(*core.NodeSelector)(0x…)}", volumeNodeAffinityJSON(spec["nodeAffinity"])},
			"field is immutable, except for updating from beta label to GA")
	}
	return e.list
}

// pvSources are a PersistentVolumeSource's fields, in the order kube
// checks them.
var pvSources = []string{"hostPath", "gcePersistentDisk", "awsElasticBlockStore", "glusterfs", "flocker", "nfs",
	"rbd", "quobyte", "cephfs", "iscsi", "cinder", "fc", "flexVolume", "azureFile", "vsphereVolume",
	"photonPersistentDisk", "portworxVolume", "azureDisk", "scaleIO", "local", "storageos", "csi"}

func (e *fieldErrs) persistentVolumeSpec(spec map[string]any) {
	modes := meta.AsList(spec["accessModes"])
	if len(modes) == 0 {
		e.required("spec.accessModes")
	}
	rwop, other := false, false
	for _, m := range modes {
		e.enum("spec.accessModes", m, "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod")
		if m == "ReadWriteOncePod" {
			rwop = true
		} else {
			other = true
		}
	}
	if rwop && other {
		e.forbidden("spec.accessModes", "may not use ReadWriteOncePod with other access modes")
	}

	capacity := asMap(spec["capacity"])
	if len(capacity) == 0 {
		e.required("spec.capacity")
	}
	if _, ok := capacity["storage"]; !ok || len(capacity) > 1 {
		e.notSupported("spec.capacity", resourceListValue(spec["capacity"]), "storage")
	}
	for _, k := range sortedMapKeys(capacity) {
		q, ok := parseQuantity(capacity[k])
		if !ok {
			continue
		}
		p := fmt.Sprintf("spec.capacity[%s]", k)
		if v := q.Value(); v < 0 {
			e.invalid(p, v, "must be a valid resource quantity")
		}
		if q.Sign() <= 0 {
			e.invalid(p, q.String(), "must be greater than zero")
		}
	}

	if policy, ok := spec["persistentVolumeReclaimPolicy"].(string); ok && policy != "" {
		e.enum("spec.persistentVolumeReclaimPolicy", policy, "Delete", "Recycle", "Retain")
	}
	affinity, hasAffinity := spec["nodeAffinity"].(map[string]any)
	if hasAffinity {
		if req, ok := affinity["required"].(map[string]any); ok {
			e.nodeSelector("spec.nodeAffinity.required", req)
		} else {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "spec.nodeAffinity.required",
				Detail: "must specify required node constraints"})
		}
	}

	n := 0
	for _, src := range pvSources {
		v, ok := spec[src].(map[string]any)
		if !ok {
			continue
		}
		p := "spec." + src
		if n > 0 {
			e.forbidden(p, "may not specify more than 1 volume type")
			continue
		}
		n++
		switch src {
		case "hostPath":
			e.hostPathSource(p, v)
		case "nfs":
			e.nfsSource(p, v)
		case "local":
			if s, _ := v["path"].(string); s == "" {
				e.required(p + ".path")
			} else {
				e.noBacksteps(p+".path", s)
			}
			if !hasAffinity {
				e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "spec.nodeAffinity",
					Detail: "Local volume requires node affinity"})
			}
		case "csi":
			e.csiSource(p, v)
		}
	}
	if n == 0 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "spec", Detail: "must specify a volume type"})
	}
	if hp, ok := spec["hostPath"].(map[string]any); ok && spec["persistentVolumeReclaimPolicy"] == "Recycle" {
		if s, _ := hp["path"].(string); path.Clean(s) == "/" {
			e.forbidden("spec.persistentVolumeReclaimPolicy", "may not be 'recycle' for a hostPath mount of '/'")
		}
	}
	if class, _ := spec["storageClassName"].(string); class != "" {
		e.dnsSubdomain("spec.storageClassName", class)
	}
	e.enum("spec.volumeMode", spec["volumeMode"], "Block", "Filesystem")
}

// noBacksteps is kube's validatePathNoBacksteps.
func (e *fieldErrs) noBacksteps(p, s string) {
	for _, part := range strings.Split(s, "/") {
		if part == ".." {
			e.invalid(p, s, "must not contain '..'")
			return
		}
	}
}

func (e *fieldErrs) hostPathSource(p string, v map[string]any) {
	s, _ := v["path"].(string)
	if s == "" {
		e.required(p + ".path")
		return
	}
	e.noBacksteps(p+".path", s)
	e.enum(p+".type", v["type"], "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket")
}

func (e *fieldErrs) nfsSource(p string, v map[string]any) {
	if s, _ := v["server"].(string); s == "" {
		e.required(p + ".server")
	}
	s, _ := v["path"].(string)
	if s == "" {
		e.required(p + ".path")
	}
	if !path.IsAbs(s) {
		e.invalid(p+".path", s, "must be an absolute path")
	}
}

// csiSource is kube's validateCSIPersistentVolumeSource for its driver
// and volume handle.
func (e *fieldErrs) csiSource(p string, v map[string]any) {
	e.csiDriverName(p+".driver", v["driver"])
	if s, _ := v["volumeHandle"].(string); s == "" {
		e.required(p + ".volumeHandle")
	}
}

// declarativeCSIDriverName is kube 1.37's declarative rules for a CSI
// driver's name (+required, +k8s:maxLength=63,
// +k8s:format=k8s-long-name-caseless).
func (e *fieldErrs) declarativeCSIDriverName(p, s string) {
	if s == "" {
		e.declarativeRequired(p)
		return
	}
	if len(s) > 63 {
		e.declared = append(e.declared, meta.FieldError{Type: meta.ErrorTooLong, Field: p, Detail: "may not be more than 63 bytes"})
	}
	for _, msg := range dns1123SubdomainCaseless(s) {
		e.declared = append(e.declared, meta.FieldError{Type: meta.ErrorInvalid, Field: p, Value: s, Detail: msg})
	}
}

// dns1123SubdomainCaseless is kube's IsDNS1123SubdomainCaseless: a DNS
// subdomain whose letters may be upper case.
func dns1123SubdomainCaseless(s string) []string {
	msgs := schema.DNS1123Subdomain(strings.ToLower(s))
	for i, m := range msgs {
		m = strings.Replace(m, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters",
			"an RFC 1123 subdomain must consist of alphanumeric characters", 1)
		msgs[i] = strings.Replace(m, "(e.g. 'example.com'", "(e.g. 'Example.com'", 1)
	}
	return msgs
}

// csiDriverName is kube's ValidateCSIDriverName.
func (e *fieldErrs) csiDriverName(p string, v any) {
	s, _ := v.(string)
	if s == "" {
		e.required(p)
		if e.release.AtLeast(35) { // kube 1.35 stops at a missing name
			return
		}
	}
	if len(s) > 63 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooLong, Field: p, Value: s, Detail: "must have at most 63 bytes"})
	}
	e.invalidAll(p, s, schema.DNS1123Subdomain(strings.ToLower(s)))
}
