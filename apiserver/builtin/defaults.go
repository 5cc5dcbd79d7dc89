package builtin

import (
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// The defaults kube-apiserver's Go defaulting functions (and its admission
// plugins enabled by default) give the built-in kinds: what a client reads
// back after creating an object, beyond the schema's own defaults.

func obj(m map[string]any, key string) map[string]any {
	v, _ := m[key].(map[string]any)
	if v == nil {
		v = map[string]any{}
		m[key] = v
	}
	return v
}

func setDefault(m map[string]any, key string, v any) {
	if _, ok := m[key]; !ok {
		m[key] = v
	}
}

// defaultPodSpec mirrors SetDefaults_PodSpec and the defaults of what a
// pod spec holds (containers, probes, volumes, downward API references),
// as kube applies them to pods and to every pod template.
func defaultPodSpec(spec map[string]any) {
	setDefault(spec, "restartPolicy", "Always")
	setDefault(spec, "terminationGracePeriodSeconds", int64(30))
	setDefault(spec, "dnsPolicy", "ClusterFirst")
	setDefault(spec, "securityContext", map[string]any{})
	setDefault(spec, "schedulerName", "default-scheduler")
	// The deprecated serviceAccount mirrors serviceAccountName (kube's
	// conversion keeps them equal, the newer name winning).
	if name, _ := spec["serviceAccountName"].(string); name != "" {
		spec["serviceAccount"] = name
	} else if old, _ := spec["serviceAccount"].(string); old != "" {
		spec["serviceAccountName"] = old
	}
	for _, key := range []string{"initContainers", "containers", "ephemeralContainers"} {
		for _, c := range meta.AsList(spec[key]) {
			if c, ok := c.(map[string]any); ok {
				defaultContainer(c)
			}
		}
	}
	for _, v := range meta.AsList(spec["volumes"]) {
		vol, _ := v.(map[string]any)
		if vol == nil {
			continue
		}
		defaultVolume(vol)
	}
}

// volumeSources are the keys of a volume naming its source.
var volumeSources = []string{"hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret", "nfs",
	"iscsi", "glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI", "fc",
	"azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "projected", "portworxVolume",
	"scaleIO", "storageos", "csi", "ephemeral", "image"}

// defaultVolume mirrors SetDefaults_Volume and its sources' defaults: no
// source means an emptyDir; file modes 0644; projected tokens live an
// hour; a hostPath's type is "" (unset).
func defaultVolume(vol map[string]any) {
	hasSource := false
	for _, k := range volumeSources {
		if _, ok := vol[k]; ok {
			hasSource = true
		}
	}
	if !hasSource {
		vol["emptyDir"] = map[string]any{}
	}
	for _, source := range []string{"secret", "configMap", "downwardAPI", "projected"} {
		if s, ok := vol[source].(map[string]any); ok {
			setDefault(s, "defaultMode", int64(420))
		}
	}
	if hp, ok := vol["hostPath"].(map[string]any); ok {
		setDefault(hp, "type", "")
	}
	if da, ok := vol["downwardAPI"].(map[string]any); ok {
		defaultDownwardAPIItems(da["items"])
	}
	if p, ok := vol["projected"].(map[string]any); ok {
		for _, src := range meta.AsList(p["sources"]) {
			sm, _ := src.(map[string]any)
			if t, ok := sm["serviceAccountToken"].(map[string]any); ok {
				setDefault(t, "expirationSeconds", int64(3600))
			}
			if da, ok := sm["downwardAPI"].(map[string]any); ok {
				defaultDownwardAPIItems(da["items"])
			}
		}
	}
	if img, ok := vol["image"].(map[string]any); ok {
		if _, ok := img["pullPolicy"]; !ok {
			img["pullPolicy"] = pullPolicy(str(img, "reference"))
		}
	}
}

// defaultDownwardAPIItems gives each fieldRef apiVersion v1.
func defaultDownwardAPIItems(items any) {
	for _, it := range meta.AsList(items) {
		m, _ := it.(map[string]any)
		if ref, ok := m["fieldRef"].(map[string]any); ok {
			setDefault(ref, "apiVersion", "v1")
		}
	}
}

// defaultContainer mirrors SetDefaults_Container and the defaults of what
// a container holds: pull policy from the image tag, termination message,
// TCP ports, probe timings, HTTP probe path and scheme, env fieldRefs.
func defaultContainer(c map[string]any) {
	setDefault(c, "resources", map[string]any{})
	setDefault(c, "terminationMessagePath", "/dev/termination-log")
	setDefault(c, "terminationMessagePolicy", "File")
	if _, ok := c["imagePullPolicy"]; !ok {
		c["imagePullPolicy"] = pullPolicy(str(c, "image"))
	}
	for _, p := range meta.AsList(c["ports"]) {
		if p, ok := p.(map[string]any); ok {
			setDefault(p, "protocol", "TCP")
		}
	}
	for _, e := range meta.AsList(c["env"]) {
		m, _ := e.(map[string]any)
		if ref, ok := field(m, "valueFrom", "fieldRef").(map[string]any); ok {
			setDefault(ref, "apiVersion", "v1")
		}
	}
	for _, k := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		if p, ok := c[k].(map[string]any); ok {
			setDefault(p, "timeoutSeconds", int64(1))
			setDefault(p, "periodSeconds", int64(10))
			setDefault(p, "successThreshold", int64(1))
			setDefault(p, "failureThreshold", int64(3))
			defaultHTTPGet(p["httpGet"])
		}
	}
	if lc, ok := c["lifecycle"].(map[string]any); ok {
		for _, k := range []string{"postStart", "preStop"} {
			if h, ok := lc[k].(map[string]any); ok {
				defaultHTTPGet(h["httpGet"])
			}
		}
	}
}

// defaultHTTPGet mirrors SetDefaults_HTTPGetAction.
func defaultHTTPGet(v any) {
	if h, ok := v.(map[string]any); ok {
		setDefault(h, "path", "/")
		setDefault(h, "scheme", "HTTP")
	}
}

// pullPolicy is Always for an untagged or :latest image, IfNotPresent
// otherwise, as kube defaults it.
func pullPolicy(image string) string {
	if strings.Contains(image, "@") {
		return "IfNotPresent"
	}
	name := image[strings.LastIndex(image, "/")+1:]
	tag := ""
	if i := strings.LastIndex(name, ":"); i >= 0 {
		tag = name[i+1:]
	}
	if tag == "" || tag == "latest" {
		return "Always"
	}
	return "IfNotPresent"
}

// keepMetadata sets metadata[field] of o to old's (absent when old has
// none), for the status strategies that reset a metadata field.
func keepMetadata(o, old meta.Object, field string) {
	if v, ok := old.Metadata()[field]; ok {
		o.SetMetadataField(field, meta.DeepCopyValue(v))
	} else {
		delete(o.MetadataForWrite(), field)
	}
}

// workloadScale is the scale subresource of kube's workloads (Deployment,
// ReplicaSet, StatefulSet): spec.replicas,
// status.replicas and spec.selector in its string form.
var workloadScale = &apiserver.Scale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas",
	Selector: func(o meta.Object) string { return labelSelectorString(field(o, "spec", "selector")) }}

// setAnnotation sets one annotation of o.
func setAnnotation(o meta.Object, key, value string) {
	md := o.MetadataForWrite()
	ann, _ := md["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
		md["annotations"] = ann
	}
	ann[key] = value
}

// addFinalizer adds a finalizer to o unless it has it.
func addFinalizer(o meta.Object, f string) {
	for _, have := range o.Finalizers() {
		if have == f {
			return
		}
	}
	list := meta.AsList(o.Metadata()["finalizers"])
	o.SetMetadataField("finalizers", append(list, f))
}

// keepStatusOnlyMetadata gives o old's metadata but its managedFields, for
// the status strategies that let a status write change no metadata.
func keepStatusOnlyMetadata(o, old meta.Object) {
	md := meta.DeepCopyValue(old["metadata"]).(map[string]any)
	if mf, ok := o.Metadata()["managedFields"]; ok {
		md["managedFields"] = mf
	} else {
		delete(md, "managedFields")
	}
	o["metadata"] = md
}

func setOrDelete(m map[string]any, key string, v any) {
	if v == nil {
		delete(m, key)
		return
	}
	m[key] = v
}

// singleAndPlural is kube's conversion of a v1 field kept twice, as a
// single value and as the list it is the first of (a node's podCIDR and
// podCIDRs, a pod's podIP and podIPs, hostIP and hostIPs): kube holds only
// the list, which a single value sets when the list is empty or starts
// with another value (the single one is the older clients' and wins), and
// writes the single value back as the list's first. key names the field
// of the list's items that holds the value ("" when the items are the
// values).
func singleAndPlural(m map[string]any, single, plural, key string) {
	item := func(v any) string {
		if key != "" {
			v = asMap(v)[key]
		}
		s, _ := v.(string)
		return s
	}
	list := meta.AsList(m[plural])
	if s, _ := m[single].(string); s != "" && (len(list) == 0 || item(list[0]) != s) {
		var first any = s
		if key != "" {
			first = map[string]any{key: s}
		}
		m[plural] = []any{first}
		list = []any{first}
	}
	if len(list) == 0 {
		delete(m, single)
		return
	}
	if s := item(list[0]); s != "" {
		m[single] = s
	} else {
		delete(m, single)
	}
}
