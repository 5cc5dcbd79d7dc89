package strategicpatch

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/kapi-dev/kapi/codec"
)

// The tables below are written from the Kubernetes documentation: the task
// "Update API Objects in Place Using kubectl patch" (kubectl patch docs) and
// the design document "strategic-merge-patch.md" (design doc), plus the
// order rules of the design proposal "preserve order in strategic merge
// patch". Objects are YAML; the expected errors are kube-apiserver's words.

type applyCase struct {
	name     string
	original string // YAML
	patch    string // YAML
	want     string // YAML; ignored when wantErr is set
	wantErr  string
	schema   *fakeSchema // nil: the Deployment schema
	unknown  bool        // true: no schema at all
}

// decodeYAML decodes YAML as kapi decodes JSON: integers as int64, other
// numbers as float64.
func decodeYAML(t testing.TB, s string) map[string]any {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(s))
	require.NoError(t, err)
	v, err := codec.DecodeValue(j)
	require.NoError(t, err)
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	require.True(t, ok, "not an object: %s", s)
	return m
}

// clone deep-copies decoded JSON (independently of the package's copy).
func clone(v any) any {
	switch t := v.(type) {
	case map[string]any:
		if t == nil {
			return t
		}
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[k] = clone(e)
		}
		return m
	case []any:
		if t == nil {
			return t
		}
		l := make([]any, len(t))
		for i, e := range t {
			l[i] = clone(e)
		}
		return l
	}
	return v
}

func runCases(t *testing.T, cases []applyCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			original := decodeYAML(t, c.original)
			patch := decodeYAML(t, c.patch)
			originalBefore, patchBefore := clone(original), clone(patch)

			var got map[string]any
			var err error
			switch {
			case c.unknown:
				got, err = Apply(original, patch, nil)
			case c.schema != nil:
				got, err = Apply(original, patch, c.schema)
			default:
				got, err = Apply(original, patch, deploymentSchema())
			}

			if c.wantErr != "" {
				require.EqualError(t, err, c.wantErr)
				assert.Nil(t, got)
			} else {
				require.NoError(t, err)
				assert.Equal(t, decodeYAML(t, c.want), got)
			}
			assert.Equal(t, originalBefore, any(original), "Apply modified the original")
			assert.Equal(t, patchBefore, any(patch), "Apply modified the patch")
		})
	}
}

// patchDemo is the Deployment of the kubectl patch docs.
const patchDemo = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: patch-demo
spec:
  replicas: 2
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: patch-demo-ctr
        image: nginx
      tolerations:
      - effect: NoSchedule
        key: dedicated
        value: test-team
`

// retainKeysDemo is the Deployment of the retainKeys exercise of the
// kubectl patch docs.
const retainKeysDemo = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: retainkeys-demo
spec:
  selector:
    matchLabels:
      app: nginx
  strategy:
    rollingUpdate:
      maxSurge: 30%
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: retainkeys-demo-ctr
        image: nginx
`

func TestApplyFollowsTheKubectlPatchDocs(t *testing.T) {
	runCases(t, []applyCase{{
		name:     "a patch adding a container merges the containers list by name, the new container first",
		original: patchDemo,
		patch: `
spec:
  template:
    spec:
      containers:
      - name: patch-demo-ctr-2
        image: redis`,
		want: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: patch-demo
spec:
  replicas: 2
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: patch-demo-ctr-2
        image: redis
      - name: patch-demo-ctr
        image: nginx
      tolerations:
      - effect: NoSchedule
        key: dedicated
        value: test-team`,
	}, {
		name:     "tolerations have no patch strategy, so the patch list replaces them",
		original: patchDemo,
		patch: `
spec:
  template:
    spec:
      tolerations:
      - effect: NoSchedule
        key: disktype
        value: ssd`,
		want: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: patch-demo
spec:
  replicas: 2
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: patch-demo-ctr
        image: nginx
      tolerations:
      - effect: NoSchedule
        key: disktype
        value: ssd`,
	}, {
		name:     "without $retainKeys a new strategy type merges and rollingUpdate stays",
		original: retainKeysDemo,
		patch: `
spec:
  strategy:
    type: Recreate`,
		want: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: retainkeys-demo
spec:
  selector:
    matchLabels:
      app: nginx
  strategy:
    type: Recreate
    rollingUpdate:
      maxSurge: 30%
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: retainkeys-demo-ctr
        image: nginx`,
	}, {
		name:     "$retainKeys keeps only the listed fields, so rollingUpdate is removed",
		original: retainKeysDemo,
		patch: `
spec:
  strategy:
    $retainKeys:
    - type
    type: Recreate`,
		want: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: retainkeys-demo
spec:
  selector:
    matchLabels:
      app: nginx
  strategy:
    type: Recreate
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: retainkeys-demo-ctr
        image: nginx`,
	}, {
		name:     "$retainKeys must list every field the patch sets",
		original: retainKeysDemo,
		patch: `
spec:
  strategy:
    $retainKeys:
    - type
    type: Recreate
    rollingUpdate:
      maxSurge: 1`,
		wantErr: "invalid patch format of retainKeys",
	}})
}

func TestApplyMergesObjects(t *testing.T) {
	runCases(t, []applyCase{{
		name:     "objects merge recursively and scalars are replaced",
		original: `{metadata: {name: a, labels: {app: web, tier: front}}, spec: {replicas: 1}}`,
		patch:    `{metadata: {labels: {tier: back, team: x}}, spec: {replicas: 3}}`,
		want:     `{metadata: {name: a, labels: {app: web, tier: back, team: x}}, spec: {replicas: 3}}`,
	}, {
		name:     "null deletes a field",
		original: `{metadata: {name: a, labels: {app: web, tier: front}}}`,
		patch:    `{metadata: {labels: {tier: null}}}`,
		want:     `{metadata: {name: a, labels: {app: web}}}`,
	}, {
		name:     "null for an absent field adds nothing",
		original: `{metadata: {name: a}}`,
		patch:    `{metadata: {labels: null}}`,
		want:     `{metadata: {name: a}}`,
	}, {
		name:     "an absent field set to an object of nulls becomes an empty object",
		original: `{metadata: {name: a}}`,
		patch:    `{metadata: {annotations: {x: null}}}`,
		want:     `{metadata: {name: a, annotations: {}}}`,
	}, {
		name:     "a new field is taken without its null values",
		original: `{spec: {template: {spec: {restartPolicy: Always}}}}`,
		patch:    `{spec: {template: {spec: {nodeSelector: {disk: ssd, zone: null}}}}}`,
		want:     `{spec: {template: {spec: {restartPolicy: Always, nodeSelector: {disk: ssd}}}}}`,
	}, {
		name:     "a field of another type is replaced by the patch value",
		original: `{spec: {replicas: "two", template: {spec: {containers: whatever}}}}`,
		patch:    `{spec: {replicas: 2, template: {spec: {containers: [{name: a, image: b, env: [{name: X, value: null}]}]}}}}`,
		want:     `{spec: {replicas: 2, template: {spec: {containers: [{name: a, image: b, env: [{name: X}]}]}}}}`,
	}, {
		name:     "an integer and a float are different types",
		original: `{spec: {replicas: 1}}`,
		patch:    `{spec: {replicas: 1.5}}`,
		want:     `{spec: {replicas: 1.5}}`,
	}, {
		name:     "unknown fields merge as objects",
		original: `{extra: {a: 1, b: {c: 2}}}`,
		patch:    `{extra: {b: {d: 3}}}`,
		want:     `{extra: {a: 1, b: {c: 2, d: 3}}}`,
	}, {
		name:     "unknown lists are replaced",
		original: `{extra: [{name: a}, {name: b}]}`,
		patch:    `{extra: [{name: c}]}`,
		want:     `{extra: [{name: c}]}`,
	}, {
		name:     "without a schema every object merges and every list is replaced",
		unknown:  true,
		original: `{spec: {template: {spec: {containers: [{name: a}], restartPolicy: Always}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{name: b}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: b}], restartPolicy: Always}}}}`,
	}, {
		name:     "an empty patch returns the original",
		original: patchDemo,
		patch:    `{}`,
		want:     patchDemo,
	}, {
		name:     "a missing original is an empty object",
		original: ``,
		patch:    `{metadata: {name: a, labels: {x: null}}}`,
		want:     `{metadata: {name: a, labels: {}}}`,
	}, {
		name:     "an object field with strategy replace is replaced as it is",
		schema:   object(props{"spec": withStrategy(object(props{"a": scalar()}), "replace")}),
		original: `{spec: {a: 1, b: 2}}`,
		patch:    `{spec: {a: 3, c: null}}`,
		want:     `{spec: {a: 3, c: null}}`,
	}, {
		name:     "map values are described by the map's value schema",
		schema:   object(props{"byName": mapOf(keyedList("name", object(nil)))}),
		original: `{byName: {x: [{name: a}], w: [{name: b}]}}`,
		patch:    `{byName: {x: [{name: c}]}}`,
		want:     `{byName: {x: [{name: c}, {name: a}], w: [{name: b}]}}`,
	}})
}

func TestApplyMergesLists(t *testing.T) {
	const pod = `
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx
        ports:
        - containerPort: 80
          protocol: TCP
        env:
        - {name: A, value: "1"}
        - {name: B, value: "2"}
      - name: log
        image: busybox
`
	runCases(t, []applyCase{{
		name:     "a patch item merges into the original item with the same merge key",
		original: pod,
		patch: `
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx:1.27
        env:
        - {name: B, value: "3"}`,
		want: `
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: 80
          protocol: TCP
        env:
        - {name: A, value: "1"}
        - {name: B, value: "3"}
      - name: log
        image: busybox`,
	}, {
		name:     "ports merge by containerPort, an integer merge key",
		original: pod,
		patch: `
spec:
  template:
    spec:
      containers:
      - name: web
        ports:
        - containerPort: 80
          name: http
        - containerPort: 443`,
		want: `
spec:
  template:
    spec:
      containers:
      - name: web
        image: nginx
        ports:
        - containerPort: 80
          protocol: TCP
          name: http
        - containerPort: 443
        env:
        - {name: A, value: "1"}
        - {name: B, value: "2"}
      - name: log
        image: busybox`,
	}, {
		name:     "a patch item with a new merge key is added as it is",
		original: `{spec: {template: {spec: {containers: [{name: web}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{name: side, image: x, args: null}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: side, image: x, args: null}, {name: web}]}}}}`,
	}, {
		name:     "a new list is taken without the nulls of its objects and without $patch items",
		original: `{spec: {template: {spec: {restartPolicy: Always}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{name: a, image: null}, {name: b, $patch: delete}]}}}}`,
		want:     `{spec: {template: {spec: {restartPolicy: Always, containers: [{name: a}]}}}}`,
	}, {
		name:     "a merge-key value that matches several items merges into the first",
		original: `{spec: {template: {spec: {containers: [{name: a, image: x}, {name: a, image: w}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{name: a, image: z}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: a, image: z}, {name: a, image: w}]}}}}`,
	}, {
		name:     "primitive lists with strategy merge are unions, in the patch's order",
		original: `{metadata: {finalizers: [a, b]}}`,
		patch:    `{metadata: {finalizers: [b, c]}}`,
		want:     `{metadata: {finalizers: [a, b, c]}}`,
	}, {
		name:     "a union holds each value once",
		original: `{metadata: {finalizers: [a, b]}}`,
		patch:    `{metadata: {finalizers: [c, c, a]}}`,
		want:     `{metadata: {finalizers: [c, a, b]}}`,
	}, {
		name:     "primitive lists without strategy are replaced",
		original: `{spec: {template: {spec: {containers: [{name: a, args: [x, w]}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{name: a, args: [z]}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: a, args: [z]}]}}}}`,
	}, {
		name:     "merging empty lists gives an empty list",
		original: `{metadata: {finalizers: []}}`,
		patch:    `{metadata: {finalizers: []}}`,
		want:     `{metadata: {finalizers: []}}`,
	}, {
		name:     "an empty merge list changes nothing",
		original: `{metadata: {finalizers: [b, a]}}`,
		patch:    `{metadata: {finalizers: []}}`,
		want:     `{metadata: {finalizers: [b, a]}}`,
	}, {
		name:     "volumes merge by name and honour $retainKeys in an item",
		original: `{spec: {template: {spec: {volumes: [{name: data, emptyDir: {medium: Memory}}, {name: conf, configMap: {name: c}}]}}}}`,
		patch:    `{spec: {template: {spec: {volumes: [{name: data, $retainKeys: [name, hostPath], hostPath: {path: /data}}]}}}}`,
		want:     `{spec: {template: {spec: {volumes: [{name: data, hostPath: {path: /data}}, {name: conf, configMap: {name: c}}]}}}}`,
	}, {
		name:     "an added item keeps its $retainKeys as Kubernetes does",
		original: `{spec: {template: {spec: {volumes: [{name: conf, configMap: {name: c}}]}}}}`,
		patch:    `{spec: {template: {spec: {volumes: [{name: data, $retainKeys: [name, emptyDir], emptyDir: {}}]}}}}`,
		want:     `{spec: {template: {spec: {volumes: [{name: data, $retainKeys: [name, emptyDir], emptyDir: {}}, {name: conf, configMap: {name: c}}]}}}}`,
	}})
}

func TestApplyOrdersMergedLists(t *testing.T) {
	runCases(t, []applyCase{{
		name:     "items only the server has keep their place relative to the patched items",
		original: `{metadata: {finalizers: [a, x, b]}}`,
		patch:    `{metadata: {finalizers: [nn, x]}}`,
		want:     `{metadata: {finalizers: [nn, a, x, b]}}`,
	}, {
		name:     "patched items take the patch's order",
		original: `{spec: {template: {spec: {containers: [{name: a}, {name: b}, {name: c}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{name: c, image: x}, {name: a, image: w}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: b}, {name: c, image: x}, {name: a, image: w}]}}}}`,
	}, {
		name:     "an added item after a live one follows it",
		original: `{spec: {template: {spec: {containers: [{name: a}, {name: b}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{name: b}, {name: nn}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: a}, {name: b}, {name: nn}]}}}}`,
	}})
}

func TestApplyPatchDirective(t *testing.T) {
	runCases(t, []applyCase{{
		name:     "$patch: replace on an object replaces it instead of merging (design doc)",
		original: `{metadata: {labels: {app: web, tier: front}}}`,
		patch:    `{metadata: {labels: {$patch: replace, app: api}}}`,
		want:     `{metadata: {labels: {app: api}}}`,
	}, {
		name:     "$patch: replace takes the object as it is, nulls and directives included",
		original: `{metadata: {labels: {app: web}}}`,
		patch:    `{metadata: {labels: {$patch: replace, app: null, $retainKeys: [x]}}}`,
		want:     `{metadata: {labels: {app: null, $retainKeys: [x]}}}`,
	}, {
		name:     "$patch: replace at the top replaces the whole object",
		original: patchDemo,
		patch:    `{$patch: replace, kind: Deployment}`,
		want:     `{kind: Deployment}`,
	}, {
		name:     "$patch: replace as a list item makes the other items the whole list (design doc)",
		original: `{spec: {template: {spec: {containers: [{name: nginx, image: nginx-0.9}, {name: log-tailer, image: log-tailer-1.0}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{name: nginx, image: nginx-1.0}, {$patch: replace}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: nginx, image: nginx-1.0}]}}}}`,
	}, {
		name:     "$patch: replace alone empties a list",
		original: `{spec: {template: {spec: {containers: [{name: a}, {name: b}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{$patch: replace}]}}}}`,
		want:     `{spec: {template: {spec: {containers: []}}}}`,
	}, {
		name:     "$patch: delete as a list item deletes the item with that merge key (design doc)",
		original: `{spec: {template: {spec: {containers: [{name: nginx, image: nginx-0.9}, {name: log-tailer, image: log-tailer-1.0}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{name: nginx, image: nginx-1.0}, {$patch: delete, name: log-tailer}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: nginx, image: nginx-1.0}]}}}}`,
	}, {
		name:     "$patch: delete deletes every item with that merge key",
		original: `{spec: {template: {spec: {containers: [{name: a}, {name: b}, {name: a, image: x}, {name: c}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{$patch: delete, name: a}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: b}, {name: c}]}}}}`,
	}, {
		name:     "$patch: delete of an absent item changes nothing",
		original: `{spec: {template: {spec: {containers: [{name: a}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{$patch: delete, name: z}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: a}]}}}}`,
	}, {
		name:     "$patch: delete on an object leaves an empty object, as kube-apiserver does",
		original: retainKeysDemo,
		patch:    `{spec: {strategy: {rollingUpdate: {$patch: delete}}}}`,
		want: `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: retainkeys-demo
spec:
  selector:
    matchLabels:
      app: nginx
  strategy:
    rollingUpdate: {}
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: retainkeys-demo-ctr
        image: nginx`,
	}, {
		name:     "null is the way to delete an object",
		original: `{spec: {strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}}}`,
		patch:    `{spec: {strategy: {rollingUpdate: null}}}`,
		want:     `{spec: {strategy: {type: RollingUpdate}}}`,
	}, {
		name:     "a new field whose value holds $patch is dropped, as kube-apiserver drops it",
		original: `{spec: {replicas: 1}}`,
		patch:    `{spec: {strategy: {$patch: replace, type: Recreate}, selector: {matchLabels: {$patch: delete}}}}`,
		want:     `{spec: {replicas: 1, selector: {}}}`,
	}})
}

func TestApplyRetainKeysDirective(t *testing.T) {
	runCases(t, []applyCase{{
		name:     "$retainKeys clears the fields of a union it does not list (design doc)",
		unknown:  true,
		original: `{union: {foo: a, other: b}}`,
		patch:    `{union: {$retainKeys: [another, bar], another: d, bar: c}}`,
		want:     `{union: {another: d, bar: c}}`,
	}, {
		name:     "$retainKeys keeps listed fields the patch does not set",
		original: `{spec: {strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}, other: x}}}`,
		patch:    `{spec: {strategy: {$retainKeys: [type, rollingUpdate]}}}`,
		want:     `{spec: {strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}}}`,
	}, {
		name:     "$retainKeys applies even where the schema has no retainKeys strategy",
		original: `{metadata: {name: a, labels: {x: w}, annotations: {p: q}}}`,
		patch:    `{metadata: {$retainKeys: [name, labels]}}`,
		want:     `{metadata: {name: a, labels: {x: w}}}`,
	}, {
		name:     "$retainKeys lets the patch set null and directives for unlisted fields",
		original: `{metadata: {name: a, labels: {x: w}, finalizers: [f, g]}}`,
		patch:    `{metadata: {$retainKeys: [name, finalizers], labels: null, $deleteFromPrimitiveList/finalizers: [f]}}`,
		want:     `{metadata: {name: a, finalizers: [g]}}`,
	}, {
		name:     "$retainKeys must be a list",
		original: `{spec: {strategy: {type: Recreate}}}`,
		patch:    `{spec: {strategy: {$retainKeys: type}}}`,
		wantErr:  "invalid patch format of retainKeys",
	}})
}

func TestApplyDeleteFromPrimitiveListDirective(t *testing.T) {
	runCases(t, []applyCase{{
		name:     "$deleteFromPrimitiveList deletes the listed values (design doc)",
		original: `{metadata: {finalizers: [a, b, c]}}`,
		patch:    `{metadata: {$deleteFromPrimitiveList/finalizers: [b, c]}}`,
		want:     `{metadata: {finalizers: [a]}}`,
	}, {
		name:     "$deleteFromPrimitiveList deletes every duplicate",
		original: `{metadata: {finalizers: [a, b, a]}}`,
		patch:    `{metadata: {$deleteFromPrimitiveList/finalizers: [a]}}`,
		want:     `{metadata: {finalizers: [b]}}`,
	}, {
		name:     "$deleteFromPrimitiveList also deletes from a list without merge strategy",
		original: `{spec: {template: {spec: {containers: [{name: a, args: [x, w, z]}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{name: a, $deleteFromPrimitiveList/args: [w]}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: a, args: [x, z]}]}}}}`,
	}, {
		name:     "$deleteFromPrimitiveList of an absent list adds nothing",
		original: `{metadata: {name: a}}`,
		patch:    `{metadata: {$deleteFromPrimitiveList/finalizers: [a]}}`,
		want:     `{metadata: {name: a}}`,
	}, {
		name:     "$deleteFromPrimitiveList with null deletes the whole list",
		original: `{metadata: {name: a, finalizers: [a]}}`,
		patch:    `{metadata: {$deleteFromPrimitiveList/finalizers: null}}`,
		want:     `{metadata: {name: a}}`,
	}, {
		name:     "deletions and additions to one list combine",
		original: `{metadata: {finalizers: [a, b, c]}}`,
		patch:    `{metadata: {$deleteFromPrimitiveList/finalizers: [a], finalizers: [d]}}`,
		want:     `{metadata: {finalizers: [d, b, c]}}`,
	}, {
		name:     "a key without the list's name is an error",
		original: `{metadata: {finalizers: [a]}}`,
		patch:    `{metadata: {$deleteFromPrimitiveListfinalizers: [a]}}`,
		wantErr:  "invalid patch format of primitive list",
	}})
}

func TestApplySetElementOrderDirective(t *testing.T) {
	runCases(t, []applyCase{{
		name:     "$setElementOrder reorders a primitive list (design doc)",
		original: `{metadata: {finalizers: [a, b, c]}}`,
		patch:    `{metadata: {$setElementOrder/finalizers: [b, c, a]}}`,
		want:     `{metadata: {finalizers: [b, c, a]}}`,
	}, {
		name:     "$setElementOrder reorders a list of objects by merge key (design doc)",
		original: `{spec: {template: {spec: {containers: [{name: a, image: x}, {name: b, image: w}, {name: c, image: z}]}}}}`,
		patch:    `{spec: {template: {spec: {$setElementOrder/containers: [{name: b}, {name: c}, {name: a}]}}}}`,
		want:     `{spec: {template: {spec: {containers: [{name: b, image: w}, {name: c, image: z}, {name: a, image: x}]}}}}`,
	}, {
		name:     "$setElementOrder merges the patch list then orders it",
		original: `{spec: {template: {spec: {containers: [{name: a}, {name: b}]}}}}`,
		patch: `
spec:
  template:
    spec:
      $setElementOrder/containers: [{name: b}, {name: nn}, {name: a}]
      containers: [{name: nn, image: new}, {name: a, image: x}]`,
		want: `{spec: {template: {spec: {containers: [{name: b}, {name: nn, image: new}, {name: a, image: x}]}}}}`,
	}, {
		name:     "items $setElementOrder does not name keep their place among the others",
		original: `{metadata: {finalizers: [a, s, b, c]}}`,
		patch:    `{metadata: {$setElementOrder/finalizers: [c, b, a]}}`,
		want:     `{metadata: {finalizers: [s, c, b, a]}}`,
	}, {
		name:     "$setElementOrder with deletions, additions and server-only items orders as kube-apiserver",
		original: `{spec: {template: {spec: {containers: [{name: a}, {name: b}, {name: c}, {name: s}]}}}}`,
		patch: `
spec:
  template:
    spec:
      $setElementOrder/containers: [{name: d}, {name: a}, {name: b}]
      containers: [{name: c, $patch: delete}, {name: d, image: new}]`,
		want: `{spec: {template: {spec: {containers: [{name: s}, {name: d, image: new}, {name: a}, {name: b}]}}}}`,
	}, {
		name:     "a patch list out of the $setElementOrder order is an error, even for a new list",
		original: `{metadata: {name: x}}`,
		patch:    `{metadata: {$setElementOrder/finalizers: [b, a], finalizers: [a, b]}}`,
		wantErr:  "The order in patch list:\n[a b]\n doesn't match $setElementOrder list:\n[b a]\n",
	}, {
		name:     "$setElementOrder for a new list orders it",
		original: `{spec: {template: {spec: {restartPolicy: Always}}}}`,
		patch: `
spec:
  template:
    spec:
      $setElementOrder/containers: [{name: b}, {name: a}]
      containers: [{name: b, image: w}, {name: a, image: null}, {name: z, $patch: delete}]`,
		want: `{spec: {template: {spec: {restartPolicy: Always, containers: [{name: b, image: w}, {name: a, image: null}]}}}}`,
	}, {
		name:     "$setElementOrder for a list absent from both sides does nothing",
		original: `{metadata: {name: x}}`,
		patch:    `{metadata: {$setElementOrder/finalizers: [a]}}`,
		want:     `{metadata: {name: x}}`,
	}, {
		name:     "$setElementOrder must be a list",
		original: `{metadata: {finalizers: [a]}}`,
		patch:    `{metadata: {$setElementOrder/finalizers: a}}`,
		wantErr:  "expected a []interface {}, but received a string",
	}, {
		name:     "$setElementOrder needs the list's name after a slash",
		original: `{metadata: {finalizers: [a]}}`,
		patch:    `{metadata: {$setElementOrder: [a]}}`,
		wantErr:  "invalid patch format of setElementOrder list",
	}, {
		name:     "$setElementOrder of objects must hold objects",
		original: `{spec: {template: {spec: {containers: [{name: a}]}}}}`,
		patch:    `{spec: {template: {spec: {$setElementOrder/containers: [a]}}}}`,
		wantErr:  "value for key 0 is not a map",
	}, {
		name:     "$setElementOrder items need the merge key",
		original: `{spec: {template: {spec: {containers: [{name: a}]}}}}`,
		patch:    `{spec: {template: {spec: {$setElementOrder/containers: [{image: a}], containers: [{name: a}]}}}}`,
		wantErr:  "map: map[image:a] does not contain declared merge key: name",
	}, {
		name:     "the list of $setElementOrder must be a list where the original has one",
		original: `{metadata: {finalizers: {a: b}}}`,
		patch:    `{metadata: {$setElementOrder/finalizers: [a]}}`,
		wantErr:  "expected a []interface {}, but received a map[string]interface {}",
	}, {
		name:     "$setElementOrder with a null list is an error",
		original: `{metadata: {finalizers: [a]}}`,
		patch:    `{metadata: {$setElementOrder/finalizers: [a], finalizers: null}}`,
		wantErr:  "expected a []interface {}, but received a %!s(<nil>)",
	}, {
		name:     "$setElementOrder of an empty list has nothing to order and fails like Kubernetes",
		original: `{metadata: {finalizers: []}}`,
		patch:    `{metadata: {$setElementOrder/finalizers: []}}`,
		wantErr:  "no elements in any of the given slices",
	}})
}

func TestApplyErrorsAreWordedLikeKubernetes(t *testing.T) {
	pod := `{spec: {template: {spec: {containers: [{name: web, image: nginx}]}}}}`
	runCases(t, []applyCase{{
		name:     "a patch item without the merge key",
		original: pod,
		patch:    `{spec: {template: {spec: {containers: [{image: redis}]}}}}`,
		wantErr:  "map: map[image:redis] does not contain declared merge key: name",
	}, {
		name:     "a $patch: delete item without the merge key",
		original: pod,
		patch:    `{spec: {template: {spec: {containers: [{$patch: delete}]}}}}`,
		wantErr:  "map: map[$patch:delete] does not contain declared merge key: name",
	}, {
		name:     "an original item without the merge key",
		original: `{spec: {template: {spec: {containers: [{image: nginx}]}}}}`,
		patch:    `{spec: {template: {spec: {containers: [{name: a}]}}}}`,
		wantErr:  "map: map[image:nginx] does not contain declared merge key: name",
	}, {
		name:     "$patch: merge as a list item",
		original: pod,
		patch:    `{spec: {template: {spec: {containers: [{$patch: merge, name: web}]}}}}`,
		wantErr:  "merging lists cannot yet be specified in the patch",
	}, {
		name:     "an unknown $patch value in a list",
		original: pod,
		patch:    `{spec: {template: {spec: {containers: [{$patch: remove, name: web}]}}}}`,
		wantErr:  "unknown patch type: remove in map: map[$patch:remove name:web]",
	}, {
		name:     "$patch: merge on an object",
		original: `{spec: {strategy: {type: Recreate}}}`,
		patch:    `{spec: {strategy: {$patch: merge, type: RollingUpdate}}}`,
		wantErr:  "unknown patch type: merge in map: map[$patch:merge type:RollingUpdate]",
	}, {
		name:     "a $patch value that is not a string",
		original: `{spec: {strategy: {type: Recreate}}}`,
		patch:    `{spec: {strategy: {$patch: true}}}`,
		wantErr:  "unknown patch type: %!s(bool=true) in map: map[$patch:true]",
	}, {
		name:     "strings where a merge list holds objects",
		original: pod,
		patch:    `{spec: {template: {spec: {containers: [web]}}}}`,
		wantErr:  "list element types are not identical: [[map[image:nginx name:web]] [web]]",
	}, {
		name:     "strings in an empty list that merges by key",
		original: `{spec: {template: {spec: {containers: []}}}}`,
		patch:    `{spec: {template: {spec: {containers: [web]}}}}`,
		wantErr:  "expected a map[string]interface {}, but received a string",
	}, {
		name:     "integers and floats in one primitive list",
		original: `{metadata: {finalizers: [1]}}`,
		patch:    `{metadata: {finalizers: [1.5]}}`,
		wantErr:  "list element types are not identical: [[1] [1.5]]",
	}, {
		name:     "a list of lists",
		original: `{metadata: {finalizers: []}}`,
		patch:    `{metadata: {finalizers: [[a]]}}`,
		wantErr:  "lists of lists are not supported",
	}, {
		name:     "objects in a merge list without merge key",
		schema:   object(props{"items": withStrategy(atomicList(object(nil)), "merge")}),
		original: `{items: [{a: 1}]}`,
		patch:    `{items: [{a: 2}]}`,
		wantErr:  "cannot merge lists without merge key for struct",
	}, {
		name:     "a patch strategy Kubernetes cannot read",
		schema:   object(props{"items": withStrategy(keyedList("name", nil), "merge,replace")}),
		original: `{items: [{name: a}]}`,
		patch:    `{items: [{name: b}]}`,
		wantErr:  "unexpected patch strategy: [merge replace]",
	}, {
		name:     "a $setElementOrder list out of the patch list's order",
		original: pod,
		patch: `
spec:
  template:
    spec:
      $setElementOrder/containers: [{name: web}, {name: side}]
      containers: [{name: side}, {name: web}]`,
		wantErr: "The order in patch list:\n[map[name:side] map[name:web]]\n doesn't match $setElementOrder list:\n[map[name:web] map[name:side]]\n",
	}})
}
