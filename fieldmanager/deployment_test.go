package fieldmanager_test

import (
	"strings"
	"testing"
)

const nginx = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, labels: {app: nginx}}
spec:
  replicas: 3
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports: [{containerPort: 80}]`

// defaultedNginx is nginx as kube-apiserver stores it, all defaults set
// (as an API server calls Update after defaulting).
const defaultedNginx = `{"kind": "Deployment", "apiVersion": "apps/v1", "metadata": {"name": "d", "labels": {"app": "nginx"}}, "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "nginx"}}, "template": {"metadata": {"creationTimestamp": null, "labels": {"app": "nginx"}}, "spec": {"containers": [{"name": "nginx", "image": "nginx:1.14.2", "ports": [{"containerPort": 80, "protocol": "TCP"}], "resources": {}, "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File", "imagePullPolicy": "IfNotPresent"}], "restartPolicy": "Always", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst", "securityContext": {}, "schedulerName": "default-scheduler"}}, "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}}, "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600}}`

// withStatus returns the JSON object o with status set to the JSON status.
func withStatus(o, status string) string {
	return strings.TrimSuffix(strings.TrimSpace(o), "}") + `, "status": ` + status + `}`
}

const nginxFields = `{
  "f:metadata":{"f:labels":{"f:app":{}}},
  "f:spec":{
    "f:replicas":{},
    "f:selector":{},
    "f:template":{
      "f:metadata":{"f:labels":{"f:app":{}}},
      "f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{
        ".":{},"f:image":{},"f:name":{},
        "f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}}`

// Scenarios on Deployments: the built-in schema's list-map keys
// (containers by name, ports by containerPort and protocol, protocol
// defaulting to TCP), the status subresource, and the "Transferring
// ownership" walkthrough of the Server-Side Apply documentation.
func TestScenarioDeployment(t *testing.T) {
	runScenarios(t, map[string]scenario{
		"containers from two appliers merge by name": {
			Kind: deployment,
			Ops: []op{
				Apply{Manager: "user", Object: nginx},
				Apply{Manager: "sidecar-injector", Object: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  template:
    spec:
      containers:
      - name: proxy
        image: envoy:1
        env: [{name: A, value: "1"}]`},
				Apply{Manager: "sidecar-injector", Object: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  template:
    spec:
      containers:
      - name: nginx
        image: nginx:2`,
					Conflict: `Apply failed with 1 conflict: conflict with "user": .spec.template.spec.containers[name="nginx"].image`},
			},
			Managed: []entry{
				{Manager: "user", Operation: "Apply", APIVersion: "apps/v1", Time: 1, Fields: nginxFields},
				{Manager: "sidecar-injector", Operation: "Apply", APIVersion: "apps/v1", Time: 2, Fields: `{"f:spec":{"f:template":{"f:spec":{"f:containers":{
					"k:{\"name\":\"proxy\"}":{".":{},"f:env":{"k:{\"name\":\"A\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:name":{}}}}}}}`},
			},
		},
		"a container the applier drops goes away unless another manager owns it": {
			Kind: deployment,
			Ops: []op{
				Apply{Manager: "user", Object: nginx + `
      - name: helper
        image: busybox`},
				Apply{Manager: "user", Object: nginx},
			},
			Managed: []entry{
				{Manager: "user", Operation: "Apply", APIVersion: "apps/v1", Time: 2, Fields: nginxFields},
			},
		},
		"transferring ownership of replicas to a controller": {
			Kind: deployment,
			Ops: []op{
				Apply{Manager: "kubectl", Object: nginx},
				Apply{Manager: "handover-to-hpa", Object: `{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {replicas: 3}}`},
				Apply{Manager: "kubectl", Object: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, labels: {app: nginx}}
spec:
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports: [{containerPort: 80}]`},
				Update{Manager: "hpa-controller", Object: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, labels: {app: nginx}}
spec:
  replicas: 5
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports: [{containerPort: 80}]`},
			},
			Managed: []entry{
				{Manager: "kubectl", Operation: "Apply", APIVersion: "apps/v1", Time: 1, Fields: `{
  "f:metadata":{"f:labels":{"f:app":{}}},
  "f:spec":{
    "f:selector":{},
    "f:template":{
      "f:metadata":{"f:labels":{"f:app":{}}},
      "f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{
        ".":{},"f:image":{},"f:name":{},
        "f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}}`},
				{Manager: "hpa-controller", Operation: "Update", APIVersion: "apps/v1", Time: 4, Fields: `{"f:spec":{"f:replicas":{}}}`},
			},
		},
		"a create owns every field it sets, defaults included, and an update of the image takes only the image": {
			Kind: deployment,
			Ops: []op{
				Update{Manager: "kref", Object: defaultedNginx},
				Update{Manager: "kubectl-set", Object: strings.Replace(defaultedNginx, "nginx:1.14.2", "nginx:1.15", 1)},
			},
			Managed: []entry{
				{Manager: "kref", Operation: "Update", APIVersion: "apps/v1", Time: 1, Fields: `{
  "f:metadata":{"f:labels":{".":{},"f:app":{}}},
  "f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},
    "f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},
    "f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},
      "f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:imagePullPolicy":{},"f:name":{},
          "f:ports":{".":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},
          "f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},
        "f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}`},
				{Manager: "kubectl-set", Operation: "Update", APIVersion: "apps/v1", Time: 2,
					Fields: `{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{"f:image":{}}}}}}}`},
			},
		},
		"before-first-apply owns what an untracked Deployment has, from its zero value": {
			Kind: deployment,
			Ops: []op{
				Update{Manager: "kref", Object: defaultedNginx},
				Update{Manager: "kref", Object: strings.Replace(defaultedNginx, `"labels": {"app": "nginx"}}, "spec"`, `"labels": {"app": "nginx"}, "managedFields": []}, "spec"`, 1)},
				Apply{Manager: "user", Object: `{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {replicas: 4}}`,
					Conflict: `Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas`},
				Apply{Manager: "user", Force: true, Object: `{apiVersion: apps/v1, kind: Deployment, metadata: {name: d}, spec: {replicas: 4}}`},
			},
			Managed: []entry{
				{Manager: "user", Operation: "Apply", APIVersion: "apps/v1", Time: 4, Fields: `{"f:spec":{"f:replicas":{}}}`},
				{Manager: "before-first-apply", Operation: "Update", APIVersion: "apps/v1", Time: 4, Fields: `{
  "f:metadata":{"f:labels":{".":{},"f:app":{}}},
  "f:spec":{"f:progressDeadlineSeconds":{},"f:revisionHistoryLimit":{},"f:selector":{},
    "f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},
    "f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},
      "f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},
          "f:ports":{".":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},
          "f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},
        "f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}`},
			},
		},
		"a PUT to /status owns the status it sets, never the spec or labels it also sends (docs/kube-behaviour/04)": {
			Kind: deployment,
			Ops: []op{
				Update{Manager: "kref", Object: withStatus(defaultedNginx, `{}`)},
				Update{Manager: "kref", Subresource: "status", Object: withStatus(
					strings.Replace(strings.Replace(defaultedNginx, `"replicas": 3`, `"replicas": 5`, 1), `"labels": {"app": "nginx"}}, "spec"`, `"labels": {"app": "nginx", "new": "x"}}, "spec"`, 1),
					`{"replicas": 3, "observedGeneration": 7, "conditions": [{"type": "Available", "status": "True", "lastUpdateTime": "2020-01-01T00:00:00Z", "lastTransitionTime": "2020-01-01T00:00:00Z", "reason": "Test", "message": "m"}]}`)},
			},
			Managed: []entry{
				{Manager: "kref", Operation: "Update", APIVersion: "apps/v1", Time: 1, Fields: `{
  "f:metadata":{"f:labels":{".":{},"f:app":{}}},
  "f:spec":{"f:progressDeadlineSeconds":{},"f:replicas":{},"f:revisionHistoryLimit":{},"f:selector":{},
    "f:strategy":{"f:rollingUpdate":{".":{},"f:maxSurge":{},"f:maxUnavailable":{}},"f:type":{}},
    "f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},
      "f:spec":{"f:containers":{"k:{\"name\":\"nginx\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},
          "f:ports":{".":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:protocol":{}}},
          "f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},
        "f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}}}`},
				{Manager: "kref", Operation: "Update", APIVersion: "apps/v1", Subresource: "status", Time: 2, Fields: `{"f:status":{
  "f:conditions":{".":{},"k:{\"type\":\"Available\"}":{".":{},"f:lastTransitionTime":{},"f:lastUpdateTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}},
  "f:observedGeneration":{},"f:replicas":{}}}`},
			},
		},
		"the status subresource: its writers never conflict with the spec's owner": {
			Kind: deployment,
			Ops: []op{
				Apply{Manager: "user", Object: nginx},
				Apply{Manager: "ctrl", Subresource: "status", Object: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, labels: {app: other}}
spec: {replicas: 1}
status: {replicas: 3, observedGeneration: 1}`},
				Apply{Manager: "user", Object: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: d, labels: {app: nginx}}
spec:
  replicas: 4
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports: [{containerPort: 80}]
status: {replicas: 7}`},
			},
			Managed: []entry{
				{Manager: "ctrl", Operation: "Apply", APIVersion: "apps/v1", Subresource: "status", Time: 2, Fields: `{"f:status":{"f:observedGeneration":{},"f:replicas":{}}}`},
				{Manager: "user", Operation: "Apply", APIVersion: "apps/v1", Time: 3, Fields: nginxFields},
			},
		},
	})
}
